/**
 * Which conversations a multi-conversation reflection covers, as asked (`--recent N`, `--conversation X…`,
 * `--auto`, or the library's `{ recent | conversations | auto }`), checked before anything is created.
 */
import { MemoryError } from '../errors.js';
import type { DreamOptions } from './dream-types.js';
import { parseFromSpec } from './sources/index.js';

/** Most conversations one multi run takes (`--recent`, `--conversation`). */
export const MAX_MULTI_CONVERSATIONS = 50;

export type MultiSelectionRequest = { recent: number } | { conversations: string[] } | { auto: true };

/**
 * The library's form: one of the three, required.
 * @example requireSelection({ recent: 5 })
 */
export function requireSelection(o: Pick<DreamOptions, 'recent' | 'conversations' | 'auto'>): MultiSelectionRequest {
  const sel = checkSelection(o);
  if (!sel) throw new MemoryError('INVALID_ARGUMENT', 'reflectMany needs one of recent, conversations or auto');
  return sel;
}

/**
 * The selection a dream asks for, checked (undefined: a single-conversation dream).
 * @example checkSelection({ recent: '3' }) // { recent: 3 }
 */
export function checkSelection(
  o: Pick<DreamOptions, 'recent' | 'conversations' | 'auto' | 'from'>,
): MultiSelectionRequest | undefined {
  const given = [o.recent !== undefined, (o.conversations?.length ?? 0) > 0, o.auto === true].filter(Boolean);
  if (given.length === 0) return undefined;
  if (given.length > 1)
    throw new MemoryError('INVALID_ARGUMENT', 'Use only one of --recent, --conversation, or --auto.');
  if (o.from !== undefined)
    throw new MemoryError('INVALID_ARGUMENT', '--from names one conversation; use --conversation for several');
  if (o.auto === true) return { auto: true };
  if (o.recent !== undefined) {
    const n = typeof o.recent === 'number' ? o.recent : /^\d+$/.test(String(o.recent)) ? Number(o.recent) : NaN;
    if (!Number.isSafeInteger(n) || n <= 0)
      throw new MemoryError('INVALID_ARGUMENT', 'Usage: gitmem dream --recent <positive integer>', {
        data: { recent: o.recent },
      });
    return { recent: Math.min(n, MAX_MULTI_CONVERSATIONS) };
  }
  const list = [...new Set((o.conversations ?? []).map((c) => String(c).trim()))];
  if (list.length > MAX_MULTI_CONVERSATIONS)
    throw new MemoryError('INVALID_ARGUMENT', `at most ${MAX_MULTI_CONVERSATIONS} --conversation values`);
  list.forEach((c) => parseFromSpec(c)); // an unknown source type is a usage error, before anything is staged
  return { conversations: list };
}
