/**
 * An error in the words of the command line that caused it. The library speaks to models in its tools'
 * argument names ('old_string', replace_all: true); a CLI user typed flags (--old, --all). The table comes
 * from the grammar (each option's `fills`, the command's `spells`), and this is the one place that rewrites:
 * a quoted argument name anywhere, a bare one only when it cannot be a plain word (it has an underscore and
 * is not part of a path or a quoted value). Pure.
 */
import { MemoryError } from '../errors.js';
import type { CommandGrammar, GrammarOption } from './grammar.js';

/** How the command line spells one library word; `flag`: a boolean option (`replace_all: true` is just `--all`). */
export interface Spelling {
  cli: string;
  flag: boolean;
}

/**
 * The library words a call of this command (sub-command `sub`) spells otherwise. Empty for a sub-command
 * that takes the library's call as written (`memory tool`).
 * @example spellingsOf(COMMANDS.memory.grammar, COMMANDS.memory.grammar.options, 'str-replace').get('old_string') // { cli: '--old', flag: false }
 */
export function spellingsOf(
  grammar: CommandGrammar | undefined,
  options: Readonly<Record<string, GrammarOption>>,
  sub: string | undefined,
): Map<string, Spelling> {
  const out = new Map<string, Spelling>();
  if (grammar?.verbatim?.includes(sub ?? '')) return out;
  for (const [name, option] of Object.entries(options)) {
    const fills = option.fills === undefined ? [] : typeof option.fills === 'string' ? [option.fills] : option.fills;
    // The first option filling an argument names it (`--text`, not `--text-file`).
    for (const arg of fills) if (!out.has(arg)) out.set(arg, { cli: `--${name}`, flag: option.type === 'boolean' });
  }
  for (const [word, cli] of Object.entries(grammar?.spells ?? {}))
    if (!out.has(word)) out.set(word, { cli, flag: false });
  return out;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `message` with each library word of `spellings` in the command line's spelling.
 * @example speakText("memory str_replace: 'old_string' must be…", spellings) // 'memory str-replace: --old must be…'
 */
export function speakText(message: string, spellings: ReadonlyMap<string, Spelling>): string {
  if (spellings.size === 0) return message;
  const words = [...spellings.keys()]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');
  // 'word' (optionally `: true`), or a bare word not touching a path, a file name or a quoted value.
  const pattern = new RegExp(`'(${words})'(: true)?|(?<![\\w/.'"\\\\-])(${words})(: true)?(?![\\w/'"-]|\\.\\w)`, 'g');
  return message.replace(pattern, (match, quoted?: string, quotedTrue?: string, bare?: string, bareTrue?: string) => {
    if (bare !== undefined && !bare.includes('_')) return match; // `reason`, `description`: plain English too
    const spelling = spellings.get((quoted ?? bare) as string) as Spelling;
    const isTrue = quotedTrue ?? bareTrue;
    return isTrue !== undefined && spelling.flag ? spelling.cli : `${spelling.cli}${isTrue ?? ''}`;
  });
}

/**
 * The error as the command line speaks it: a MemoryError's message reworded (same code, data, cause; `data.option`
 * added when `data.field` has a spelling); anything else unchanged.
 * @example speakCli(new MemoryError('INVALID_ARGUMENT', "memory: 'reason' must be a non-empty string", { data: { field: 'reason' } }), spellings).message // "memory: --reason must be a non-empty string"
 */
export function speakCli(err: unknown, spellings: ReadonlyMap<string, Spelling>): unknown {
  if (!(err instanceof MemoryError) || spellings.size === 0) return err;
  const message = speakText(err.message, spellings);
  const field = err.data['field'];
  const option = typeof field === 'string' ? spellings.get(field)?.cli : undefined;
  if (message === err.message && option === undefined) return err;
  return new MemoryError(err.code, message, { data: { ...err.data, ...(option ? { option } : {}) }, cause: err });
}
