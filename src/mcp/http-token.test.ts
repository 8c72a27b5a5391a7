import { chmodSync, mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { assertUsableToken, bearerMatches, generateToken, readTokenFile, redactor } from './http-token.js';

const dir = mkdtempSync(join(tmpdir(), 'gitmem-token-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return isMemoryError(err) ? err.code : String(err);
  }
}

describe('MCP HTTP bearer token', () => {
  const token = generateToken();

  it('generates 32 random bytes as base64url, a new one each time', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateToken()).not.toBe(token);
  });

  it('matches exactly the Bearer credential, nothing shorter, longer or under another scheme', () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer  ${token} `, token)).toBe(true);
    for (const h of [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      `Bearer ${token.slice(1)}`,
      `Bearer ${token}x`,
      `Basic ${token}`,
      token,
      `Bearer ${token} extra`,
      `Bearer\t${token}`,
    ]) {
      expect(bearerMatches(h, token), String(h)).toBe(false);
    }
  });

  it('refuses tokens that are too short or not token68, without echoing them', () => {
    expect(assertUsableToken(token)).toBe(token);
    for (const t of [
      '',
      'short',
      'x'.repeat(1025),
      'with space in the middle',
      'tab\tin-the-token-000',
      'é'.repeat(20),
    ]) {
      let message = '';
      expect(
        codeOf(() => assertUsableToken(t)),
        t,
      ).toBe('INVALID_ARGUMENT');
      try {
        assertUsableToken(t);
      } catch (err) {
        message = (err as Error).message;
      }
      if (t.length >= 5) expect(message).not.toContain(t);
    }
  });

  it('reads a 0600 token file (trailing newline dropped); refuses a group/other-readable one, a directory, a missing or huge file', () => {
    const good = join(dir, 'good');
    writeFileSync(good, `${token}\n`, { mode: 0o600 });
    expect(readTokenFile(good)).toBe(token);
    const open = join(dir, 'open');
    writeFileSync(open, token, { mode: 0o600 });
    chmodSync(open, 0o644);
    expect(codeOf(() => readTokenFile(open))).toBe('CREDENTIALS_INSECURE');
    const sub = join(dir, 'sub');
    mkdirSync(sub, { mode: 0o700 });
    expect(codeOf(() => readTokenFile(sub))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => readTokenFile(join(dir, 'missing')))).toBe('INVALID_ARGUMENT');
    const huge = join(dir, 'huge');
    writeFileSync(huge, 'a'.repeat(5000), { mode: 0o600 });
    expect(codeOf(() => readTokenFile(huge))).toBe('INVALID_ARGUMENT');
    const fifoLike = join(dir, 'link');
    symlinkSync('/dev/null', fifoLike);
    expect(codeOf(() => readTokenFile(fifoLike))).toBe('INVALID_ARGUMENT');
  });

  it('redacts every occurrence of the token', () => {
    expect(redactor(token)(`a ${token} b ${token}`)).toBe('a [redacted] b [redacted]');
  });

  it('redacts a log line by the same rules as gitmem messages too', () => {
    const line = redactor(token)(
      "request failed: fatal: unable to access 'http://127.0.0.1:9/m.git?access_token=Zq9secret1/'",
    );
    expect(line).not.toContain('Zq9secret1');
    expect(line).toContain('access_token=<redacted>');
  });
});
