/**
 * Seeded generator of hostile memory-tool and apply-patch calls for the integrity fuzz: path shapes that
 * pass through links, name `.git` in any form, traverse, are huge or deep, carry NUL / lone surrogates /
 * odd unicode, collide files with directories; values with NUL, CRLF, huge sizes.
 */

export { rng } from './rng.js';

export type FuzzCall =
  { kind: 'tool'; call: Record<string, unknown> } | { kind: 'patch'; call: { reason: string; patch: string } };

const NORMAL = [
  'notes',
  'a',
  'a.md',
  'b.md',
  'sub',
  'c.md',
  'new',
  'x',
  'system',
  'latin',
  'tools',
  'run.md',
  'dir.md',
  'inner.md',
  'fz',
  'q.md',
];
const LINKS = [
  'lnk_self',
  'lnk_git',
  'lnk_out',
  'lnk_notes',
  'lnk_file',
  'lnk_up',
  'wlnk_self',
  'wlnk_git',
  'wlnk_out',
  'wlnk_notes',
];
const DOTGIT = [
  '.git',
  '.GIT',
  '.Git',
  '.git.',
  '.git ',
  'git~1',
  'GIT~1',
  '.g\u200cit',
  '.git::$INDEX_ALLOCATION',
  '.gIt',
  '.git...',
  '.git. . ',
  '\ufeff.git',
];
const INSIDE_GIT = ['objects', 'hooks', 'config', 'HEAD', 'refs', 'pre-commit', 'index', 'info', 'gitmem-write.json'];
const WEIRD = [
  '..',
  '.',
  '\0',
  'a\u0000b',
  '\ud800',
  'caf\u00e9',
  'cafe\u0301',
  '\u202egnp.md',
  '😀',
  'a\nb',
  'a\\b',
  ' ',
  '~',
  '$HOME',
  'con',
  'a:b',
  'x'.repeat(300),
  '\u0007',
  'caf\ufffd.md',
  '',
];

export interface FuzzContext {
  memoryDir: string;
  /** Paths of memory files that exist (so some calls go deep into planning and writing). */
  known: () => string[];
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

function segment(r: () => number): string {
  const p = r();
  if (p < 0.4) return pick(r, NORMAL);
  if (p < 0.6) return pick(r, LINKS);
  if (p < 0.75) return pick(r, DOTGIT);
  if (p < 0.85) return pick(r, INSIDE_GIT);
  return pick(r, WEIRD);
}

/** A hostile (or, a third of the time, ordinary) path argument. */
export function fuzzPath(r: () => number, ctx: FuzzContext): string {
  const p = r();
  const known = ctx.known();
  if (p < 0.25 && known.length > 0) return pick(r, known);
  if (p < 0.3) return `fz/f${Math.floor(r() * 40)}.md`;
  if (p < 0.31) return `${'a/'.repeat(50_000)}b.md`;
  if (p < 0.33) return `${'d/'.repeat(40)}x.md`;
  const n = 1 + Math.floor(r() * 4);
  let path = Array.from({ length: n }, () => segment(r)).join(r() < 0.1 ? '//' : r() < 0.05 ? '\\' : '/');
  const q = r();
  if (q < 0.05) path = `/${path}`;
  else if (q < 0.1) path = `${ctx.memoryDir}/${path}`;
  else if (q < 0.13) path = `memory/${path}`;
  else if (q < 0.15) path = `~/${path}`;
  else if (q < 0.18) path = `${path}/`;
  else if (q < 0.2) path = `../${path}`;
  return path;
}

function text(r: () => number): string {
  const p = r();
  if (p < 0.55) return `fuzz text ${Math.floor(r() * 1e6)}\n`;
  if (p < 0.65) return 'line one\r\nline two\r\n';
  if (p < 0.72) return 'a\0b';
  if (p < 0.76) return '\ud800 lone';
  if (p < 0.77) return 'y'.repeat(1_100_000);
  if (p < 0.78) return 'z\n'.repeat(200_000);
  if (p < 0.85) return '';
  if (p < 0.9) return '---\ndescription: injected\nread_only: true\n---\nx\n';
  return 'alpha';
}

function reason(r: () => number, i: number): string {
  const p = r();
  if (p < 0.85) return `fuzz ${i}`;
  if (p < 0.88) return `fuzz ${i}\0nul`;
  if (p < 0.9) return 'r'.repeat(200_000);
  if (p < 0.92) return '   ';
  if (p < 0.95) return `fuzz ${i}\n\nbody line\r\nmore`;
  return `fuzz ${i} \u202e😀 \ud800`;
}

function toolCall(r: () => number, ctx: FuzzContext, i: number): Record<string, unknown> {
  const command = pick(r, [
    'create',
    'create',
    'str_replace',
    'insert',
    'delete',
    'delete',
    'rename',
    'rename',
    'update_description',
  ]);
  const base = { command, reason: reason(r, i) };
  switch (command) {
    case 'create':
      return { ...base, file_path: fuzzPath(r, ctx), description: r() < 0.9 ? 'fuzzed' : text(r), file_text: text(r) };
    case 'str_replace':
      return {
        ...base,
        file_path: fuzzPath(r, ctx),
        old_string: r() < 0.5 ? 'fuzz' : pick(r, ['alpha', 'x', '\n', 'description']),
        new_string: text(r),
        replace_all: r() < 0.3,
      };
    case 'insert':
      return {
        ...base,
        file_path: fuzzPath(r, ctx),
        insert_line: Math.floor(r() * 6) - 1,
        insert_text: text(r) || 'x',
      };
    case 'delete':
      return { ...base, file_path: fuzzPath(r, ctx) };
    case 'rename':
      return { ...base, old_path: fuzzPath(r, ctx), new_path: fuzzPath(r, ctx) };
    default:
      return { ...base, file_path: fuzzPath(r, ctx), description: r() < 0.8 ? `described ${i}` : text(r) };
  }
}

function patchOp(r: () => number, ctx: FuzzContext): string {
  const p = r();
  const path = fuzzPath(r, ctx).replace(/\n/g, ' ');
  if (p < 0.35) return `*** Add File: ${path}\n+${text(r).split('\n')[0] ?? ''}`;
  if (p < 0.6)
    return `*** Update File: ${path}\n@@\n-${pick(r, ['fuzz', 'alpha', 'description: fuzzed'])}\n+${text(r).split('\n')[0] ?? ''}`;
  if (p < 0.8) return `*** Delete File: ${path}`;
  return `*** Update File: ${path}\n*** Move to: ${fuzzPath(r, ctx).replace(/\n/g, ' ')}\n@@\n-alpha\n+beta`;
}

/** The i-th call of a seeded run. */
export function fuzzCall(r: () => number, ctx: FuzzContext, i: number): FuzzCall {
  if (r() < 0.2) {
    const ops = Array.from({ length: 1 + Math.floor(r() * 3) }, () => patchOp(r, ctx));
    return {
      kind: 'patch',
      call: { reason: reason(r, i), patch: `*** Begin Patch\n${ops.join('\n')}\n*** End Patch` },
    };
  }
  return { kind: 'tool', call: toolCall(r, ctx, i) };
}

/** A call shown in a failure message: long strings cut. */
export function showCall(c: FuzzCall): string {
  return JSON.stringify(c.call, (_k, v: unknown) =>
    typeof v === 'string' && v.length > 120 ? `${v.slice(0, 60)}…(${v.length} chars)` : v,
  );
}
