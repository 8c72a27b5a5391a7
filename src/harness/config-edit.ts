/**
 * Edits of `$GITMEM_HOME/config` by key (`gitmem config set model …`, connect's project mapping): the
 * rest of the file keeps its bytes, and the result must pass the config's own checks before anything
 * is written (a refused value leaves the file as it was).
 */
import { getNodeValue, type Node } from 'jsonc-parser';
import { checkGitmemConfig, configPath, MemoryError } from '../internals.js';
import { readIfExists, writeAtomic } from './files.js';
import { child, insertInto, parseObject, removeNode, replaceNode } from './json-edit.js';

/**
 * A dotted key as path segments; refuses an empty segment.
 * @example keyPath('providers.local.baseURL') // ['providers', 'local', 'baseURL']
 */
export function keyPath(key: string): string[] {
  const parts = key.split('.');
  if (key.trim() === '' || parts.some((p) => p === ''))
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `config key ${JSON.stringify(key)} is not a dotted key like model or providers.local.baseURL`,
    );
  return parts;
}

/** The text of the config file, `{}` when it is missing or empty. */
function configText(home: string): { path: string; text: string; exists: boolean } {
  const path = configPath(home);
  const text = readIfExists(path);
  return { path, text: text === undefined || text.trim() === '' ? '{\n}\n' : text, exists: text !== undefined };
}

/** The deepest node along `path`, and how many segments it covers. */
function walk(root: Node, path: readonly string[]): { node: Node; depth: number } {
  let node = root;
  let depth = 0;
  for (const seg of path) {
    if (node.type !== 'object') break;
    const next = child(node, seg);
    if (!next) break;
    node = next;
    depth += 1;
  }
  return { node, depth };
}

/**
 * `text` with the value at `path` set (missing objects on the way created).
 * @example setIn('/c', '{}', ['reflection', 'trigger'], 'manual') // '{\n  "reflection": {…}\n}'
 */
export function setIn(file: string, text: string, path: readonly string[], value: unknown): string {
  const { node, depth } = walk(parseObject(file, text), path);
  if (depth === path.length) return replaceNode(text, node, value);
  if (node.type !== 'object')
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `config key ${path.slice(0, depth).join('.')} is not an object, so ${path.join('.')} cannot be set`,
    );
  const nested = path.slice(depth + 1).reduceRight<unknown>((v, k) => ({ [k]: v }), value);
  return insertInto(text, node, path[depth], nested);
}

/** `text` without the value at `path` (the same text when there is none). */
export function unsetIn(file: string, text: string, path: readonly string[]): string {
  const { node, depth } = walk(parseObject(file, text), path);
  return depth === path.length && node.parent ? removeNode(text, node.parent) : text;
}

/** The value at `key` of the home's config, or undefined. */
export function configGet(home: string, key: string): unknown {
  const { path, text } = configText(home);
  const { node, depth } = walk(parseObject(path, text), keyPath(key));
  return depth === keyPath(key).length ? (getNodeValue(node) as unknown) : undefined;
}

/** A planned config write: the new text, checked; `changed` false when it is the same. */
export interface ConfigChange {
  path: string;
  before: string | undefined;
  after: string;
  changed: boolean;
}

function plan(home: string, edit: (path: string, text: string) => string): ConfigChange {
  const { path, text, exists } = configText(home);
  const after = edit(path, text);
  checkGitmemConfig(path, after);
  const before = exists ? readIfExists(path) : undefined;
  return { path, before, after, changed: after !== text };
}

/** Plans `config set`: the value at `key` becomes `value`. */
export function planConfigSet(home: string, key: string, value: unknown): ConfigChange {
  return plan(home, (path, text) => setIn(path, text, keyPath(key), value));
}

/** Plans `config unset`. */
export function planConfigUnset(home: string, key: string): ConfigChange {
  return plan(home, (path, text) => unsetIn(path, text, keyPath(key)));
}

/** Plans the project mapping `projects["<root>"] = agent` (the root is one segment: it holds dots). */
export function planProjectAgent(home: string, root: string, agent: string): ConfigChange {
  return plan(home, (path, text) => setIn(path, text, ['projects', root], agent));
}

/** Writes a planned change (mode 0600 for a new file: the config names key variables). */
export function applyConfigChange(change: ConfigChange): void {
  if (change.changed) writeAtomic(change.path, change.after, 0o600);
}
