/**
 * `gitmem dream --to <path>`: a document such as AGENTS.md is maintained THROUGH memory. It
 * lives at `system/<basename>` (in context for the dreaming agent); before the run the on-disk file is
 * synced in with one commit, and after a merged run the committed text is written back — never the
 * worktree's uncommitted state, never a failed run's.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { splitFrontmatter } from '../blocks/frontmatter.js';
import { MemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import { readCommittedSnapshot } from '../read/read-revision.js';
import { loadReflectionPrompt } from './prompts.js';

/** A parsed `--to` value. */
export interface DreamTarget {
  /** Absolute path on disk. */
  path: string;
  name: string;
  kind: 'agents-md' | 'generic';
  /** Where it lives in memory. */
  memoryPath: string;
}

/** The memory-tool call surface this module needs (a `Memory` satisfies it). */
export interface ToolRunner {
  tool(call: unknown): Promise<unknown>;
}

/**
 * Parses `--to`; AGENTS.md / AGENT.md (any case) are the agents-md kind.
 * @example parseDreamTarget('./AGENTS.md', '/repo').memoryPath === 'system/AGENTS.md'
 */
export function parseDreamTarget(spec: string, cwd: string): DreamTarget {
  const name = basename(spec.trim());
  if (spec.trim() === '' || name === '' || name === '.' || name === '..' || spec.trim().endsWith('/')) {
    throw new MemoryError('INVALID_ARGUMENT', `Invalid --to "${spec}": expected a file path`, { data: { to: spec } });
  }
  const kind = /^agents?\.md$/i.test(name) ? 'agents-md' : 'generic';
  return { path: resolve(cwd, spec.trim()), name, kind, memoryPath: `system/${name}` };
}

function bodyOf(text: string): string {
  const split = splitFrontmatter(text);
  return split.kind === 'ok' ? split.body : split.kind === 'none' ? split.body : text;
}

const DESCRIPTIONS = {
  'agents-md': 'Repository guidance for coding agents, maintained by gitmem dream.',
  generic: 'Document maintained by gitmem dream.',
} as const;

/**
 * Brings the on-disk document into memory with one commit when the bodies differ.
 * @example await syncTargetIn(memory, git, memoryDir, target) // 'synced' | 'unchanged' | 'absent'
 */
export async function syncTargetIn(
  memory: ToolRunner,
  git: GitRunner,
  memoryDir: string,
  t: DreamTarget,
): Promise<'synced' | 'unchanged' | 'absent'> {
  if (!existsSync(t.path)) return 'absent';
  const onDisk = bodyOf(readFileSync(t.path, 'utf8'));
  const committed = (await readCommittedSnapshot(git, memoryDir)).markdown.get(t.memoryPath);
  const reason = `dream: sync ${t.name} from target`;
  if (committed === undefined) {
    await memory.tool({
      command: 'create',
      file_path: t.memoryPath,
      description: DESCRIPTIONS[t.kind],
      file_text: onDisk,
      reason,
    });
    return 'synced';
  }
  const current = bodyOf(committed);
  if (current.trimEnd() === onDisk.trimEnd()) return 'unchanged';
  if (current === '')
    await memory.tool({ command: 'insert', file_path: t.memoryPath, insert_line: 0, insert_text: onDisk, reason });
  else
    await memory.tool({
      command: 'str_replace',
      file_path: t.memoryPath,
      old_string: current,
      new_string: onDisk,
      reason,
    });
  return 'synced';
}

const GUIDANCE = {
  'agents-md': [
    '- It follows the AGENTS.md convention: guidance for coding agents working in a repository. Put build,',
    '  test and setup commands early; then code style, testing, security, and commit/PR rules.',
    '- Do not repeat what the README already says; record what an agent needs and would otherwise get wrong.',
  ],
  generic: ['- Keep it forward-looking: what a reader should know and do, not a log of what happened.'],
} as const;

/**
 * The instruction appended to the reflection for a target.
 * @example targetInstruction(parseDreamTarget('AGENTS.md', '/r')).includes('system/AGENTS.md')
 */
export function targetInstruction(t: DreamTarget): string {
  return loadReflectionPrompt('dream-target')
    .replaceAll('{{path}}', t.memoryPath)
    .replaceAll('{{target}}', t.name)
    .replace('{{guidance}}', GUIDANCE[t.kind].join('\n'))
    .trim();
}

/**
 * Writes the committed document back to disk (body only, one trailing newline). Absent in memory ⇒ the
 * target is left untouched.
 * @example await syncTargetOut(git, memoryDir, target) // { written: true }
 */
export async function syncTargetOut(git: GitRunner, memoryDir: string, t: DreamTarget): Promise<{ written: boolean }> {
  const committed = (await readCommittedSnapshot(git, memoryDir)).markdown.get(t.memoryPath);
  if (committed === undefined) return { written: false };
  mkdirSync(dirname(t.path), { recursive: true });
  writeFileSync(t.path, `${bodyOf(committed).replace(/\s+$/, '')}\n`);
  return { written: true };
}
