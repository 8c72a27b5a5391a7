/**
 * The CLI side of secret scanning: a refused write is one `gitmem: SECRET_DETECTED: …` line (exit 1) that never
 * shows the value, and `gitmem secrets allow|list|remove` manages the operator's allow list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, errorCode, type CliHome } from '../../helpers/cli.js';
import { fakeSecrets } from '../../helpers/secret-corpus.js';
import { cleanupTmp } from '../../helpers/tmp.js';

let h: CliHome;
const fake = fakeSecrets(21).find((f) => f.rule === 'openai-key');

beforeAll(() => {
  h = cliHome('local', ['a1']);
});
afterAll(() => {
  h.close();
  cleanupTmp();
});

describe('gitmem and secrets', () => {
  it('refuses a write holding a credential with exit 1 and one line naming file:line and rule, in text and --json', () => {
    if (!fake) throw new Error('corpus');
    const before = h.state('a1');
    const args = [
      'memory',
      'create',
      'notes/k.md',
      '--description',
      'keys',
      '--text',
      `my key\n${fake.text}\n`,
      '--reason',
      'r',
      '--agent',
      'a1',
    ];
    const r = h.run(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^gitmem: SECRET_DETECTED: Refused: the change adds what looks like a credential/);
    expect(r.stderr).toMatch(
      /notes\/k\.md:5: SECRET_DETECTED: OpenAI API key \(rule openai-key, sk-…\(\d+ chars\), fingerprint [0-9a-f]{16}\)/,
    );
    const j = h.run([...args, '--json']);
    expect(errorCode(j)).toBe('SECRET_DETECTED');
    for (const out of [r.stdout, r.stderr, j.stdout, j.stderr]) expect(out).not.toContain(fake.value);
    expect(h.state('a1')).toBe(before);
  });

  it('allows a fingerprint, lists it with its note, and removes it', () => {
    if (!fake) throw new Error('corpus');
    const args = [
      'memory',
      'create',
      'notes/k.md',
      '--description',
      'keys',
      '--text',
      `${fake.text}\n`,
      '--reason',
      'r',
      '--agent',
      'a1',
    ];
    const fingerprint = /fingerprint ([0-9a-f]{16})/.exec(h.run(args).stderr)?.[1] ?? '';
    expect(h.run(['secrets', 'allow', fingerprint, '--note', 'a test fixture', '--agent', 'a1']).code).toBe(0);
    expect(h.run(['secrets', '--agent', 'a1']).stdout).toContain(`${fingerprint}  a test fixture`);
    expect(h.run(args).code).toBe(0);
    expect(h.run(['secrets', 'remove', fingerprint, '--agent', 'a1']).stdout).toContain('No allowed fingerprints.');
    const bad = h.run(['secrets', 'allow', 'not-a-fingerprint', '--agent', 'a1']);
    expect(errorCode(bad) ?? bad.stderr).toMatch(/INVALID_ARGUMENT/);
  });
});
