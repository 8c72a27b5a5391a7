/**
 * What an API handler gets (the agent's view, the query, the JSON body) and the checks every handler uses
 * on them: untrusted strings of bounded length, integers in a range. A failed check is INVALID_ARGUMENT.
 */
import { MemoryError } from '../../index.js';
import type { AgentView, PalaceHub } from '../hub.js';

export interface ApiRequest {
  hub: PalaceHub;
  view: AgentView;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

export type Handler = (req: ApiRequest) => Promise<unknown>;

/** Longest string parameter accepted (paths are at most 1,024 bytes; reasons may be longer). */
const MAX_PARAM = 4096;

function bad(message: string, field: string): never {
  throw new MemoryError('INVALID_ARGUMENT', message, { data: { field } });
}

/** A query string parameter, or undefined when absent. */
export function queryString(req: ApiRequest, name: string, max = MAX_PARAM): string | undefined {
  const v = req.query.get(name);
  if (v === null) return undefined;
  if (v.length > max) bad(`${name} is longer than ${max} characters`, name);
  return v;
}

/** A required query parameter. */
export function requiredQuery(req: ApiRequest, name: string): string {
  const v = queryString(req, name);
  if (v === undefined || v === '') bad(`${name} is required`, name);
  return v;
}

/** An integer query parameter within [min, max], `fallback` when absent. */
export function queryInt(req: ApiRequest, name: string, fallback: number, min: number, max: number): number {
  const raw = queryString(req, name, 20);
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) bad(`${name} must be an integer from ${min} to ${max}`, name);
  return n;
}

/** A string field of the JSON body. */
export function bodyString(req: ApiRequest, name: string, max = MAX_PARAM * 4): string {
  const v = req.body[name];
  if (typeof v !== 'string' || v.trim() === '') bad(`${name} is required`, name);
  if (v.length > max) bad(`${name} is longer than ${max} characters`, name);
  return v;
}
