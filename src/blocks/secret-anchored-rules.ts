/**
 * The anchored credential rules: a short literal (a PEM header, `AccountKey=`, `://`, `secret_key =`) found, then
 * the value after it read with one sticky, bounded pattern at that position only. Apart from the token table
 * because each carries its own reader and patterns.
 */
import type { AnchoredRule } from './secret-rule-types.js';

/** A sticky pattern run once at `at`: group 1 is the value. Bounded quantifiers only. */
function stickyValue(re: RegExp, text: string, at: number): { start: number; value: string } | null {
  re.lastIndex = at;
  const m = re.exec(text);
  const value = m?.[1];
  if (!m || value === undefined) return null;
  return { start: m.index + m[0].length - value.length, value };
}

// A PEM block's optional header lines (Proc-Type, DEK-Info, Version, Comment), then its first base64 run.
const PEM_BODY =
  /(?:\s|\\[rn]){0,8}(?:[A-Za-z-]{1,20}:[^\n]{0,200}(?:\s|\\[rn]){1,8}){0,4}(?=([A-Za-z0-9+/]{1,4096}))\1/y;
const AWS_SECRET_VALUE = /["']?[ \t]{0,8}(?::|=>|=)[ \t]{0,8}["']?(?=([A-Za-z0-9/+=]{1,100}))\1/y;
const GCP_KEY_ID = /[ \t]{0,8}:[ \t]{0,8}"([0-9a-f]{40})"/y;
const AZURE_KEY = /(?=([A-Za-z0-9+/=]{1,120}))\1/y;
const SLACK_HOOK = /(?=([A-Za-z0-9_/-]{1,200}))\1/y;
// After `://`: user info `user:password@` (neither part may hold `@`, `/`, whitespace; the user no `:`).
const URL_USERINFO = /[^\s:@/?#"'<>]{1,128}:([^\s@/?#"'<>]{1,256})@[A-Za-z0-9[]/y;
const URL_SCHEME = /[A-Za-z][A-Za-z0-9+.-]{0,19}$/;
const PLACEHOLDER_PASSWORD =
  /^(?:\*+|x+|\.+|•+|password|passwd|pass|pwd|secret|token|changeme|\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|<[^>]*>|\{\{[^}]*\}\}|%[sd]|\[[^\]]*\])$/i;

export const ANCHORED_RULES: readonly AnchoredRule[] = [
  {
    kind: 'anchored',
    id: 'private-key',
    title: 'private key (PEM / OpenSSH)',
    keywords: ['private key'],
    shown: 0,
    anchor: '-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----',
    read: (text, _start, end) => {
      const v = stickyValue(PEM_BODY, text, end);
      return v !== null && v.value.length >= 40 ? v : null;
    },
  },
  {
    kind: 'anchored',
    id: 'aws-secret-access-key',
    title: 'AWS secret access key',
    keywords: ['secret'],
    shown: 0,
    flags: 'i',
    anchor: '(?:aws)?_?secret_?(?:access)?_?key',
    examples: ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    read: (text, _start, end) => {
      const v = stickyValue(AWS_SECRET_VALUE, text, end);
      return v !== null && v.value.length === 40 && /[0-9/+]/.test(v.value) ? v : null;
    },
  },
  {
    kind: 'anchored',
    id: 'gcp-service-account-key',
    title: 'Google service-account key',
    keywords: ['private_key_id'],
    shown: 0,
    anchor: '"private_key_id"',
    read: (text, _start, end) => stickyValue(GCP_KEY_ID, text, end),
  },
  {
    kind: 'anchored',
    id: 'azure-storage-key',
    title: 'Azure connection-string key',
    keywords: ['accountkey=', 'sharedaccesskey='],
    shown: 0,
    anchor: '(?:AccountKey|SharedAccessKey)=',
    read: (text, _start, end) => {
      const v = stickyValue(AZURE_KEY, text, end);
      return v !== null && v.value.length >= 40 && v.value.length <= 100 ? v : null;
    },
  },
  {
    kind: 'anchored',
    id: 'slack-webhook',
    title: 'Slack webhook URL',
    keywords: ['hooks.slack.com'],
    shown: 0,
    anchor: 'hooks\\.slack\\.com/(?:services|workflows|triggers)/',
    read: (text, _start, end) => {
      const v = stickyValue(SLACK_HOOK, text, end);
      return v !== null && v.value.length >= 20 && /\d/.test(v.value) ? v : null;
    },
  },
  {
    kind: 'anchored',
    id: 'url-password',
    title: 'password in a URL',
    keywords: ['://'],
    shown: 0,
    anchor: '://',
    read: (text, start, end) => {
      if (!URL_SCHEME.test(text.slice(Math.max(0, start - 20), start))) return null;
      const v = stickyValue(URL_USERINFO, text, end);
      return v !== null && !PLACEHOLDER_PASSWORD.test(v.value) ? v : null;
    },
  },
];
