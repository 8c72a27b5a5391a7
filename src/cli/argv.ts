/**
 * Reads a command line: which command, its option values and positionals. Pure, and the only parser: the
 * CLI and the daemon's client both call it, so a call reaches the same command whoever runs it.
 *
 * Global options (grammar.ts) may come before or after the command name; anything else must follow it.
 * An option that takes a value takes the next word, even one starting with `-` (a markdown bullet:
 * `--text "- prefers pnpm"`), as git and most CLIs do — unless that word is exactly one of the command's own
 * options (`--reason --json`, `--at -n`, `--reason --agent=a1`): that is a forgotten value far more often than
 * a value, and taking it would also swallow the option. `--opt=value` takes any value (`--reason=--json`).
 * `--` ends the options.
 */
import { parseArgs } from 'node:util';
import { MemoryError } from '../errors.js';
import { GLOBAL_OPTIONS, type CliOptions } from './grammar.js';

export type OptionValues = Record<string, string | boolean | Array<string | boolean> | undefined>;

export interface CommandLine {
  /** The command name; undefined when none was given. */
  command: string | undefined;
  values: OptionValues;
  /** Positionals after the command name (sub-command first). */
  positionals: string[];
}

/**
 * Splits off the command name: the first word that is neither a global option nor a global option's value.
 * Throws INVALID_ARGUMENT for a command option given before the command.
 * @example splitCommand(['--agent', 'a1', 'tree', '-n', '1']) // { command: 'tree', before: ['--agent', 'a1'], after: ['-n', '1'] }
 */
export function splitCommand(argv: readonly string[]): {
  command: string | undefined;
  before: string[];
  after: string[];
} {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') return { command: argv[i + 1], before: argv.slice(0, i), after: argv.slice(i + 2) };
    if (!word.startsWith('-') || word === '-')
      return { command: word, before: argv.slice(0, i), after: argv.slice(i + 1) };
    const spec = optionFor(word, GLOBAL_OPTIONS);
    if (spec === undefined) {
      throw new MemoryError(
        'INVALID_ARGUMENT',
        `unknown global option '${word.split('=')[0] ?? word}' (command options go after the command name; see gitmem help)`,
      );
    }
    if (spec.type === 'string' && !word.includes('=')) {
      refuseOptionAsValue(word, longName(word, GLOBAL_OPTIONS), argv[i + 1], GLOBAL_OPTIONS);
      i++;
    }
  }
  return { command: undefined, before: [...argv], after: [] };
}

/**
 * Parses a whole command line against the global options plus the command's `options`.
 * @example parseCommandLine(['tree', '--agent=a1'], {}).values.agent === 'a1'
 */
export function parseCommandLine(argv: readonly string[], options: CliOptions = {}): CommandLine {
  const { command, before, after } = splitCommand(argv);
  const all: CliOptions = { ...options, ...GLOBAL_OPTIONS };
  const words = [...attachValues(before, GLOBAL_OPTIONS), ...attachValues(after, all)];
  try {
    const { values, positionals } = parseArgs({ args: words, options: all, allowPositionals: true, strict: true });
    return { command, values: values as OptionValues, positionals };
  } catch (err) {
    const what = command === undefined ? 'gitmem' : `gitmem ${command}`;
    const message =
      (err instanceof Error ? err.message : String(err)).split('\n')[0]?.replace(/\. To specify .*$/, '') ?? '';
    throw new MemoryError('INVALID_ARGUMENT', `${what}: ${message} (see ${what} --help)`);
  }
}

/** The option a word names (`--name`, `--name=v`, `-x`), if `options` has it. */
function optionFor(word: string, options: CliOptions): CliOptions[string] | undefined {
  if (word.startsWith('--')) {
    const name = word.slice(2).split('=')[0] as string;
    return Object.hasOwn(options, name) ? options[name] : undefined; // not `--constructor`
  }
  if (word.length === 2) return Object.values(options).find((o) => o.short === word[1]);
  return undefined;
}

/** The long name of the option a word names (`--name` → name, `-n` → the option whose short is n). */
function longName(word: string, options: CliOptions): string {
  if (word.startsWith('--')) return word.slice(2).split('=')[0] as string;
  return Object.keys(options).find((k) => options[k]?.short === word[1]) ?? word;
}

/** Rewrites `--opt value` and `-o value` of value-taking options as `--opt=value`, whatever the value looks like. */
function attachValues(words: readonly string[], options: CliOptions): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === '--') return [...out, ...words.slice(i)];
    const spec = word.startsWith('-') && !word.includes('=') ? optionFor(word, options) : undefined;
    if (spec?.type !== 'string' || i + 1 >= words.length) {
      out.push(word);
      continue;
    }
    const name = longName(word, options);
    refuseOptionAsValue(word, name, words[i + 1], options);
    out.push(`--${name}=${words[++i] as string}`);
  }
  return out;
}

/**
 * Refuses `next` as the value of option `word` when it names one of `options` (`--json`, `-n`, `--agent=a1`);
 * any other word, `-x` or `- a bullet` included, stays a value.
 */
function refuseOptionAsValue(word: string, name: string, next: string | undefined, options: CliOptions): void {
  if (next === undefined || !next.startsWith('-') || next === '-' || next === '--') return;
  if (optionFor(next, options) === undefined) return;
  const shown = JSON.stringify(next).slice(1, -1).slice(0, 80);
  throw new MemoryError(
    'INVALID_ARGUMENT',
    `${word} needs a value, but the next word is the option ${shown} (to give it as the value, write --${name}=${shown})`,
    {
      data: { option: `--${name}`, value: shown },
    },
  );
}
