/**
 * The credential rules, as data: which shapes of text are credentials. Written for gitmem after the rule sets
 * of gitleaks and secretlint's recommended preset (the same providers and token formats), in a form that scans
 * in linear time on a backtracking regex engine:
 *
 * - a **token rule** is a fixed prefix followed by one run of its character class, taken atomically
 *   (`(?=(run))\1`: the engine never backtracks into the run) and then checked whole by an anchored test. A
 *   match always consumes its run, so the scan moves on past it and every character is looked at a bounded
 *   number of times;
 * - an **anchored rule** finds a short literal (a PEM header, `AccountKey=`, `://`, `secret_key =`) and reads
 *   what follows with a sticky, bounded pattern at that position only.
 *
 * Every quantifier is bounded or atomic. `keywords` (lower case) are a pre-filter: a rule runs only when the
 * text contains one of them, as gitleaks does.
 */

/** How much of a matched value a message may show: the rule's public prefix, never more. */
export interface SecretRuleBase {
  /** Stable id, named in refusals (`github-token`). */
  id: string;
  /** What it is, for people (`GitHub token`). */
  title: string;
  /** Lower-case words one of which the text must contain for the rule to run. */
  keywords: readonly string[];
  /** Characters of the value a preview may show (the format's fixed prefix, e.g. 4 for `ghp_`). */
  shown: number;
  /** Published documentation examples that are not credentials. */
  examples?: readonly string[];
}

/** Prefix + one atomic run, then `valid(token)` on the whole token (prefix included). */
export interface TokenRule extends SecretRuleBase {
  kind: 'token';
  /** Regex source of the prefix (after a word boundary). */
  prefix: string;
  /** Regex source of one character class: the token's body. */
  run: string;
  /** Longest body read. */
  max: number;
  valid: (token: string) => boolean;
}

/** A literal anchor, then `read(text, end)`: the secret value after it, or null. */
export interface AnchoredRule extends SecretRuleBase {
  kind: 'anchored';
  /** Regex source of the anchor (searched with the g flag; keep it short and bounded). */
  anchor: string;
  flags?: string;
  /** The value after the anchor ending at `end`; `start` is where the anchor began. */
  read: (text: string, start: number, end: number) => { start: number; value: string } | null;
}

export type SecretRule = TokenRule | AnchoredRule;

const test =
  (re: RegExp) =>
  (token: string): boolean =>
    re.test(token);

/** A sticky pattern run once at `at`: group 1 is the value. Bounded quantifiers only. */
function stickyValue(re: RegExp, text: string, at: number): { start: number; value: string } | null {
  re.lastIndex = at;
  const m = re.exec(text);
  const value = m?.[1];
  if (!m || value === undefined) return null;
  return { start: m.index + m[0].length - value.length, value };
}

const TOKEN_RULES: readonly TokenRule[] = [
  {
    kind: 'token',
    id: 'aws-access-key-id',
    title: 'AWS access key id',
    keywords: ['akia', 'asia', 'abia', 'acca', 'agpa', 'aida', 'aipa', 'anpa', 'anva', 'aroa', 'a3t'],
    prefix: '(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA)',
    run: '[A-Z0-9]',
    max: 40,
    shown: 4,
    valid: test(/^.{4}[A-Z2-7]{16}$/),
    examples: ['AKIAIOSFODNN7EXAMPLE'],
  },
  {
    kind: 'token',
    id: 'gcp-api-key',
    title: 'Google API key',
    keywords: ['aiza'],
    prefix: 'AIza',
    run: '[0-9A-Za-z_-]',
    max: 60,
    shown: 4,
    valid: test(/^AIza[0-9A-Za-z_-]{35}$/),
  },
  {
    kind: 'token',
    id: 'gcp-oauth-secret',
    title: 'Google OAuth client secret',
    keywords: ['gocspx-'],
    prefix: 'GOCSPX-',
    run: '[0-9A-Za-z_-]',
    max: 60,
    shown: 7,
    valid: test(/^GOCSPX-[0-9A-Za-z_-]{28}$/),
  },
  {
    kind: 'token',
    id: 'github-token',
    title: 'GitHub token',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    prefix: 'gh[pousr]_',
    run: '[A-Za-z0-9]',
    max: 260,
    shown: 4,
    valid: test(/^gh[pousr]_[A-Za-z0-9]{36,255}$/),
  },
  {
    kind: 'token',
    id: 'github-fine-grained-token',
    title: 'GitHub fine-grained token',
    keywords: ['github_pat_'],
    prefix: 'github_pat_',
    run: '[A-Za-z0-9_]',
    max: 120,
    shown: 11,
    valid: test(/^github_pat_[A-Za-z0-9_]{80,100}$/),
  },
  {
    kind: 'token',
    id: 'gitlab-token',
    title: 'GitLab token',
    keywords: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glsoat-', 'gloas-', 'glft-'],
    prefix: 'gl(?:pat|dt|rt|ptt|soat|oas|ft)-',
    run: '[A-Za-z0-9_.-]',
    max: 100,
    shown: 6,
    valid: test(/^gl[a-z]{2,4}-[A-Za-z0-9_.-]{20,90}$/),
  },
  {
    kind: 'token',
    id: 'slack-token',
    title: 'Slack token',
    keywords: ['xox'],
    prefix: 'xox[abeprs]-',
    run: '[A-Za-z0-9-]',
    max: 260,
    shown: 5,
    valid: test(/^xox[abeprs]-(?:\d-)?\d{8,14}-[A-Za-z0-9-]{8,240}$/),
  },
  {
    kind: 'token',
    id: 'openai-key',
    title: 'OpenAI API key',
    keywords: ['t3blbkfj'],
    prefix: 'sk-',
    run: '[A-Za-z0-9_-]',
    max: 300,
    shown: 3,
    valid: (t) =>
      t.includes('T3BlbkFJ') &&
      (/^sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,250}$/.test(t) || /^sk-[A-Za-z0-9]{48}$/.test(t)),
  },
  {
    kind: 'token',
    id: 'anthropic-key',
    title: 'Anthropic API key',
    keywords: ['sk-ant-'],
    prefix: 'sk-ant-',
    run: '[A-Za-z0-9_-]',
    max: 200,
    shown: 7,
    valid: test(/^sk-ant-(?:api|admin|oat)\d{2}-[A-Za-z0-9_-]{80,150}$/),
  },
  {
    kind: 'token',
    id: 'stripe-key',
    title: 'Stripe key',
    keywords: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'],
    prefix: '[sr]k_(?:live|test)_',
    run: '[A-Za-z0-9]',
    max: 260,
    shown: 8,
    valid: test(/^[sr]k_(?:live|test)_[A-Za-z0-9]{20,250}$/),
  },
  {
    kind: 'token',
    id: 'npm-token',
    title: 'npm access token',
    keywords: ['npm_'],
    prefix: 'npm_',
    run: '[A-Za-z0-9]',
    max: 60,
    shown: 4,
    valid: test(/^npm_[A-Za-z0-9]{36}$/),
  },
  {
    kind: 'token',
    id: 'huggingface-token',
    title: 'Hugging Face token',
    keywords: ['hf_'],
    prefix: 'hf_',
    run: '[A-Za-z0-9]',
    max: 60,
    shown: 3,
    valid: test(/^hf_[A-Za-z]{34}$/),
  },
  {
    kind: 'token',
    id: 'sendgrid-key',
    title: 'SendGrid API key',
    keywords: ['sg.'],
    prefix: 'SG\\.',
    run: '[A-Za-z0-9_.-]',
    max: 100,
    shown: 3,
    valid: test(/^SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/),
  },
  {
    kind: 'token',
    id: 'shopify-token',
    title: 'Shopify token',
    keywords: ['shpat_', 'shpss_', 'shpca_', 'shppa_'],
    prefix: 'shp(?:at|ss|ca|pa)_',
    run: '[A-Fa-f0-9]',
    max: 60,
    shown: 6,
    valid: test(/^shp[a-z]{2}_[A-Fa-f0-9]{32}$/),
  },
  {
    kind: 'token',
    id: 'digitalocean-token',
    title: 'DigitalOcean token',
    keywords: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    prefix: 'do[opr]_v1_',
    run: '[a-f0-9]',
    max: 80,
    shown: 7,
    valid: test(/^do[opr]_v1_[a-f0-9]{64}$/),
  },
  {
    kind: 'token',
    id: 'jwt',
    title: 'JSON Web Token',
    keywords: ['eyj'],
    prefix: 'eyJ',
    run: '[A-Za-z0-9_.-]',
    max: 8000,
    shown: 3,
    valid: (t) => isJwt(t.replace(/\.+$/, '')),
  },
];

/** Three base64url segments whose first decodes to a JSON header naming its algorithm. */
function isJwt(token: string): boolean {
  if (!/^eyJ[A-Za-z0-9_-]{8,600}\.eyJ[A-Za-z0-9_-]{8,6000}\.[A-Za-z0-9_-]{16,1400}$/.test(token)) return false;
  try {
    const header: unknown = JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8'));
    return (
      typeof header === 'object' && header !== null && typeof (header as Record<string, unknown>)['alg'] === 'string'
    );
  } catch {
    return false;
  }
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

const ANCHORED_RULES: readonly AnchoredRule[] = [
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

/**
 * Every rule, specific ones first (the generic assignment rule in secrets.ts runs after them and yields to
 * any of their findings).
 */
export const SECRET_RULES: readonly SecretRule[] = [...TOKEN_RULES, ...ANCHORED_RULES];
