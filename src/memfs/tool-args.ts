/**
 * Undeclared arguments are refused on every surface: the library's tool entries (the memory tool,
 * memory_apply_patch) check a call's keys against the schema a harness hands its model (tool-schema.ts), and
 * say so in the MCP server's words (tools/arguments.ts), so a typo'd or invented key never rides along into a
 * commit. Pure.
 */
import { MemoryError } from '../errors.js';

/** A key as a message shows it: as is, or JSON-quoted when it is not plain one-line text; at most 80 characters. */
function shownKey(key: string): string {
  const cut = key.slice(0, 80);
  // eslint-disable-next-line no-control-regex -- control characters would break the one-line message
  return /[\u0000-\u001f\u007f]/.test(cut) || !cut.isWellFormed() ? JSON.stringify(cut) : `'${cut}'`;
}

/**
 * Throws INVALID_ARGUMENT naming the first key of `args` that `declared` does not list.
 * @example refuseUndeclared('memory_apply_patch', ['reason', 'input'], { reason: 'r', dry_run: true })
 *   // throws: memory_apply_patch: unknown argument 'dry_run' (declared: reason, input)
 */
export function refuseUndeclared(
  tool: string,
  declared: readonly string[],
  args: Readonly<Record<string, unknown>>,
): void {
  const extra = Object.keys(args).find((k) => !declared.includes(k));
  if (extra === undefined) return;
  throw new MemoryError(
    'INVALID_ARGUMENT',
    `${tool}: unknown argument ${shownKey(extra)} (declared: ${declared.join(', ')})`,
    {
      data: { tool, field: extra.slice(0, 80) },
    },
  );
}
