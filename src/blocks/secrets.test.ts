import { describe, expect, it } from 'vitest';
import { fakeSecrets, lookAlikes } from '../../test/helpers/secret-corpus.js';
import { ALLOW_SECRET_MARKER, addedText, scanChange, scanText, secretFingerprint, shannonEntropy } from './secrets.js';
import { SECRET_RULES } from './secret-rules.js';

describe('scanText: the corpus', () => {
  const fakes = fakeSecrets();

  it('has at least 30 fake credentials and 30 look-alikes', () => {
    expect(fakes.length).toBeGreaterThanOrEqual(30);
    expect(lookAlikes().length).toBeGreaterThanOrEqual(30);
  });

  it.each(fakes.map((f) => [f.name, f] as const))('finds the fake %s with its rule', (_name, f) => {
    const found = scanText(`intro line\n${f.text}\nlast line\n`);
    expect(found.map((x) => x.rule)).toContain(f.rule);
    const hit = found.find((x) => x.rule === f.rule);
    expect(hit?.line).toBeGreaterThanOrEqual(2);
    // The finding never carries the value: only its public prefix, its length and a hash.
    expect(JSON.stringify(found)).not.toContain(f.value);
    expect(JSON.stringify(found)).not.toContain(f.value.slice(-12));
  });

  it('finds the fakes with several seeds (the formats, not one lucky string)', () => {
    for (const seed of [1, 2, 3, 99]) {
      for (const f of fakeSecrets(seed))
        expect(
          scanText(f.text).map((x) => x.rule),
          `${seed} ${f.name}`,
        ).toContain(f.rule);
    }
  });

  it.each(lookAlikes().map((l) => [l.name, l.text] as const))('lets the look-alike %s pass', (_name, text) => {
    expect(scanText(text)).toEqual([]);
  });

  it('lets all look-alikes pass together, as one file', () => {
    expect(
      scanText(
        lookAlikes(11)
          .map((l) => l.text)
          .join('\n\n'),
      ),
    ).toEqual([]);
  });

  it('every rule of the table is exercised by the corpus', () => {
    const caught = new Set(fakes.map((f) => f.rule));
    for (const rule of SECRET_RULES) expect(caught, rule.id).toContain(rule.id);
    expect(caught).toContain('generic-secret-assignment');
  });
});

describe('scanText: allowing', () => {
  const [fake] = fakeSecrets(5).filter((f) => f.rule === 'github-token');

  it('allows a finding whose line carries the marker, and one whose fingerprint is listed', () => {
    if (!fake) throw new Error('corpus');
    expect(scanText(`${fake.text} <!-- ${ALLOW_SECRET_MARKER} -->`)).toEqual([]);
    const [hit] = scanText(fake.text);
    expect(hit?.fingerprint).toBe(secretFingerprint(fake.value));
    expect(scanText(fake.text, { allowed: new Set([hit?.fingerprint ?? '']) })).toEqual([]);
    // The marker on another line does not count.
    expect(scanText(`${ALLOW_SECRET_MARKER}\n${fake.text}`)).toHaveLength(1);
  });

  it('previews only the format prefix and the length', () => {
    if (!fake) throw new Error('corpus');
    expect(scanText(fake.text)[0]?.preview).toBe(`${fake.value.slice(0, 4)}…(${fake.value.length} chars)`);
  });
});

describe('scanChange: only what a change adds', () => {
  const [fake] = fakeSecrets(8).filter((f) => f.rule === 'stripe-key');

  it('does not report a secret the old text already had, and does report a new one', () => {
    if (!fake) throw new Error('corpus');
    const before = `a\n${fake.text}\nb\n`;
    expect(scanChange(before, `a\n${fake.text}\nb\nnew line\n`)).toEqual([]);
    expect(scanChange(before, `${fake.text}\n${before}`)).toHaveLength(1);
    expect(scanChange(null, before)[0]?.line).toBe(2);
  });

  it('keeps line numbers of the new text', () => {
    expect(addedText('a\nb\nc', 'a\nX\nb\nc\nb')).toBe('\nX\n\n\nb');
  });
});

describe('scanText: linear time on adversarial input', () => {
  const M = 1_000_000;
  const rep = (s: string): string => s.repeat(Math.ceil(M / s.length)).slice(0, M);
  const inputs = [
    'a'.repeat(M),
    rep('eyJ-'),
    rep('eyJaaaaaaaaaaaaa.'),
    rep('sk-proj-T3BlbkFJ'),
    rep('sk-'),
    rep('ghp_'),
    rep('AKIA'),
    rep('-----BEGIN PRIVATE KEY-----'),
    `-----BEGIN PRIVATE KEY-----${' '.repeat(M)}`,
    rep('a://'),
    rep('https://u:'),
    `http://${rep('a:')}`,
    rep('password='),
    rep('api_key: '),
    rep(`token=${'a1'.repeat(10)} `),
    rep('='),
    rep('aws_secret_access_key='),
    `secret_key${' '.repeat(M)}`,
    rep('xoxb-1234567890-'),
    rep('hooks.slack.com/services/'),
    rep('AccountKey='),
    rep('+/Aa0'),
    rep('password: x\nkey=AKIA sk- eyJ ghp_ :// '),
  ];
  // Each finishes far inside the test timeout: a quadratic pattern would take hours on 1 MB.
  it.each(inputs.map((s, i) => [i, s] as const))('scans adversarial input %i (1 MB) in one pass', (_i, s) => {
    expect(Array.isArray(scanText(s))).toBe(true);
  });
});

describe('shannonEntropy', () => {
  it('is 0 for one repeated character and log2(n) for n distinct ones', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});
