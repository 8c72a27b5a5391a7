/**
 * The integration lease's record (pure): what the commit at `refs/gitmem/lease` says — who holds it, until when,
 * and the recent pushes of main (so the push rate holds across holders). Its text comes from the remote, so it is
 * hostile: anything not exactly of this shape is no lease at all (free to take), never an error.
 */

export interface LeaseRecord {
  /** `<agent>/<machine>/<nonce>`: one integration attempt of one writer. */
  holder: string;
  state: 'held' | 'released';
  /** Milliseconds since the epoch, by the holder's clock. */
  expires: number;
  /** How long the holder took it for (ms); bounds how far ahead `expires` may be believed. */
  ttl: number;
  /** Pushes of main in the minute before the record was written (ms, the writers' clocks). */
  pushes: number[];
  /** Writers that pushed their ref while the lease was held and asked the holder for one more pass. */
  pending: number;
}

const TITLE = 'gitmem integration lease';
const HOLDER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}\/[A-Za-z0-9][A-Za-z0-9._-]{0,62}\/[A-Za-z0-9]{1,32}$/;
const NUMBER = /^\d{1,16}$/;
/** A lease is never taken for longer than this, whatever a record says. */
export const MAX_LEASE_TTL_MS = 10 * 60_000;
/** How far the writers' clocks may disagree before a record's expiry is no longer believed. */
export const CLOCK_SKEW_MS = 30_000;
const MAX_PUSHES = 600;

/**
 * The commit message of a record.
 * @example renderLease({ holder: 'a/m/1', state: 'held', expires: 5, ttl: 5, pushes: [], pending: 0 })
 */
export function renderLease(r: LeaseRecord): string {
  return [
    TITLE,
    '',
    `holder: ${r.holder}`,
    `state: ${r.state}`,
    `expires: ${Math.floor(r.expires)}`,
    `ttl: ${Math.floor(r.ttl)}`,
    `pushes: ${r.pushes.map((t) => Math.floor(t)).join(',')}`,
    `pending: ${Math.floor(r.pending)}`,
    '',
  ].join('\n');
}

/**
 * The record in a lease commit's message, or undefined when it is not one (garbage, a wrong key, a number out
 * of range, a huge list): such a lease counts as expired.
 * @example parseLease(renderLease(rec))?.holder === rec.holder
 */
export function parseLease(message: string): LeaseRecord | undefined {
  if (message.length > 16_384) return undefined;
  const lines = message.replace(/\n+$/, '').split('\n');
  if (lines[0] !== TITLE || lines[1] !== '') return undefined;
  const fields = new Map<string, string>();
  for (const line of lines.slice(2)) {
    const m = /^([a-z]+): ?(.*)$/.exec(line);
    if (!m || fields.has(m[1] ?? '')) return undefined;
    fields.set(m[1] ?? '', m[2] ?? '');
  }
  if (fields.size !== 6) return undefined;
  const holder = fields.get('holder') ?? '';
  const state = fields.get('state');
  const expires = num(fields.get('expires'));
  const ttl = num(fields.get('ttl'));
  const pending = num(fields.get('pending'));
  const pushText = fields.get('pushes') ?? '';
  const pushes = pushText === '' ? [] : pushText.split(',').map(num);
  if (!HOLDER.test(holder) || (state !== 'held' && state !== 'released')) return undefined;
  if (expires === undefined || ttl === undefined || pending === undefined) return undefined;
  if (ttl < 1 || ttl > MAX_LEASE_TTL_MS || pushes.length > MAX_PUSHES) return undefined;
  if (pushes.some((t) => t === undefined)) return undefined;
  return { holder, state, expires, ttl, pushes: pushes as number[], pending };
}

function num(text: string | undefined): number | undefined {
  if (text === undefined || !NUMBER.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Whether `r` still keeps others out at `now` (this machine's clock): held, not expired, and not claiming more
 * time than it was taken for (plus the allowed skew) — a record from a clock far ahead is not believed.
 * @example isHeld({ ...rec, state: 'held', expires: now + 1000, ttl: 60_000 }, now) === true
 */
export function isHeld(r: LeaseRecord | undefined, now: number): boolean {
  if (!r || r.state !== 'held') return false;
  return now < r.expires && r.expires - now <= r.ttl + CLOCK_SKEW_MS;
}

/**
 * The pushes of main within the last minute from the record and this checkout's own log, each at most `now`
 * (a time from a clock ahead counts as just now: the bound gets stricter, never looser).
 * @example recentPushes([1000], [2000], 30_000) // [1000, 2000]
 */
export function recentPushes(recorded: readonly number[], local: readonly number[], now: number): number[] {
  const all = [...recorded, ...local].map((t) => Math.min(t, now)).filter((t) => now - t < 60_000);
  return [...new Set(all)].sort((a, b) => a - b).slice(-MAX_PUSHES);
}
