// The command line as a new user types it: global options in any position and in `--opt=value` form,
// option values that start with `-`, `help`, `--version`, bare groups, extra positionals, `--json` errors,
// and the tool call in `memory tool --call`. Every case runs without a daemon and through one (the daemon's
// client must find the command exactly as the CLI does).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, errorCode, type CliHome, type CliMode } from '../../helpers/cli.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

const VERSION = (JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version: string }).version;

describe.each<CliMode>(['local', 'daemon'])('command line (%s)', (mode) => {
  let h: CliHome;
  beforeAll(() => {
    h = cliHome(mode, ['a1', 'a2']);
  });
  afterAll(() => {
    h.close();
    cleanupTmp();
  });

  const servedWhile = (fn: () => void): number => {
    const before = h.served();
    fn();
    return h.served() - before;
  };

  it('takes global options before the command, after it, and as --opt=value', () => {
    const n = servedWhile(() => {
      for (const args of [
        ['--agent', 'a1', 'tree'],
        ['tree', '--agent', 'a1'],
        ['--agent=a1', 'tree'],
        ['--json', '--agent', 'a1', 'tree'],
      ]) {
        const r = h.run(args);
        expect({ args, code: r.code, err: r.stderr }).toEqual({ args, code: 0, err: '' });
        expect(r.stdout, args.join(' ')).toContain('system/');
      }
      const r = h.run([
        '--home',
        h.home,
        '--agent',
        'a2',
        'memory',
        'create',
        'notes/pnpm.md',
        '--description',
        'tools',
        '--text',
        '- prefers pnpm',
        '--reason',
        'r',
      ]);
      expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: '' });
    });
    if (mode === 'daemon') expect(n).toBe(5);
    expect(git(h.memoryDir('a2'), ['show', 'HEAD:notes/pnpm.md'])).toContain('\n- prefers pnpm');
  });

  it('takes an option value that starts with a dash as the value', () => {
    const r = h.run([
      'memory',
      'str-replace',
      'notes/pnpm.md',
      '--old',
      '- prefers',
      '--new',
      '- insists on',
      '--reason',
      '-- a dash reason',
      '--agent',
      'a2',
    ]);
    expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: '' });
    expect(git(h.memoryDir('a2'), ['show', 'HEAD:notes/pnpm.md'])).toContain('\n- insists on pnpm');
    expect(git(h.memoryDir('a2'), ['log', '-1', '--format=%s'])).toBe('-- a dash reason');
    const n = h.run(['log', '-n', '1', '--agent', 'a2', '--json']);
    expect(JSON.parse(n.stdout)).toHaveLength(1);
  });

  it('refuses a value that is exactly another option of the command (--reason --json); --opt=value and other dashes stay values', () => {
    const before = h.state('a2');
    for (const args of [
      ['memory', 'delete', 'notes/pnpm.md', '--reason', '--json'],
      ['memory', 'delete', 'notes/pnpm.md', '--reason', '--agent=a2'],
      ['--agent', '--json', 'memory', 'delete', 'notes/pnpm.md', '--reason', 'r'],
      ['log', '-n', '--json'],
      ['memory', 'create', 'notes/h.md', '--description', 'd', '--text', '-h', '--reason', 'r'],
    ]) {
      const r = h.run([...args, '--agent', 'a2']);
      expect({ args, code: r.code, error: errorCode(r) }).toEqual({ args, code: 1, error: 'INVALID_ARGUMENT' });
      expect(r.stderr.split('\n')[0]).toMatch(/needs a value, but the next word is the option/);
    }
    expect(h.state('a2')).toBe(before);
    const explicit = h.run([
      'memory',
      'create',
      'notes/opt.md',
      '--description',
      'd',
      '--text=-h',
      '--reason=--json',
      '--agent',
      'a2',
    ]);
    expect({ code: explicit.code, err: explicit.stderr }).toEqual({ code: 0, err: '' });
    expect(git(h.memoryDir('a2'), ['log', '-1', '--format=%s'])).toBe('--json');
    const dash = h.run([
      'memory',
      'create',
      'notes/dash.md',
      '--description',
      'd',
      '--text',
      '-x',
      '--reason',
      '--not-an-option',
      '--agent',
      'a2',
    ]);
    expect({ code: dash.code, err: dash.stderr }).toEqual({ code: 0, err: '' });
    expect(git(h.memoryDir('a2'), ['log', '-1', '--format=%s'])).toBe('--not-an-option');
  });

  it('help, help <command>, -V and --version', () => {
    const all = h.run(['help']);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('Commands:');
    const one = h.run(['help', 'memory']);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('gitmem memory create');
    for (const flag of ['-V', '--version']) expect(h.run([flag])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    expect(errorCode(h.run(['help', 'nope']))).toBe('UNKNOWN_COMMAND');
  });

  it('a group without a sub-command prints its usage, not a resolution error', () => {
    for (const [group, text] of [
      ['memory', 'gitmem memory create'],
      ['remote', 'gitmem remote set'],
    ]) {
      const r = h.run([group as string]);
      expect({ group, code: r.code, err: r.stderr }).toEqual({ group, code: 0, err: '' });
      expect(r.stdout).toContain(text);
    }
  });

  it('an unexpected extra positional is a usage error that changes nothing', () => {
    const before = h.state('a1');
    for (const args of [
      ['tree', 'extra'],
      ['memory', 'delete', 'system/human.md', 'system/persona.md', '--reason', 'r'],
      ['status', 'x'],
      ['memory', 'tool', 'x', '--call', '{}'],
    ]) {
      const r = h.run([...args, '--agent', 'a1']);
      expect({ args, code: r.code, error: errorCode(r) }).toEqual({ args, code: 1, error: 'INVALID_ARGUMENT' });
    }
    expect(h.state('a1')).toBe(before);
  });

  it('an unknown command with --json prints a JSON error (and the one-line error on stderr)', () => {
    const r = h.run(['bogus', '--json']);
    expect(r.code).toBe(1);
    expect(errorCode(r)).toBe('UNKNOWN_COMMAND');
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
  });

  it('memory tool takes the call in --call (or - for stdin); --json only selects the output', () => {
    const call = { command: 'create', file_path: 'notes/t.md', description: 'T', file_text: 't', reason: 'via --call' };
    const r = h.run(['memory', 'tool', '--call', JSON.stringify(call), '--agent', 'a1', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ paths: ['notes/t.md'] });
    const s = h.run(['memory', 'tool', '--call', '-', '--agent', 'a1'], {
      input: JSON.stringify({ ...call, file_path: 'notes/u.md', reason: 'stdin' }),
    });
    expect({ code: s.code, err: s.stderr }).toEqual({ code: 0, err: '' });
    const before = h.state('a1');
    const old = h.run([
      'memory',
      'tool',
      '--json',
      JSON.stringify({ ...call, file_path: 'notes/v.md' }),
      '--agent',
      'a1',
    ]);
    expect(old.code).toBe(1);
    expect(errorCode(old)).toBe('INVALID_ARGUMENT');
    expect(old.stderr).toContain('--call');
    for (const bad of ['[]', 'null', '"create"', '3', '[{"command":"create"}]']) {
      const b = h.run(['memory', 'tool', '--call', bad, '--agent', 'a1']);
      expect({ bad, code: b.code, error: errorCode(b) }).toEqual({ bad, code: 1, error: 'INVALID_ARGUMENT' });
      expect(b.stderr).toMatch(/JSON object/);
    }
    expect(h.state('a1')).toBe(before);
  });
});
