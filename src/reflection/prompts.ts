/**
 * The reflection sub-agent's texts: system prompts shipped as markdown next to this module
 * (src/reflection/prompts → dist/reflection/prompts) and the per-run task message, which names
 * no absolute path and never says "worktree": the agent only knows `$MEMORY_DIR` and `$TRANSCRIPT_PATH`.
 */
import { readFileSync } from 'node:fs';
import { assetPath } from '../assets.js';
import { MemoryError } from '../errors.js';

/** The shipped instruction sets. */
export type ReflectionPromptName = 'reflection' | 'memory-worker' | 'defragmentation' | 'dream-target';

const cache = new Map<string, string>();

/**
 * Text of `prompts/<name>.md` (read once per process).
 * @example loadReflectionPrompt('reflection').includes('Skills are not the default')
 */
export function loadReflectionPrompt(name: ReflectionPromptName): string {
  const hit = cache.get(name);
  if (hit !== undefined) return hit;
  let text: string;
  try {
    text = readFileSync(assetPath(`reflection/prompts/${name}.md`), 'utf8').replace(/\r\n?/g, '\n');
  } catch (err) {
    throw new MemoryError('INTERNAL', `reflection prompt ${name}.md is missing from the package`, {
      cause: err,
      data: { name },
    });
  }
  cache.set(name, text);
  return text;
}

/**
 * The system prompt of a reflection (or defragmentation) run: its own rules plus the worker rules.
 * @example systemPromptFor('reflection').includes('Work silently')
 */
export function systemPromptFor(kind: 'reflection' | 'defragmentation'): string {
  return `${loadReflectionPrompt(kind).trimEnd()}\n\n${loadReflectionPrompt('memory-worker').trimEnd()}\n`;
}

/** Inputs of {@link buildTaskPrompt}. */
export interface TaskPromptInput {
  /** Conversation reviewed and its line range, e.g. `conv-1 lines 1-24`. */
  reviewed: string;
  /** The trailer every commit must carry. */
  trailer: string;
  /** The payload text to inline (omitted when too large; the agent reads `$TRANSCRIPT_PATH` instead). */
  inlinePayload?: string;
  payloadChars: number;
  instruction?: string;
  /** The `<parent_memory>` section (already fitted). */
  snapshot: string;
}

/**
 * The task message of one reflection run.
 * @example buildTaskPrompt({ reviewed: 'c1 lines 1-4', trailer: 'Reviewed-Transcript: c1 lines 1-4', payloadChars: 90, snapshot })
 */
export function buildTaskPrompt(i: TaskPromptInput): string {
  const parts = [
    `Review the conversation transcript (${i.reviewed}) and update the memory accordingly.`,
    '',
    '## Transcript',
    `The transcript is a JSON array of messages (${i.payloadChars} characters). In the shell it is at $TRANSCRIPT_PATH;` +
      ' file tools do not expand variables, so read it with the shell (e.g. `wc -c "$TRANSCRIPT_PATH"`, then `head -c` windows).',
    i.inlinePayload === undefined
      ? 'It is too large to include here.'
      : `Its full content:\n<transcript>\n${i.inlinePayload}\n</transcript>`,
    'Prefer recurring patterns and the latest evidence; fix stale memory where it lives; avoid one-off task state.',
    '',
    '## Memory',
    'The memory directory is $MEMORY_DIR (the shell starts there; file-tool paths are relative to it). The',
    "`system/` files are in the primary agent's context and are shown below inside <memory> tags; other files",
    'may be read and changed too. Commit with `git add -A` and `git commit`; the harness merges your commits',
    'afterwards. Stop and report if a commit fails.',
    '',
    '## Commit messages',
    'First line: the reason for the change. End every message with this trailer line, exactly:',
    i.trailer,
  ];
  if (i.instruction && i.instruction.trim() !== '') {
    parts.push(
      '',
      '## Additional instruction from the user',
      i.instruction.trim(),
      '(Still persist only what is worth remembering.)',
    );
  }
  parts.push('', i.snapshot);
  return parts.join('\n');
}
