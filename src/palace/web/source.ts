/**
 * Where the page's data comes from: the live server (the JSON API, writes, the change stream) or an
 * exported snapshot (static-source.ts). Components only see this interface.
 */
import type { UpdateEvent } from '../api-types.js';

export type Params = Record<string, string | number | undefined>;

export interface Source {
  /** False in an export: no writes, no timeline, no change stream. */
  readonly live: boolean;
  get<T>(route: string, params?: Params): Promise<T>;
  post<T>(route: string, agent: string, body: Record<string, unknown>): Promise<T>;
  /** Follows one agent's moves of main; `onState` says whether the stream is connected. */
  subscribe(agent: string, onEvent: (e: UpdateEvent) => void, onState: (connected: boolean) => void): () => void;
}

/** A refusal from the server, with its stable code. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

function query(params: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

async function reply<T>(r: Response): Promise<T> {
  const body = (await r.json().catch(() => ({}))) as { error?: { code: string; message: string } };
  if (!r.ok) throw new ApiError(body.error?.code ?? 'HTTP', body.error?.message ?? `HTTP ${r.status}`, r.status);
  return body as T;
}

/** The server this page was loaded from (URLs are relative to the token path). */
export function liveSource(): Source {
  return {
    live: true,
    get: async <T>(route: string, params: Params = {}) =>
      reply<T>(await fetch(`api/${route}${query(params)}`, { credentials: 'omit' })),
    post: async <T>(route: string, agent: string, body: Record<string, unknown>) =>
      reply<T>(
        await fetch(`api/${route}${query({ agent })}`, {
          method: 'POST',
          credentials: 'omit',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }),
      ),
    subscribe(agent, onEvent, onState) {
      const es = new EventSource(`events${query({ agent })}`);
      es.addEventListener('ready', () => onState(true));
      es.addEventListener('memory_updated', (m) =>
        onEvent(JSON.parse((m as MessageEvent<string>).data) as UpdateEvent),
      );
      es.onerror = () => onState(false);
      return () => es.close();
    },
  };
}
