/**
 * The shape check of one memory-tool call, before anything is read or written: command and reason present,
 * no undeclared key, every text field within its limit. Apart from tool.ts, which runs the call.
 */
import { MemoryError } from '../errors.js';
import { MEMORY_COMMANDS, type MemoryCommand } from '../blocks/memory-commands.js';
import { checkText, TEXT_FIELDS } from './limits.js';
import { refuseUndeclared } from './tool-args.js';
import { memoryToolSchema } from './tool-schema.js';

const DECLARED = Object.keys(memoryToolSchema.properties);

/** Checks the call's shape; returns the command and trimmed reason. */
export function validateToolCall(call: unknown): {
  command: MemoryCommand;
  reason: string;
  args: Record<string, unknown>;
} {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) {
    throw new MemoryError('INVALID_ARGUMENT', 'memory: the tool call must be a JSON object');
  }
  const args = call as Record<string, unknown>;
  const missing = ['command', ...(args['command'] === 'view' ? [] : ['reason'])].filter((k) => !(k in args));
  if (missing.length > 0) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `memory tool missing required parameter(s): ${missing.join(', ')}. Received parameters: ${Object.keys(args).join(', ') || '(none)'}`,
      { data: { missing } },
    );
  }
  refuseUndeclared('memory', DECLARED, args);
  const command = args['command'];
  if (typeof command !== 'string' || !(MEMORY_COMMANDS as readonly string[]).includes(command)) {
    throw new MemoryError(
      'UNKNOWN_COMMAND',
      `Unsupported memory command: ${String(command)} (expected one of ${MEMORY_COMMANDS.join(', ')})`,
    );
  }
  const reason = args['reason'];
  if (command === 'view' && reason === undefined) return { command, reason: '', args };
  if (typeof reason !== 'string' || (reason.trim() === '' && command !== 'view')) {
    throw new MemoryError('INVALID_ARGUMENT', "memory: 'reason' must be a non-empty string", {
      data: { field: 'reason' },
    });
  }
  for (const [field, max] of Object.entries(TEXT_FIELDS)) checkText('memory', field, args[field], max);
  return { command: command as MemoryCommand, reason: reason.trim(), args };
}
