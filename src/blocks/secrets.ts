/**
 * Secret scanning: finds credentials in text a change adds, for the validator (so the memory tool, apply_patch,
 * the pre-commit hook, merges of background writers and the scan before a push all refuse the same things).
 * Pure and linear-time: the rules (secret-rules.ts) never backtrack into a run, the generic assignment rule is
 * anchored on its keywords with bounded reads, and only the lines a change adds are scanned.
 *
 * A finding carries the rule, the line, a fingerprint (a hash of the value, for the operator's allow list) and
 * a redacted preview — never the value itself.
 */
import { createHash } from 'node:crypto';
import type { SecretRule } from './secret-rule-types.js';
import { SECRET_RULES } from './secret-rules.js';

/** On a line a finding covers, this marker allows it (a documented example, a test fixture). */
export const ALLOW_SECRET_MARKER = 'gitmem:allow-secret';

/** One credential found. `line`/`endLine` are 1-based lines of the scanned text. */
export interface SecretFinding {
  rule: string;
  title: string;
  line: number;
  endLine: number;
  /** Hex SHA-256 prefix of the value: what the allow list holds. */
  fingerprint: string;
  /** e.g. `ghp_…(40 chars)`: the format's public prefix and the length, nothing else. */
  preview: string;
}

export interface ScanOptions {
  /** Fingerprints an operator allowed. */
  allowed?: ReadonlySet<string>;
}

/**
 * The fingerprint of a matched value (first 16 hex digits of a domain-separated SHA-256).
 * @example secretFingerprint('x').length === 16
 */
export function secretFingerprint(value: string): string {
  return createHash('sha256').update('gitmem-secret\0').update(value).digest('hex').slice(0, 16);
}

interface Hit {
  rule: string;
  title: string;
  start: number;
  end: number;
  value: string;
  shown: number;
}

function* ruleHits(rule: SecretRule, text: string): Generator<Hit> {
  const base = { rule: rule.id, title: rule.title, shown: rule.shown };
  if (rule.kind === 'token') {
    const re = new RegExp(`\\b(${rule.prefix})(?=(${rule.run}{1,${rule.max}}))\\2`, 'g');
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (rule.valid(m[0])) yield { ...base, start: m.index, end: m.index + m[0].length, value: m[0] };
    }
    return;
  }
  const re = new RegExp(rule.anchor, `g${rule.flags ?? ''}`);
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const end = m.index + m[0].length;
    const v = rule.read(text, m.index, end);
    if (v !== null) yield { ...base, start: Math.min(m.index, v.start), end: v.start + v.value.length, value: v.value };
    re.lastIndex = Math.max(re.lastIndex, v === null ? end : v.start + v.value.length);
  }
}

// The generic rule: `<name> = <value>` where the name ends in a credential word and the value looks random.
const ASSIGNMENT =
  /(?:key|secret|token|passw(?:or)?d|pwd|credentials?)["']?[ \t]{0,4}(?::=|=>|:|=)[ \t]{0,4}["'`]?(?=([A-Za-z0-9+/=_.~!@#$%^&*-]{1,200}))\1/gi;
const CREDENTIAL_NAME =
  /(?:^|[^a-z])(?:api[_-]?key|apikey|secret(?:[_-]?key)?|access[_-]?key|private[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|client[_-]?secret|[a-z]*[_-]?token|password|passwd|pwd|credentials?)$|[a-z0-9][_-]key$/;
const NAME_CHARS = /[A-Za-z0-9_.-]/;
const PLACEHOLDER = /example|sample|dummy|placeholder|your[_-]|changeme|redacted|xxxx|\*\*\*|\.\.\.|<|>/i;
/** Bits per character above which a value counts as random (gitleaks' generic rule uses the same). */
export const ENTROPY_THRESHOLD = 3.5;

/**
 * Shannon entropy of a string in bits per character.
 * @example shannonEntropy('aaaa') === 0
 */
export function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

// A reference to where a secret lives (`process.env.API_KEY`, `config.auth.token`) rather than a secret.
const DOTTED_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+$/;

/** Long enough, letters and digits, not a placeholder or a dotted name, and random by its entropy. */
function looksRandom(value: string): boolean {
  if (value.length < 12 || PLACEHOLDER.test(value) || DOTTED_NAME.test(value)) return false;
  if (!/[A-Za-z]/.test(value) || !/[0-9]/.test(value)) return false;
  return shannonEntropy(value) >= ENTROPY_THRESHOLD;
}

function* assignmentHits(text: string): Generator<Hit> {
  ASSIGNMENT.lastIndex = 0;
  for (let m = ASSIGNMENT.exec(text); m !== null; m = ASSIGNMENT.exec(text)) {
    let from = m.index;
    while (from > 0 && m.index - from < 64 && NAME_CHARS.test(text[from - 1] ?? '')) from--;
    const keyword = /^[A-Za-z]+/.exec(m[0])?.[0] ?? '';
    const name = text.slice(from, m.index + keyword.length).toLowerCase();
    const value = (m[1] ?? '').replace(/[.]+$/, '');
    if (!CREDENTIAL_NAME.test(name) || !looksRandom(value)) continue;
    const start = m.index + m[0].length - (m[1] ?? '').length;
    yield {
      rule: 'generic-secret-assignment',
      title: 'high-entropy secret assignment',
      start,
      end: start + value.length,
      value,
      shown: 0,
    };
  }
}

/** Every hit in `text`, specific rules first; the generic rule yields to a specific hit it overlaps. */
function allHits(text: string): Hit[] {
  const lower = text.toLowerCase();
  const hits: Hit[] = [];
  for (const rule of SECRET_RULES) {
    if (!rule.keywords.some((k) => lower.includes(k))) continue;
    for (const h of ruleHits(rule, text)) if (!rule.examples?.includes(h.value)) hits.push(h);
  }
  if (/key|secret|token|passw|pwd|credential/.test(lower)) {
    for (const h of assignmentHits(text)) if (!hits.some((o) => o.start < h.end && h.start < o.end)) hits.push(h);
  }
  return hits.sort((a, b) => a.start - b.start);
}

/** Line starts of `text` (index of each line's first character). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(starts: readonly number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

function preview(h: Hit): string {
  return `${h.value.slice(0, Math.min(h.shown, h.value.length))}…(${h.value.length} chars)`;
}

/**
 * The credentials in `text`, minus those allowed by fingerprint or by the marker on a line they cover.
 * @example scanText('token = ' + 'ghp_' + 'a'.repeat(36))[0].rule === 'github-token'
 */
export function scanText(text: string, options: ScanOptions = {}): SecretFinding[] {
  const hits = allHits(text);
  if (hits.length === 0) return [];
  const starts = lineStarts(text);
  const lines = text.split('\n');
  const out: SecretFinding[] = [];
  for (const h of hits) {
    const line = lineOf(starts, h.start);
    const endLine = lineOf(starts, Math.max(h.start, h.end - 1));
    const fingerprint = secretFingerprint(h.value);
    if (options.allowed?.has(fingerprint)) continue;
    if (lines.slice(line - 1, endLine).some((l) => l.includes(ALLOW_SECRET_MARKER))) continue;
    out.push({ rule: h.rule, title: h.title, line, endLine, fingerprint, preview: preview(h) });
  }
  return out;
}

/**
 * What a change adds: `after` with every line that `before` already had (as a multiset) blanked, so line
 * numbers stay those of `after` and text that was already there is not scanned again. Linear time.
 * @example addedText('a\nb\n', 'a\nc\nb\n') === '\nc\n\n'
 */
export function addedText(before: string | null, after: string): string {
  if (before === null || before === '') return after;
  const had = new Map<string, number>();
  for (const l of before.split('\n')) had.set(l, (had.get(l) ?? 0) + 1);
  return after
    .split('\n')
    .map((l) => {
      const n = had.get(l) ?? 0;
      if (n === 0) return l;
      had.set(l, n - 1);
      return '';
    })
    .join('\n');
}

/**
 * The credentials a change adds to a file (only its new lines are scanned).
 * @example scanChange(oldText, newText, { allowed })
 */
export function scanChange(before: string | null, after: string, options: ScanOptions = {}): SecretFinding[] {
  return scanText(addedText(before, after), options);
}
