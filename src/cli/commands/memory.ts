/**
 * `gitmem memory <verb>`: one memory-tool write from the shell (each one commit with --reason). The verbs, their
 * usage and the call each makes come from the catalogue's write tools (tools/memory-verbs.ts); `tool` passes a
 * call as written.
 */
import { MemoryError, type Memory, type WriteResult } from '../../index.js';
import { MEMORY_VERB_TABLE, RAW_CALL_VERB, type MemoryVerb, type Spelling } from '../../tools/memory-verbs.js';
import { memoryUsageLines, spelledArguments } from '../memory-grammar.js';
import type { CliCommand, CliContext } from '../types.js';

type OptionSpelling = Exclude<Spelling, { positional: string }>;

const USAGE = `Usage:
${memoryUsageLines().join('\n')}
A .md path (or one without an extension) is memory markdown: a description is needed, or frontmatter at the
start of the text; another extension (notes/progress.json) is a plain file, kept exactly as written.
Every write is one commit whose message is the reason. A value may start with "-" (--text "- a bullet"),
but a value that is one of these options (--reason --json) is refused: write --reason=--json to mean it.
--text-file / --patch-file: UTF-8, or UTF-16 with a byte-order mark (converted); - is stdin.
Global: --agent ID, --home DIR, --json (output as JSON).`;

/** One option's value for its argument: given, read from a file, or its default (undefined stays a key). */
async function optionValue(ctx: CliContext, verb: string, s: OptionSpelling): Promise<unknown> {
  if (s.value === undefined) return ctx.values[s.option] ? true : undefined;
  const given = ctx.option(s.option);
  const file = s.orFile === undefined ? undefined : ctx.option(s.orFile);
  if (given !== undefined && file !== undefined)
    throw new MemoryError('INVALID_ARGUMENT', `memory ${verb}: give --${s.option} or --${s.orFile}, not both`);
  if (file !== undefined) return ctx.readText(file);
  const value = given ?? s.default;
  return s.fromFile === true && value !== undefined ? ctx.readText(value) : value;
}

/**
 * The tool call a verb stands for, its arguments from the positionals (checked against the grammar) and
 * options as the verb's spellings say. A flag left out is no key; any other argument is a key, even undefined,
 * so the tool names what is missing.
 */
async function buildCall(ctx: CliContext, v: MemoryVerb): Promise<Record<string, unknown>> {
  const args: Record<string, unknown> = {};
  let position = 1;
  for (const [arg, s] of spelledArguments(v)) {
    if (!('option' in s)) args[arg] = ctx.args[position++];
    else {
      const value = await optionValue(ctx, v.verb, s);
      if (s.value !== undefined || value !== undefined) args[arg] = value;
    }
  }
  return v.command === undefined ? args : { reason: args['reason'], command: v.command, ...args };
}

/** A tool call must be one JSON object: the memory tool's own schema. */
function parseCall(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new MemoryError('INVALID_ARGUMENT', `the tool call is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const got = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`;
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `the tool call must be a JSON object like {"command": "create", …}, got ${got}`,
    );
  }
  return parsed as Record<string, unknown>;
}

async function toolCall(ctx: CliContext): Promise<Record<string, unknown>> {
  const raw = ctx.option('call');
  if (raw === undefined)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      "memory tool needs the call: --call '<tool call JSON>' (or --call - for stdin)",
    );
  return parseCall(raw === '-' ? await ctx.readText('-') : raw);
}

const VERBS: ReadonlyMap<string, MemoryVerb> = new Map(MEMORY_VERB_TABLE.map((v) => [v.verb, v]));

/** How each catalogue tool a verb calls runs on the handle. */
const RUN: Readonly<
  Record<MemoryVerb['tool'], (memory: Memory, call: Record<string, unknown>) => Promise<WriteResult>>
> = {
  memory: (memory, call) => memory.tool(call),
  memory_apply_patch: (memory, call) => memory.applyPatch(call as { reason: string; input: string }),
};

export const command: CliCommand = {
  name: 'memory',
  usage: USAGE,
  async run(ctx) {
    const op = ctx.args[0] ?? '';
    const verb = VERBS.get(op);
    if (verb === undefined && op !== RAW_CALL_VERB)
      throw new MemoryError('UNKNOWN_COMMAND', `unknown memory operation '${op}'\n${USAGE}`);
    // Read and check every input before opening the repository: bad input changes nothing.
    const call = verb === undefined ? await toolCall(ctx) : await buildCall(ctx, verb);
    const memory = await ctx.openMemory();
    const result = await RUN[verb?.tool ?? 'memory'](memory, call);
    ctx.print(result, result.view ?? `${result.message} ${result.paths.join(', ')}`);
  },
};
