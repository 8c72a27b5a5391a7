// The read side on the command line (the built CLI, in its own process and through the daemon): show,
// log <path>, diff, revert, tokens, tree --json — each with --json, errors as one line with a code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, errorCode, type CliHome, type CliMode } from '../../helpers/cli.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

describe.each<CliMode>(['local', 'daemon'])('read commands (%s)', (mode) => {
  let h: CliHome;
  const run = (...args: string[]) => h.run([...args, '--agent', 'ada']);
  const ok = (...args: string[]): string => {
    const r = run(...args);
    expect({ args, code: r.code, err: r.stderr }).toEqual({ args, code: 0, err: '' });
    return r.stdout;
  };
  const json = <T>(...args: string[]): T => JSON.parse(ok(...args, '--json')) as T;
  const g = (args: string[]): string => git(h.memoryDir('ada'), args, h.env);
  let withFact = '';

  beforeAll(() => {
    h = cliHome(mode, ['ada']);
    ok('memory', 'create', 'people/ana.md', '--description', 'Ana', '--text', 'likes green tea', '--reason', 'met Ana');
    withFact = g(['rev-parse', 'HEAD']);
    ok('memory', 'str-replace', 'people/ana.md', '--old', 'green', '--new', 'black', '--reason', 'tea changed');
    ok('memory', 'rename', 'people/ana.md', 'people/ana-lima.md', '--reason', 'full name');
    ok('memory', 'delete', 'people/ana-lima.md', '--reason', 'forget Ana');
  });
  afterAll(() => h.close());

  it('show reads a file as of a revision, never the deleted state at HEAD', () => {
    expect(ok('show', 'people/ana.md', '--at', withFact)).toBe('---\ndescription: Ana\n---\nlikes green tea\n');
    expect(json<{ body: string; commit: string }>('show', 'people/ana', '--at', withFact)).toMatchObject({
      body: 'likes green tea\n',
      commit: withFact,
    });
    const gone = run('show', 'people/ana.md');
    expect([gone.code, errorCode(gone)]).toEqual([1, 'FILE_NOT_FOUND']);
    const bad = run('show', 'people/ana.md', '--at', 'nope');
    expect([bad.code, errorCode(bad)]).toEqual([1, 'UNKNOWN_REVISION']);
    expect(ok('show', 'system')).toContain('system/human.md — ');
    expect(errorCode(run('show'))).toBe('INVALID_ARGUMENT');
    expect(ok('memory', 'tool', '--call', '{"command":"view","file_path":"system/human.md","view_range":[1,1]}')).toBe(
      "Here's the content of system/human.md with line numbers:\n     1\t---\n",
    );
    if (mode === 'daemon') {
      const before = h.served();
      for (const args of [['show', 'system/human.md'], ['diff'], ['tokens'], ['log', 'system/human.md']]) ok(...args);
      expect(h.served() - before).toBe(4);
    }
  });

  it('log <path> follows the rename; -n and --since bound it', () => {
    const entries = json<
      Array<{ reason: string; writer: string; files: string[]; changes: Array<{ status: string }> }>
    >('log', 'people/ana-lima.md', '-n', '10');
    expect(entries.map((e) => e.reason)).toEqual(['forget Ana', 'full name', 'tea changed', 'met Ana']);
    expect(entries.map((e) => e.changes[0]?.status)).toEqual(['D', 'R', 'M', 'A']);
    expect(entries[0]?.writer).toBe('agent');
    expect(ok('log', '-n', '1')).toMatch(
      /^[0-9a-f]{7} .* \(agent\)\n {4}forget Ana\n {4}files: D people\/ana-lima\.md\n$/,
    );
    expect(json<unknown[]>('log', '--since', '2090-01-01')).toEqual([]);
    expect(errorCode(run('log', '--since', 'soon'))).toBe('INVALID_ARGUMENT');
  });

  it('diff shows what a commit did, and between revisions', () => {
    expect(ok('diff')).toContain('-likes black tea');
    const d = json<{ files: Array<{ path: string; status: string }> }>('diff', withFact, 'HEAD~1');
    expect(d.files).toEqual([
      { status: 'R', oldPath: 'people/ana.md', path: 'people/ana-lima.md', additions: 1, deletions: 1 },
    ]);
    expect(json<{ files: unknown[] }>('diff', 'HEAD~3', '--path', 'system/human.md').files).toEqual([]);
  });

  it('revert undoes one commit; a refusal changes nothing', () => {
    const del = g(['rev-parse', 'HEAD']);
    const r = json<{ reverted: string; paths: string[] }>('revert', del, '--reason', 'remember Ana after all');
    expect(r).toMatchObject({ reverted: del, paths: ['people/ana-lima.md'] });
    expect(ok('show', 'people/ana-lima.md')).toContain('likes black tea');
    const before = h.state('ada');
    const again = run('revert', del, '--reason', 'twice');
    expect([again.code, errorCode(again)]).toEqual([1, 'NO_CHANGES']);
    expect(errorCode(run('revert', del))).toBe('INVALID_ARGUMENT');
    expect(h.state('ada')).toBe(before);
  });

  it('tokens prints the estimate against the system/ budget; --json has the documented shape', () => {
    const text = ok('tokens', '--top', '1');
    expect(text).toMatch(
      /^System prompt token estimate\n {2}Total: \d+ of 8000 tokens budgeted \(\d+%\)\nTop files:\n {2}\d+ {2}system\/\S+\.md\n$/,
    );
    const t = json<{ total_tokens: number; budget_tokens: number; files: Array<{ path: string; tokens: number }> }>(
      'tokens',
    );
    expect(Object.keys(t).sort()).toEqual(['budget_tokens', 'commit', 'files', 'total_tokens']);
    expect(t.budget_tokens).toBe(8000);
    g(['config', 'gitmem.budgetSystem', '10']);
    expect(ok('tokens')).toMatch(
      /^ {2}Total: (\d+) of 10 tokens budgeted \(\d+%\) — over budget by \d+: only growth is refused; move detail out of system\/$/m,
    );
    expect(json<{ budget_tokens: number }>('tokens').budget_tokens).toBe(10);
    g(['config', '--unset', 'gitmem.budgetSystem']);
    expect(t.files.map((f) => f.path).sort()).toEqual(['system/human.md', 'system/persona.md']);
    expect(t.total_tokens).toBe(t.files.reduce((n, f) => n + f.tokens, 0));
    expect(errorCode(run('tokens', '--top', '0'))).toBe('INVALID_ARGUMENT');
  });

  it('tree --json lists structured entries', () => {
    const t = json<{ commit: string; files: Array<{ path: string; size: number; description?: string }> }>('tree');
    expect(t.commit).toBe(g(['rev-parse', 'HEAD']));
    expect(t.files.map((f) => f.path)).toEqual(['people/ana-lima.md', 'system/human.md', 'system/persona.md']);
    expect(t.files[0]).toEqual({
      path: 'people/ana-lima.md',
      size: Number(g(['cat-file', '-s', 'HEAD:people/ana-lima.md'])),
      description: 'Ana',
    });
  });
});
