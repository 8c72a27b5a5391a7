/** `gitmem memory <op>`: one memory-tool write from the shell (each one commit with --reason). */
import { MemoryError } from '../../index.js';
import type { CliCommand, CliContext } from '../types.js';

const USAGE = `Usage:
  gitmem memory create <path> [--description D] [--text T | --text-file F] --reason R
  gitmem memory str-replace <path> --old S --new S [--all] --reason R
  gitmem memory insert <path> --line N --text T --reason R   (after line N of the file; 0 = the top)
  gitmem memory delete <path> --reason R
  gitmem memory rename <old-path> <new-path> --reason R
  gitmem memory describe <path> --description D --reason R
  gitmem memory apply-patch [--patch-file F | --patch-file -] --reason R   (default: patch on stdin)
  gitmem memory tool --call '<tool call JSON>'   (--call - reads the call from stdin)
A .md path (or one without an extension) is memory markdown: a description is needed, or frontmatter at the
start of the text; another extension (notes/progress.json) is a plain file, kept exactly as written.
Every write is one commit whose message is the reason. A value may start with "-" (--text "- a bullet"),
but a value that is one of these options (--reason --json) is refused: write --reason=--json to mean it.
--text-file / --patch-file: UTF-8, or UTF-16 with a byte-order mark (converted); - is stdin.
Global: --agent ID, --home DIR, --json (output as JSON).`;

async function createCall(ctx: CliContext): Promise<Record<string, unknown>> {
  const textFile = ctx.option('text-file');
  const text = ctx.option('text');
  if (textFile !== undefined && text !== undefined)
    throw new MemoryError('INVALID_ARGUMENT', 'memory create: give --text or --text-file, not both');
  const file_text = textFile !== undefined ? await ctx.readText(textFile) : (text ?? '');
  return { command: 'create', file_path: ctx.args[1], description: ctx.option('description'), file_text };
}

/** The memory-tool call a sub-command stands for (positionals were checked against the grammar). */
async function buildCall(ctx: CliContext): Promise<Record<string, unknown>> {
  const [op, path, second] = ctx.args;
  const o = ctx.option;
  const reason = o('reason');
  switch (op) {
    case 'create':
      return { reason, ...(await createCall(ctx)) };
    case 'str-replace':
      return {
        reason,
        command: 'str_replace',
        file_path: path,
        old_string: o('old'),
        new_string: o('new') ?? '',
        ...(ctx.values['all'] ? { replace_all: true } : {}),
      };
    case 'insert':
      return { reason, command: 'insert', file_path: path, insert_line: o('line'), insert_text: o('text') };
    case 'delete':
      return { reason, command: 'delete', file_path: path };
    case 'rename':
      return { reason, command: 'rename', old_path: path, new_path: second };
    case 'describe':
      return { reason, command: 'update_description', file_path: path, description: o('description') };
    default:
      throw new MemoryError('UNKNOWN_COMMAND', `unknown memory operation '${op ?? ''}'\n${USAGE}`);
  }
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

export const command: CliCommand = {
  name: 'memory',
  usage: USAGE,
  async run(ctx) {
    const op = ctx.args[0];
    // Read and check every input before opening the repository: bad input changes nothing.
    const patch =
      op === 'apply-patch'
        ? { reason: ctx.option('reason') ?? '', input: await ctx.readText(ctx.option('patch-file') ?? '-') }
        : undefined;
    const call = op === 'tool' ? await toolCall(ctx) : patch === undefined ? await buildCall(ctx) : undefined;
    const memory = await ctx.openMemory();
    const result = patch !== undefined ? await memory.applyPatch(patch) : await memory.tool(call);
    ctx.print(result, result.view ?? `${result.message} ${result.paths.join(', ')}`);
  },
};
