import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/registry.js';
import { cleanupTmp, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const MAIN = join(process.cwd(), 'dist/bin/gitmem.cjs');
let env: Record<string, string>;

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { env, encoding: 'utf8', input: '', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  const home = makeTmpDir('gitmem-robust-');
  env = { ...hermeticGitEnv(home), GITMEM_HOME: home, GITMEM_MODEL: '' };
});
afterAll(cleanupTmp);

describe('every CLI command fails cleanly on bad input', () => {
  const names = Object.keys(COMMANDS);

  it('prints help for every command with exit 0', () => {
    for (const name of names) {
      const r = cli([name, '--help']);
      expect(r.code, name).toBe(0);
      expect(r.stdout, name).toMatch(/Usage/i);
    }
  });

  it('an unknown option is a one-line INVALID_ARGUMENT error with exit 1, never a stack trace', () => {
    for (const name of names) {
      const r = cli([name, '--no-such-option']);
      expect(r.code, name).toBe(1);
      expect(r.stderr, name).toMatch(/^gitmem: INVALID_ARGUMENT: /);
      expect(r.stderr, name).not.toMatch(/\n\s+at /);
    }
  });

  it('a command against an agent that does not exist exits 1 with a typed error', () => {
    for (const args of [
      ['status'],
      ['log'],
      ['tree'],
      ['prompt'],
      ['memory', 'delete', 'x', '--reason', 'r'],
      ['sync'],
      ['remote', 'show'],
      ['conflicts'],
    ]) {
      const r = cli([...args, '--agent', 'ghost']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(/^gitmem: [A-Z_]+: /);
      expect(r.stderr, args.join(' ')).not.toMatch(/\n\s+at /);
    }
  });

  it('no arguments prints the command list; an unknown command exits 1', () => {
    expect(cli([]).code).toBe(0);
    expect(cli([]).stdout).toContain('Commands:');
    expect(cli(['frobnicate']).code).toBe(1);
  });
});
