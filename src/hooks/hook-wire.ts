/**
 * The wire between the pre-commit hook script and a gitmem process that validates for it (hook-server.ts).
 * The client is a few lines of perl (pre-commit-script.ts), so the format is what perl writes without
 * modules: a request is `gitmem-hook 1\0` then `key=value\0` fields and an empty field; the answer is one
 * line `gitmem-hook-verdict <code> <bytes>\n` followed by exactly that many bytes of the hook's standard
 * error, or `gitmem-hook-refused <reason>\n` (the script then starts Node, which decides). A hook passes
 * only on a complete pass verdict: no answer, a cut answer or a refusal never lets a commit through.
 * Pure.
 */
import { join } from 'node:path';
import type { PreCommitVerdict } from './pre-commit.js';

const MAGIC = 'gitmem-hook 1';

/** A request larger than this is refused unread (it carries a few paths). */
export const MAX_HOOK_REQUEST_BYTES = 64 * 1024;

/** How long a server gives one request, from connection to verdict, before it refuses it. */
export const HOOK_REQUEST_MS = 30_000;

/** The environment entries a hook request may carry: where git put the snapshot, and the validator's home. */
export const HOOK_ENV_KEYS = [
  'GIT_INDEX_FILE',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GITMEM_HOME',
  'HOME',
  'GITMEM_SANDBOX',
] as const;

/** A parsed request: the hook's directory, its pid and ticket (peer.ts), and the environment it sent. */
export interface HookRequest {
  cwd: string;
  pid?: number;
  ticket?: string;
  env: Partial<Record<(typeof HOOK_ENV_KEYS)[number], string>>;
}

const HEAD = Buffer.from(`${MAGIC}\0`);

/** Where a request being read stands: a whole one (ends with the empty field), not one at all, or partial. */
export function hookRequestState(data: Buffer): 'complete' | 'bad' | 'partial' {
  const n = Math.min(data.length, HEAD.length);
  if (!data.subarray(0, n).equals(HEAD.subarray(0, n))) return 'bad';
  return data.length > HEAD.length && data.subarray(data.length - 2).equals(Buffer.from([0, 0]))
    ? 'complete'
    : 'partial';
}

/**
 * Parses a whole request; undefined for anything malformed (unknown keys, a relative cwd, bytes that are not
 * UTF-8, a repeated key).
 * @example parseHookRequest(Buffer.from('gitmem-hook 1\0cwd=/m\0env.GIT_INDEX_FILE=.git/index\0\0'))
 */
export function parseHookRequest(data: Buffer): HookRequest | undefined {
  const text = data.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(data)) return undefined; // a path git and Node would read differently
  const fields = text.split('\0');
  if (fields[0] !== MAGIC || fields.at(-1) !== '' || fields.at(-2) !== '') return undefined;
  const seen = new Set<string>();
  const out: HookRequest = { cwd: '', env: {} };
  for (const field of fields.slice(1, -2)) {
    const eq = field.indexOf('=');
    const key = eq > 0 ? field.slice(0, eq) : '';
    const value = field.slice(eq + 1);
    if (key === '' || seen.has(key)) return undefined;
    seen.add(key);
    if (key === 'cwd') out.cwd = value;
    else if (key === 'pid' && /^[1-9][0-9]{0,9}$/.test(value)) out.pid = Number(value);
    else if (key === 'ticket') out.ticket = value;
    else if (key.startsWith('env.') && (HOOK_ENV_KEYS as readonly string[]).includes(key.slice(4)))
      out.env[key.slice(4) as keyof HookRequest['env']] = value;
    else return undefined;
  }
  return out.cwd.startsWith('/') ? out : undefined;
}

/**
 * A request as the hook script sends it (for tests and for Node clients).
 * @example renderHookRequest({ cwd: '/m', env: { GIT_INDEX_FILE: '.git/index' } })
 */
export function renderHookRequest(r: HookRequest): Buffer {
  const fields = [`cwd=${r.cwd}`];
  if (r.pid !== undefined) fields.push(`pid=${r.pid}`);
  if (r.ticket !== undefined) fields.push(`ticket=${r.ticket}`);
  for (const [k, v] of Object.entries(r.env)) if (v !== undefined) fields.push(`env.${k}=${v}`);
  return Buffer.from(`${MAGIC}\0${fields.map((f) => `${f}\0`).join('')}\0`, 'utf8');
}

/** The answer that carries a verdict. */
export function renderVerdict(v: PreCommitVerdict): Buffer {
  const body = Buffer.from(v.stderr, 'utf8');
  return Buffer.concat([Buffer.from(`gitmem-hook-verdict ${v.code} ${body.length}\n`), body]);
}

/** The answer that sends the hook to its own Node check. */
export function renderRefusal(reason: string): Buffer {
  return Buffer.from(`gitmem-hook-refused ${reason.replace(/[\r\n]/g, ' ')}\n`);
}

/**
 * Reads an answer the way the hook script does: a verdict only when it is complete.
 * @example parseAnswer(renderVerdict({ code: 0, stderr: '' })) // { code: 0, stderr: '' }
 */
export function parseAnswer(data: Buffer): PreCommitVerdict | { refused: string } {
  const nl = data.indexOf(0x0a);
  const head = nl === -1 ? '' : data.subarray(0, nl).toString('utf8');
  const m = /^gitmem-hook-verdict ([01]) (\d+)$/.exec(head);
  const body = data.subarray(nl + 1);
  if (m && body.length === Number(m[2])) return { code: m[1] === '1' ? 1 : 0, stderr: body.toString('utf8') };
  return { refused: /^gitmem-hook-refused (.*)$/.exec(head)?.[1] ?? 'no complete answer' };
}

function fnv1a(bytes: Buffer, seed: number): string {
  let h = seed >>> 0;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/**
 * The socket a daemon running the install with hook entry `entry` answers hooks on, inside its runtime
 * directory (which is already per user); the hook's client derives the same name (FNV-1a of the entry's bytes,
 * two seeds), so only that install's code validates for the hook lines that name it.
 * @example hookSocketPath('/run/user/1/gitmem-1', '/opt/gitmem/dist/bin/pre-commit.cjs') // '/run/user/1/gitmem-1/hook-….sock'
 */
export function hookSocketPath(runtimeDir: string, entry: string): string {
  const bytes = Buffer.from(entry, 'utf8');
  return join(runtimeDir, `hook-${fnv1a(bytes, 0x811c9dc5)}${fnv1a(bytes, 0x050c5d1f)}.sock`);
}
