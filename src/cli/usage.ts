/**
 * What a command line asks for beyond its options: a command's usage (help, a bare group), or running it
 * with positionals that fit its grammar. Unexpected or missing positionals are usage errors, so a typo
 * never runs a different command than the one meant.
 */
import { MemoryError } from '../errors.js';
import type { CommandGrammar } from './grammar.js';
import { COMMANDS } from './registry.js';

/**
 * 'usage' when the call asks for the usage text (a group with no sub-command and no default, or `help`
 * as the sub-command); 'run' when the positionals fit; throws INVALID_ARGUMENT / UNKNOWN_COMMAND otherwise.
 * @example checkPositionals('memory', COMMANDS.memory.grammar, ['rename', 'a.md']) // throws: missing <new-path>
 */
export function checkPositionals(
  name: string,
  grammar: CommandGrammar | undefined,
  positionals: readonly string[],
): 'usage' | 'run' {
  if (grammar === undefined) return 'run';
  let label = name;
  let expected = grammar.args ?? [];
  let given = positionals;
  if (grammar.subcommands) {
    const sub = positionals[0] ?? grammar.defaultSub;
    if (sub === undefined || sub === 'help') return 'usage';
    const spec = grammar.subcommands[sub];
    if (spec === undefined) {
      const known = Object.keys(grammar.subcommands).join(', ');
      throw new MemoryError(
        'UNKNOWN_COMMAND',
        `unknown ${name} sub-command '${sub}' (one of: ${known}; see gitmem ${name} --help)`,
      );
    }
    [label, expected, given] = [`${name} ${sub}`, spec, positionals.slice(1)];
  }
  const shape = `gitmem ${label}${expected.length > 0 ? ` ${expected.join(' ')}` : ''}`;
  if (given.length > expected.length) {
    const extra = given[expected.length] as string;
    const hint = /^\s*[[{]/.test(extra) ? "; a tool call goes in --call '<json>'" : '';
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${label}: unexpected argument ${JSON.stringify(extra)} (usage: ${shape}${hint})`,
    );
  }
  const required = expected.filter((p) => p.startsWith('<')).length;
  if (given.length < required) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${label}: missing ${expected[given.length] ?? 'argument'} (usage: ${shape})`,
    );
  }
  return 'run';
}

/**
 * `gitmem help`: every command's line from the registry (no command module is loaded), then the global
 * options, the agent rule and the exit codes.
 */
export function globalHelp(): string {
  const lines = ['Usage: gitmem <command> [options]', '', 'Commands:'];
  for (const [name, entry] of Object.entries(COMMANDS)) lines.push(`  ${name.padEnd(12)} ${entry.summary}`);
  return `${lines.join('\n')}\n${GLOBAL_HELP_FOOTER}`;
}

const GLOBAL_HELP_FOOTER = `
Global options (before or after the command; --opt value or --opt=value):
  --agent <id>   the agent (default: see below)
  --home <dir>   gitmem's home (default: $GITMEM_HOME, else ~/.gitmem)
  --json         machine-readable output; errors too ({"ok": false, "error": {...}})
  -h, --help     this text (gitmem help <command>, gitmem <command> --help: one command)
  -V, --version  the version

Which agent: --agent, else the harness's in-process agent, else GITMEM_MEMORY_DIR / MEMORY_DIR, else
GITMEM_AGENT_ID / AGENT_ID, else the home's only agent; with several agents and none named, the error
lists them. \`init\` on a home without agents creates "default".

Exit codes: 0 ok; 1 user error (one line on stderr: gitmem: CODE: message, details after it);
2 internal error; worker run: 3 merge conflict (branch kept), 4 discarded.`;
