/** `gitmem memory <op>`: one memory-tool write from the shell (each one commit with --reason). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MemoryError } from '../../errors.js';
import { createMemory } from '../../memory.js';
import type { CliCommand, CliContext } from '../types.js';

const USAGE = `Usage:
  gitmem memory create <path> --description D [--text T | --text-file F] --reason R
  gitmem memory str-replace <path> --old S --new S [--all] --reason R
  gitmem memory insert <path> --line N --text T --reason R
  gitmem memory delete <path> --reason R
  gitmem memory rename <old-path> <new-path> --reason R
  gitmem memory describe <path> --description D --reason R
  gitmem memory apply-patch [--patch-file F | --patch-file -] --reason R   (default: patch on stdin)
  gitmem memory tool --json '<tool call JSON>'    (also --call '<json>' or --call - for stdin)
Every write is one commit whose message is the reason. Global: --agent ID, --home DIR, --json.`;

function str(ctx: CliContext, key: string): string | undefined {
  const v = ctx.values[key];
  return typeof v === 'string' ? v : undefined;
}

/** `-` is standard input; a path is relative to the caller's directory. */
async function readInput(ctx: CliContext, source: string): Promise<string> {
  if (source === '-') return ctx.readStdin();
  try {
    return readFileSync(resolve(ctx.cwd, source), 'utf8');
  } catch (err) {
    throw new MemoryError('INVALID_ARGUMENT', `cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function needPath(ctx: CliContext, index: number, what: string): string {
  const p = ctx.args[index];
  if (!p) throw new MemoryError('INVALID_ARGUMENT', `memory ${ctx.args[0]}: missing ${what}`);
  return p;
}

async function buildCall(ctx: CliContext): Promise<Record<string, unknown>> {
  const op = ctx.args[0];
  const reason = str(ctx, 'reason');
  const base = { reason };
  switch (op) {
    case 'create': {
      const textFile = str(ctx, 'text-file');
      const file_text = textFile ? await readInput(ctx, textFile) : (str(ctx, 'text') ?? '');
      return { ...base, command: 'create', file_path: needPath(ctx, 1, '<path>'), description: str(ctx, 'description'), file_text };
    }
    case 'str-replace':
      return { ...base, command: 'str_replace', file_path: needPath(ctx, 1, '<path>'), old_string: str(ctx, 'old'), new_string: str(ctx, 'new') ?? '', ...(ctx.values['all'] ? { replace_all: true } : {}) };
    case 'insert':
      return { ...base, command: 'insert', file_path: needPath(ctx, 1, '<path>'), insert_line: Number(str(ctx, 'line') ?? 'NaN'), insert_text: str(ctx, 'text') };
    case 'delete':
      return { ...base, command: 'delete', file_path: needPath(ctx, 1, '<path>') };
    case 'rename':
      return { ...base, command: 'rename', old_path: needPath(ctx, 1, '<old-path>'), new_path: needPath(ctx, 2, '<new-path>') };
    case 'describe':
      return { ...base, command: 'update_description', file_path: needPath(ctx, 1, '<path>'), description: str(ctx, 'description') };
    default:
      throw new MemoryError('UNKNOWN_COMMAND', `unknown memory operation '${op ?? ''}'\n${USAGE}`);
  }
}

function parseCall(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new MemoryError('INVALID_ARGUMENT', `the tool call is not valid JSON: ${(err as Error).message}`);
  }
}

export const command: CliCommand = {
  name: 'memory',
  summary: 'write memory through the memory tool (create, str-replace, insert, delete, rename, describe, apply-patch, tool)',
  usage: USAGE,
  options: {
    reason: { type: 'string' },
    description: { type: 'string' },
    text: { type: 'string' },
    'text-file': { type: 'string' },
    old: { type: 'string' },
    new: { type: 'string' },
    all: { type: 'boolean' },
    line: { type: 'string' },
    'patch-file': { type: 'string' },
    call: { type: 'string' },
  },
  async run(ctx) {
    const op = ctx.args[0];
    const memory = await createMemory({ home: ctx.home, agentId: ctx.agent, env: ctx.env, launch: ctx.launch });
    let result;
    if (op === 'tool') {
      const raw = str(ctx, 'call');
      if (raw === undefined) throw new MemoryError('INVALID_ARGUMENT', "memory tool needs the call: --json '<tool call JSON>' or --call -");
      result = await memory.tool(parseCall(raw === '-' ? await ctx.readStdin() : raw));
    } else if (op === 'apply-patch') {
      const reason = str(ctx, 'reason') ?? '';
      result = await memory.applyPatch({ reason, input: await readInput(ctx, str(ctx, 'patch-file') ?? '-') });
    } else {
      result = await memory.tool(await buildCall(ctx));
    }
    ctx.print(result, `${result.message} ${result.paths.join(', ')}`);
  },
};
