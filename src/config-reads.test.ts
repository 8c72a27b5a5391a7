// One decision, one place: every GITMEM_* variable is read in config.ts and documented in its VARIABLES table.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VARIABLES } from './config.js';

const SRC = new URL('.', import.meta.url).pathname;

/**
 * Names gitmem SETS for the processes it starts (it never reads them for a setting of its own), or that only a
 * child's own script reads: the sandbox marks a confined child (GITMEM_SANDBOX is in VARIABLES: gitmem reads it),
 * a confined writer is handed its hook channel and its branch.
 */
const SET_FOR_CHILDREN: ReadonlyMap<string, string> = new Map([
  ['GITMEM_HOOK_SOCKET', "a confined writer's hook channel (hooks/serve-hook-validation.ts); its hook script reads it"],
  ['GITMEM_WORKER_BRANCH', "a command worker's branch, for the command (worktree/command-body.ts)"],
  ['GITMEM_WORKER_BASE', "a command worker's base commit, for the command (worktree/command-body.ts)"],
]);

/**
 * The one read still outside config.ts: the sandbox builds a confined child's environment and hides the home
 * that environment names — a fact about the child it is handed, not a setting of this process.
 */
const EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ['sandbox/host.ts', "the sandbox reads the confined child's environment it is handed (which homes to hide)"],
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * A GITMEM_ name used as a property key of an object being read: `x['GITMEM_A']`, `x.GITMEM_A`,
 * `x?.GITMEM_A`, or destructured `{ GITMEM_A, … } = x`. Prose (`set GITMEM_MODEL`), object literals that
 * SET a name for a child (`{ ...env, GITMEM_HOME: home }`) and array literals (`['GITMEM_A']`) do not match.
 */
const READS: readonly RegExp[] = [
  /[\w$)\]]\s*(?:\?\.)?\[\s*['"`]GITMEM_\w+['"`]\s*\]/g,
  /[\w$)\]]\??\.GITMEM_\w+/g,
  /\{[^{}=]*\bGITMEM_\w+\b[^{}=]*\}\s*=(?![=>])/g,
];

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

describe('GITMEM_* variables', () => {
  const files = sourceFiles(SRC).filter((f) => relative(SRC, f) !== 'config.ts');
  const checked = files.filter((f) => !EXCEPTIONS.has(relative(SRC, f)));

  it('are read only in config.ts (a read elsewhere fails naming file:line)', () => {
    const reads: string[] = [];
    for (const file of checked) {
      const text = readFileSync(file, 'utf8');
      for (const re of READS)
        for (const m of text.matchAll(re))
          reads.push(
            `src/${relative(SRC, file)}:${lineOf(text, m.index)}: ${(text.split('\n')[lineOf(text, m.index) - 1] ?? '').trim()}`,
          );
    }
    expect(reads).toEqual([]);
  });

  it('the read pattern tells reads from messages and settings', () => {
    const matches = (s: string): boolean => READS.some((re) => new RegExp(re.source).test(s));
    expect(
      [
        "env['GITMEM_X']",
        'env.GITMEM_X',
        'e?.GITMEM_X',
        'const { GITMEM_X: x } = env',
        'const { A, GITMEM_X } = process.env',
      ].filter((s) => !matches(s)),
    ).toEqual([]);
    expect(
      [
        'set GITMEM_MODEL or pass --model',
        "const NAMES = ['GITMEM_X'];",
        '{ ...env, GITMEM_HOME: home }',
        '`${GITMEM_X}`',
      ].filter(matches),
    ).toEqual([]);
  });

  it('each one mentioned in src is documented in VARIABLES (or set for children only)', () => {
    const undocumented = new Set<string>();
    for (const file of [...files, join(SRC, 'config.ts')]) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bGITMEM_[A-Z0-9_]*[A-Z0-9]\b/g)) {
        if (!(m[0] in VARIABLES) && !SET_FOR_CHILDREN.has(m[0]))
          undocumented.add(`${m[0]} (src/${relative(SRC, file)}:${lineOf(text, m.index)})`);
      }
    }
    expect([...undocumented]).toEqual([]);
  });

  it('docs/configuration.md lists exactly the variables of VARIABLES', () => {
    const doc = readFileSync(join(SRC, '..', 'docs', 'configuration.md'), 'utf8');
    const firstColumns = [...doc.matchAll(/^\| ([^|\n]*) \|/gm)].map((m) => m[1] ?? '');
    const listed = new Set(
      firstColumns.flatMap((cell) => [...cell.matchAll(/\bGITMEM_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0])),
    );
    expect([...listed].sort()).toEqual(Object.keys(VARIABLES).sort());
  });
});
