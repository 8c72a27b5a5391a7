/**
 * The `memory` command's grammar and usage lines, derived from its verbs (tools/memory-verbs.ts: each verb a
 * catalogue tool's command, its arguments spelled), so a new command or argument reaches the parser, the error
 * wording (speak.ts reads `fills` and `spells`), help and usage with no edit here. Pure; the registry reads it.
 */
import { MemoryError } from '../errors.js';
import { MEMORY_VERB_TABLE, RAW_CALL_VERB, type MemoryVerb, type Spelling } from '../tools/memory-verbs.js';
import { flag, str, type CommandGrammar, type GrammarOption } from './grammar.js';

type OptionSpelling = Exclude<Spelling, { positional: string }>;

/** A verb's spelled arguments, in order: [argument, spelling, rule]. A verb argument without a spelling is a bug. */
export function spelledArguments(v: MemoryVerb): Array<[string, Spelling, 'required' | 'optional']> {
  return Object.entries(v.arguments).map(([arg, rule]) => {
    const spelling = v.spellings[arg];
    if (!spelling)
      throw new MemoryError('INTERNAL', `memory ${v.verb}: the argument ${arg} has no command-line spelling`);
    return [arg, spelling, rule];
  });
}

const isOption = (s: Spelling): s is OptionSpelling => 'option' in s;

/** Adds `arg` to what option `name` fills (a string for one argument, a list for several, as the registry wrote it). */
function addFill(
  options: Record<string, GrammarOption>,
  name: string,
  arg: string,
  type: typeof str | typeof flag,
): void {
  const had = options[name]?.fills;
  const fills = had === undefined ? [] : typeof had === 'string' ? [had] : [...had];
  if (!fills.includes(arg)) fills.push(arg);
  options[name] = { ...type, fills: fills.length === 1 ? (fills[0] as string) : fills };
}

/**
 * The grammar of `gitmem memory`: each verb a sub-command with its positionals, each option filling the tool
 * arguments it gives, and the library's words the command line spells otherwise.
 * @example memoryGrammar().subcommands?.rename // ['<old-path>', '<new-path>']
 */
export function memoryGrammar(
  table: readonly MemoryVerb[] = MEMORY_VERB_TABLE,
): Required<Pick<CommandGrammar, 'options' | 'subcommands' | 'spells' | 'verbatim'>> {
  const options: Record<string, GrammarOption> = {};
  const subcommands: Record<string, readonly string[]> = {};
  const spells: Record<string, string> = {};
  for (const v of table) {
    const positionals: string[] = [];
    for (const [arg, s] of spelledArguments(v)) {
      if (!isOption(s)) {
        positionals.push(s.positional);
        spells[arg] ??= s.positional;
        continue;
      }
      addFill(options, s.option, arg, s.value === undefined ? flag : str);
      if (s.orFile !== undefined) options[s.orFile] ??= str;
    }
    subcommands[v.verb] = positionals;
    if (v.command !== undefined && v.command !== v.verb) spells[v.command] = v.verb;
    if (v.tool !== 'memory') spells[v.tool] = `memory ${v.verb}`;
  }
  options['call'] = str;
  subcommands[RAW_CALL_VERB] = [];
  return { options, subcommands, spells, verbatim: [RAW_CALL_VERB] };
}

/** How usage shows one option: `--old S`, `[--all]`, `[--text T | --text-file F]`, `[--patch-file F | --patch-file -]`. */
function optionUsage(s: OptionSpelling, rule: 'required' | 'optional'): string {
  let shown = s.value === undefined ? `--${s.option}` : `--${s.option} ${s.value}`;
  if (s.orFile !== undefined) shown += ` | --${s.orFile} F`;
  // A file read from stdin when the option is left out still arrives: say so, and show it may be left out.
  const stdin = s.fromFile === true && s.default === '-';
  if (stdin) shown += ` | --${s.option} -`;
  return rule === 'optional' || stdin ? `[${shown}]` : shown;
}

/**
 * One usage line per verb: `  gitmem memory <verb> <positionals> <options>   (note)`.
 * @example memoryUsageLines()[3] // '  gitmem memory delete <path> --reason R'
 */
export function memoryUsageLines(table: readonly MemoryVerb[] = MEMORY_VERB_TABLE): string[] {
  const lines = table.map((v) => {
    const words = spelledArguments(v).map(([, s, rule]) => (isOption(s) ? optionUsage(s, rule) : s.positional));
    return `  gitmem memory ${[v.verb, ...words].join(' ')}${v.note === undefined ? '' : `   (${v.note})`}`;
  });
  return [
    ...lines,
    `  gitmem memory ${RAW_CALL_VERB} --call '<tool call JSON>'   (--call - reads the call from stdin)`,
  ];
}
