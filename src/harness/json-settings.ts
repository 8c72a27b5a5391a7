/**
 * gitmem's entries in a harness's JSON settings: hook groups under `hooks.<Event>` (Claude Code's
 * settings.json, Codex's hooks.json) and the `mcpServers.gitmem` server (~/.claude.json, .mcp.json).
 * Pure text → text: ours are recognised by their command text (never by position), the user's entries
 * and every other byte stay as they were, and an unchanged result means there is nothing to write.
 */
import { getNodeValue, type Node } from 'jsonc-parser';
import type { HarnessId } from './catalogue.js';
import { isOurHookCommand, isOurMcpServer, type McpServer } from './command-line.js';
import { child, expectType, insertInto, parseObject, removeNode, replaceNode } from './json-edit.js';
import { settingsError, lineCol } from './settings-error.js';

/** One hook gitmem registers: the harness event, the command line, its timeout in seconds. */
export interface HookEntry {
  event: string;
  command: string;
  timeout: number;
  /** The harness's `matcher` for the group (PreToolUse / PostToolUse: the tools). */
  matcher?: string;
}

/** Where one of our hooks sits: group `group` of `hooks.<event>`, hook `index` of that group. */
interface Found {
  event: string;
  group: Node;
  hook: Node;
  /** The group holds only this hook (ours alone: the group is ours too). */
  alone: boolean;
}

// Not '{}': a one-line document gets one-line edits, and a new file should read well.
const EMPTY = '{\n}\n';

function base(text: string | undefined): string {
  return text === undefined || text.trim() === '' ? EMPTY : text;
}

function hookOf(entry: HookEntry): Record<string, unknown> {
  return { type: 'command', command: entry.command, timeout: entry.timeout };
}

/** Canonical text of a JSON value (keys sorted), to compare entries whatever their key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

function hooksNode(path: string, text: string): { root: Node; hooks: Node | undefined } {
  const root = parseObject(path, text);
  const hooks = child(root, 'hooks');
  expectType(path, text, hooks, 'object', 'hooks');
  for (const prop of hooks?.children ?? []) {
    expectType(path, text, prop.children?.[1], 'array', `hooks.${String(prop.children?.[0]?.value)}`);
  }
  return { root, hooks };
}

/** Our hooks in `text`, in document order (checks the shape: throws a settings error). */
function findOurs(path: string, text: string, harness: HarnessId): Found[] {
  const found: Found[] = [];
  for (const prop of hooksNode(path, text).hooks?.children ?? []) {
    const event = String(prop.children?.[0]?.value);
    for (const group of prop.children?.[1]?.children ?? []) {
      const list = child(group, 'hooks');
      if (list?.type !== 'array') continue; // not a group we could have written; the harness judges it
      for (const hook of list.children ?? []) {
        if (isOurHookCommand(getNodeValue(child(hook, 'command') ?? hook) as unknown, harness)) {
          found.push({ event, group, hook, alone: list.children?.length === 1 });
        }
      }
    }
  }
  return found;
}

/**
 * Checks `text` is settings gitmem can edit (an object whose `hooks` is an object of arrays); throws a
 * settings error naming file:line:col otherwise.
 */
export function checkJsonSettings(path: string, text: string | undefined): void {
  hooksNode(path, base(text));
}

/** One event: our first hook made equal to `entry`, any further ones removed, or a new group appended. */
function putHook(path: string, text: string, harness: HarnessId, entry: HookEntry): string {
  const ours = findOurs(path, text, harness).filter((f) => f.event === entry.event);
  const first = ours[0];
  if (!first) {
    const { root, hooks } = hooksNode(path, text);
    const group = { ...(entry.matcher === undefined ? {} : { matcher: entry.matcher }), hooks: [hookOf(entry)] };
    if (!hooks) return insertInto(text, root, 'hooks', { [entry.event]: [group] });
    const list = child(hooks, entry.event);
    return list ? insertInto(text, list, undefined, group) : insertInto(text, hooks, entry.event, [group]);
  }
  // Later duplicates go first (from the end), so the offsets of the earlier ones still hold.
  for (const extra of ours.slice(1).reverse()) text = removeNode(text, extra.alone ? extra.group : extra.hook);
  const matcher = entry.matcher === undefined ? {} : { matcher: entry.matcher };
  const want = first.alone ? { ...withoutHooks(first.group), ...matcher, hooks: [hookOf(entry)] } : hookOf(entry);
  const node = first.alone ? first.group : first.hook;
  return canonical(getNodeValue(node)) === canonical(want) ? text : replaceNode(text, node, want);
}

/** A group's other keys (a matcher the user added to our group stays). */
function withoutHooks(group: Node): Record<string, unknown> {
  const { hooks: _hooks, ...rest } = getNodeValue(group) as Record<string, unknown>;
  return rest;
}

/**
 * `text` with gitmem's hooks set to `entries` (added, or an older gitmem line replaced); the same text
 * when they are already there. `undefined` text is a file that does not exist yet.
 * @example addHooks('/s.json', '{}', 'codex', [{ event: 'Stop', command: c, timeout: 10 }])
 */
export function addHooks(
  path: string,
  text: string | undefined,
  harness: HarnessId,
  entries: readonly HookEntry[],
): string {
  const before = base(text);
  let out = before;
  for (const entry of entries) out = putHook(path, out, harness, entry);
  // Ours on an event no longer registered (connect without --auto-memory after with it) go.
  const events = new Set(entries.map((e) => e.event));
  for (;;) {
    const stale = findOurs(path, out, harness)
      .filter((f) => !events.has(f.event))
      .at(-1);
    if (!stale) break;
    out = removeWithEmptyParents(out, stale.alone ? stale.group : stale.hook);
  }
  return out === before && text !== undefined ? text : out;
}

/** Removes `node` and then its containers that became empty (`hooks.<Event>`, `hooks`) — never the root. */
function removeWithEmptyParents(text: string, node: Node): string {
  let target = node;
  for (;;) {
    const container = target.parent; // an array (element) or an object (property)
    const owner = container?.parent; // the property holding that container
    if (!container || container.children?.length !== 1 || owner?.type !== 'property') break;
    target = owner;
  }
  return removeNode(text, target);
}

/**
 * `text` without gitmem's hooks for `harness` (a group of ours removed whole; our hook alone when the
 * user added theirs to the group; containers left empty by that removed).
 */
export function removeHooks(path: string, text: string, harness: HarnessId): string {
  for (;;) {
    const last = findOurs(path, text, harness).at(-1);
    if (!last) return text;
    text = removeWithEmptyParents(text, last.alone ? last.group : last.hook);
  }
}

/** Our hooks present in `text`: event → command line (the first, if several). */
export function listHooks(path: string, text: string | undefined, harness: HarnessId): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of findOurs(path, base(text), harness)) {
    if (!out.has(f.event)) out.set(f.event, String(getNodeValue(child(f.hook, 'command') ?? f.hook)));
  }
  return out;
}

function serversNode(path: string, text: string): { root: Node; servers: Node | undefined; entry: Node | undefined } {
  const root = parseObject(path, text);
  const servers = child(root, 'mcpServers');
  expectType(path, text, servers, 'object', 'mcpServers');
  return { root, servers, entry: child(servers, 'gitmem') };
}

/** The `mcpServers.gitmem` entry of `text`, if any (after checking the file's shape). */
export function readMcpServer(path: string, text: string | undefined): unknown {
  const { entry } = serversNode(path, base(text));
  return entry ? getNodeValue(entry) : undefined;
}

/**
 * `text` with `mcpServers.gitmem` set to `server`; refuses to replace a `gitmem` server that is not
 * gitmem's own `mcp` command (the user's, kept).
 */
export function addMcpServer(path: string, text: string | undefined, server: McpServer): string {
  const before = base(text);
  const { root, servers, entry } = serversNode(path, before);
  const want = { type: 'stdio', ...server };
  if (!servers) return insertInto(before, root, 'mcpServers', { gitmem: want });
  if (!entry) return insertInto(before, servers, 'gitmem', want);
  const current = getNodeValue(entry) as unknown;
  if (canonical(current) === canonical(want)) return text ?? before;
  if (!isOurMcpServer(current)) {
    throw settingsError(
      path,
      lineCol(before, entry.offset),
      'already has an MCP server named "gitmem" that gitmem connect did not write (remove it, then connect again)',
    );
  }
  return replaceNode(before, entry, want);
}

/** `text` without our `mcpServers.gitmem` (and `mcpServers` if that leaves it empty); the user's own stays. */
export function removeMcpServer(path: string, text: string): string {
  const { entry } = serversNode(path, text);
  if (!entry?.parent || !isOurMcpServer(getNodeValue(entry))) return text;
  return removeWithEmptyParents(text, entry.parent);
}

/** A top-level string setting gitmem set (`autoMemoryDirectory`): a path to an agent's gitmem checkout. */
const OUR_SETTING_VALUE = /[/\\]agents[/\\][A-Za-z0-9._-]+[/\\]memory$/;

/** The top-level string setting `key` of `text`, if any (after checking the file's shape). */
export function readSetting(path: string, text: string | undefined, key: string): unknown {
  const node = child(parseObject(path, base(text)), key);
  return node ? getNodeValue(node) : undefined;
}

/** `text` with the top-level setting `key` set to `value` (the same text when it already is). */
export function addSetting(path: string, text: string | undefined, key: string, value: string): string {
  const before = base(text);
  const root = parseObject(path, before);
  const node = child(root, key);
  if (!node) return insertInto(before, root, key, value);
  return getNodeValue(node) === value ? (text ?? before) : replaceNode(before, node, value);
}

/** `text` without the setting `key` when its value is a gitmem checkout gitmem set; a user's own value stays. */
export function removeSetting(path: string, text: string, key: string): string {
  const node = child(parseObject(path, text), key);
  const value: unknown = node ? getNodeValue(node) : undefined;
  if (!node?.parent || typeof value !== 'string' || !OUR_SETTING_VALUE.test(value)) return text;
  return removeNode(text, node.parent);
}
