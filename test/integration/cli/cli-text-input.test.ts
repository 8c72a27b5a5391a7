// Text given to the CLI as a file or on stdin: UTF-16 with a byte-order mark becomes UTF-8, anything that
// is not text is refused with NOT_UTF8 and never committed, and --text with --text-file is refused —
// through the daemon as well (stdin travels to it byte for byte).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, errorCode, type CliHome, type CliMode } from '../../helpers/cli.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

const TEXT = '- prefers pnpm — ünïcödé ✓\n';
const utf16le = (t: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, 'utf16le')]);
const utf16be = (t: string): Buffer => {
  const le = Buffer.from(t, 'utf16le');
  for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1] as number, le[i] as number];
  return Buffer.concat([Buffer.from([0xfe, 0xff]), le]);
};

describe.each<CliMode>(['local', 'daemon'])('text files and stdin (%s)', (mode) => {
  let h: CliHome;
  let dir: string;
  beforeAll(() => {
    h = cliHome(mode, ['a1']);
    dir = h.root;
    writeFileSync(join(dir, 'le.txt'), utf16le(TEXT));
    writeFileSync(join(dir, 'be.txt'), utf16be(TEXT));
    writeFileSync(join(dir, 'bom8.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TEXT)]));
    writeFileSync(join(dir, 'latin1.txt'), Buffer.from('caf\xe9\n', 'latin1'));
    writeFileSync(join(dir, 'nul.txt'), Buffer.from('a\0b\n'));
    writeFileSync(join(dir, 'odd16.txt'), Buffer.from([0xff, 0xfe, 0x41]));
  });
  afterAll(() => {
    h.close();
    cleanupTmp();
  });
  const create = (path: string, extra: string[], input?: Buffer) =>
    h.run(['memory', 'create', path, '--description', 'd', '--reason', `add ${path}`, '--agent', 'a1', ...extra], {
      cwd: dir,
      ...(input ? { input } : {}),
    });

  it('UTF-16 (either byte order, with a BOM) and UTF-8 with a BOM are committed as plain UTF-8', () => {
    for (const [name, file] of [
      ['le', 'le.txt'],
      ['be', 'be.txt'],
      ['bom8', 'bom8.txt'],
    ]) {
      const r = create(`notes/${name}.md`, ['--text-file', file as string]);
      expect({ name, code: r.code, err: r.stderr }).toEqual({ name, code: 0, err: '' });
      const blob = git(h.memoryDir('a1'), ['cat-file', 'blob', `HEAD:notes/${name}.md`]);
      expect(blob.endsWith(TEXT.trimEnd())).toBe(true);
      for (const bad of ['\uFEFF', '\uFFFD', '\u0000']) expect(blob.includes(bad), name).toBe(false);
    }
    const viaStdin = create('notes/stdin16.md', ['--text-file', '-'], utf16le(TEXT));
    expect({ code: viaStdin.code, err: viaStdin.stderr }).toEqual({ code: 0, err: '' });
    expect(git(h.memoryDir('a1'), ['cat-file', 'blob', 'HEAD:notes/stdin16.md'])).toContain(TEXT.trimEnd());
  });

  it('bytes that are not text are NOT_UTF8, and nothing is committed', () => {
    const before = h.state('a1');
    const cases: Array<{ args: string[]; input?: Buffer }> = [
      { args: ['--text-file', 'latin1.txt'] },
      { args: ['--text-file', 'nul.txt'] },
      { args: ['--text-file', 'odd16.txt'] },
      { args: ['--text-file', '-'], input: Buffer.from('caf\xe9\n', 'latin1') },
    ];
    for (const c of cases) {
      const r = create('notes/bad.md', c.args, c.input);
      expect({ args: c.args, code: r.code, error: errorCode(r) }).toEqual({ args: c.args, code: 1, error: 'NOT_UTF8' });
    }
    const patch = h.run(['memory', 'apply-patch', '--reason', 'r', '--agent', 'a1'], {
      input: Buffer.from(
        '*** Begin Patch\n*** Add File: notes/p.md\n+---\n+description: p\n+---\n+caf\xe9\n*** End Patch\n',
        'latin1',
      ),
    });
    expect(errorCode(patch)).toBe('NOT_UTF8');
    const call = h.run(['memory', 'tool', '--call', '-', '--agent', 'a1'], {
      input: Buffer.from(
        '{"command":"create","file_path":"notes/c.md","description":"c","file_text":"caf\xe9","reason":"r"}',
        'latin1',
      ),
    });
    expect(errorCode(call)).toBe('NOT_UTF8');
    expect(h.state('a1')).toBe(before);
  });

  it('--text together with --text-file is refused', () => {
    const before = h.state('a1');
    const r = create('notes/both.md', ['--text', 'x', '--text-file', 'bom8.txt']);
    expect({ code: r.code, error: errorCode(r) }).toEqual({ code: 1, error: 'INVALID_ARGUMENT' });
    expect(h.state('a1')).toBe(before);
  });
});
