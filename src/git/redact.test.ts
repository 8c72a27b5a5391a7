import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { redactArgv, redactPerlProgram, redactText } from './redact.js';
import { rng } from '../../test/helpers/rng.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/=';
const PREFIXES = ['', '', '', 'ghp_', 'github_pat_', 'glpat-', 'sk-', 'sk-ant-', 'xoxb-', 'gitmem_'];

function randomToken(r: () => number): string {
  const prefix = PREFIXES[Math.floor(r() * PREFIXES.length)] ?? '';
  const len = 12 + Math.floor(r() * 40);
  let body = '';
  for (let i = 0; i < len; i++) body += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return prefix + body;
}

/** Every way a token shows up in git argv, errors and logs. */
function contexts(tok: string): string[] {
  const basic = Buffer.from(`x-access-token:${tok}`).toString('base64');
  const enc = encodeURIComponent(tok);
  return [
    `http.extraHeader=Authorization: Bearer ${tok}`,
    `http.https://github.com/.extraHeader=Authorization: Basic ${basic}`,
    `> Authorization: Bearer ${tok}\r\n`,
    `authorization: token ${tok}`,
    `password=${tok}\nusername=git`,
    `fatal: unable to access 'https://user:${enc}@example.com/r.git/': 403`,
    `error: failed to push some refs to "https://oauth2:${enc}@gitlab.example.com/x.git"`,
    `cloning from https://${enc}@github.com/me/mem.git`,
    `git -c http.extraHeader=Authorization: Bearer ${tok} push origin main`,
  ];
}

describe('redactText', () => {
  it('removes the exact header, password, URL and prefix forms', () => {
    expect(redactText('Authorization: Bearer abc.def')).toBe('Authorization: Bearer <redacted>');
    expect(redactText('-c http.extraHeader=Authorization: Basic Zm9vOmJhcg==')).toBe(
      '-c http.extraHeader=Authorization: Basic <redacted>',
    );
    expect(redactText('password=hunter2; user=x')).toBe('password=<redacted>; user=x');
    expect(redactText('https://me:s3cret@host/x.git')).toBe('https://me:***@host/x.git');
    expect(redactText('token ghp_abcdefghijklmnopqrstuvwxyz0123')).toBe('token ghp_<redacted>');
  });

  it('leaves ordinary text, SSH URLs and URLs without secrets alone', () => {
    for (const t of [
      'git@github.com:me/mem.git',
      'https://github.com/me/mem.git',
      'Already up to date.',
      'https://me@host/x',
    ]) {
      expect(redactText(t)).toBe(t);
    }
  });

  it('does not mangle an already redacted header', () => {
    const once = redactText('Authorization: Bearer tok-123456789', ['tok-123456789']);
    expect(once).toBe('Authorization: Bearer <redacted>');
    expect(redactText(once)).toBe(once);
  });

  it('removes 500 random tokens from every context when the token is known', () => {
    const r = rng(20240601);
    for (let i = 0; i < 500; i++) {
      const tok = randomToken(r);
      for (const text of contexts(tok)) {
        const out = redactText(text, [tok]);
        expect(out, `seed case ${i}: ${text}`).not.toContain(tok);
        expect(out).not.toContain(encodeURIComponent(tok));
        expect(out).not.toContain(Buffer.from(`x-access-token:${tok}`).toString('base64'));
      }
    }
  });

  it('removes 500 random tokens from header, password and URL contexts by pattern alone', () => {
    const r = rng(7);
    for (let i = 0; i < 500; i++) {
      const tok = randomToken(r).replace(/[/+=.~]/g, 'x'); // URL-safe, as tokens in URLs are
      for (const text of contexts(tok)) {
        expect(redactText(text), `seed case ${i}: ${text}`).not.toContain(tok);
      }
    }
  });

  it('redacts credentials in query strings and fragments, and nothing else of the URL', () => {
    const secret = 'Zq9-secret_VALUE.1~x';
    const cases = [
      `https://h/x.git?access_token=${secret}`,
      `https://h/x.git?ref=main&private_token=${secret}&page=2`,
      `https://h/x.git?token=${secret}`,
      `https://h/x.git?KEY=${secret}`,
      `https://h/x.git?api_key=${secret}#top`,
      `https://blob.example/c/x?sv=2020&sig=${secret}&se=1`,
      `https://s3.example/x?X-Amz-Credential=${secret}&X-Amz-Signature=${secret}`,
      `https://h/x.git?signature=${secret}`,
      `https://h/x.git?password=${secret}`,
      `https://h/x.git?client_secret=${secret}`,
      `https://h/x.git#access_token=${secret}`,
      `https%3A%2F%2Fh%2Fx.git%3Faccess_token%3D${secret}`.replace('%3D', '='),
      `fatal: unable to access 'https://h/x.git/?access_token=${secret}': The requested URL returned error: 403`,
      `{"url":"https://h/x.git?token=${secret}"}`,
      `access_token=${secret} in a log line`,
    ];
    for (const text of cases) {
      const out = redactText(text);
      expect(out, text).not.toContain(secret);
      expect(out, text).toContain('<redacted>');
      expect(redactText(out), 'idempotent').toBe(out);
    }
    expect(redactText(`https://h/x.git?ref=main&page=2`)).toBe('https://h/x.git?ref=main&page=2');
    expect(redactText(`https://h/x.git?access_token=${secret}&page=2`)).toBe(
      'https://h/x.git?access_token=<redacted>&page=2',
    );
  });

  it('removes a known secret from environment-style config entries too', () => {
    const out = redactText(
      'GIT_CONFIG_VALUE_2=Authorization: Basic eC1hY2Nlc3M6dA== GIT_CONFIG_VALUE_3=tk-9876543210',
      ['tk-9876543210'],
    );
    expect(out).not.toMatch(/eC1hY2Nlc3M6dA|tk-9876543210/);
  });

  it('redacts every argv element', () => {
    const argv = redactArgv(
      ['-c', 'http.extraHeader=Authorization: Bearer zzz-secret-1', 'push', 'https://u:p4ss@h/x'],
      ['zzz-secret-1'],
    );
    expect(argv.join(' ')).not.toMatch(/zzz-secret-1|p4ss/);
  });
});

describe('redactPerlProgram', () => {
  const perl = ['/usr/bin/perl', '/bin/perl'].find((p) => existsSync(p));
  it.skipIf(perl === undefined)(
    'redacts every line exactly as redactText does (the same table, rendered for perl)',
    () => {
      const r = rng(31);
      const lines: string[] = [
        "fatal: unable to access 'http://127.0.0.1:9/m.git?access_token=Zq9-secret_VALUE.1~x/': Failed to connect",
        'https://h/x?ref=a&private_token=zz#sig=q;note=ok&X-Amz-Signature=abc%26key=v',
        'https://h/x%3Fapi_key=k1%26page=2',
        'Authorization: Bearer <redacted> then authorization: token abc',
        'https://me@host/x and git@github.com:me/mem.git and Already up to date.',
        'quotes "https://a:b@c/d" \'password=p\' `id_token=t`',
      ];
      for (let i = 0; i < 300; i++) {
        const tok = randomToken(r).replace(/[/+=.~]/g, 'x');
        for (const text of contexts(tok)) lines.push(...text.split(/\r?\n/));
      }
      const out = execFileSync(perl as string, ['-pe', redactPerlProgram()], { input: lines.join('\n') })
        .toString()
        .split('\n');
      expect(out).toEqual(lines.map((l) => redactText(l)));
    },
  );
});
