/**
 * Memory files as MCP resources: `gitmem://<agent>/<path>` for every committed file — listed (paginated,
 * each page from the same commit), read (HEAD's text), and subscribed to: a subscriber is sent
 * `notifications/resources/updated` when that file changes on main, whoever changed it (memory.watch()).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import { isMemoryError, type Memory, type MemoryWatcher } from '../internals.js';

/** Resources per resources/list page. */
const RESOURCE_PAGE = 100;
/** The MCP error code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

const protocolError = (code: number, message: string): Error => Object.assign(new Error(message), { code });

/** The agent segment of this memory's URIs. */
function agentSegment(memory: Memory): string {
  return encodeURIComponent(memory.agentId ?? 'memory');
}

/**
 * The URI of a memory path.
 * @example resourceUri(memory, 'notes/a b.md') // 'gitmem://ada/notes/a%20b.md'
 */
function resourceUri(memory: Memory, path: string): string {
  return `gitmem://${agentSegment(memory)}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The memory path a URI names; InvalidParams when it is no URI of this memory. */
function pathOfUri(memory: Memory, uri: string): string {
  const prefix = `gitmem://${agentSegment(memory)}/`;
  if (!uri.startsWith(prefix))
    throw protocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 200)} (this server serves ${prefix}…)`);
  try {
    return uri.slice(prefix.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    throw protocolError(ErrorCode.InvalidParams, `Invalid params for resources: malformed URI ${uri.slice(0, 200)}`);
  }
}

const mimeOf = (path: string): string => (path.endsWith('.md') ? 'text/markdown' : 'text/plain');

async function listPage(
  memory: Memory,
  cursor: string | undefined,
): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const m = cursor === undefined ? undefined : /^([0-9a-f]{40,64}):(\d{1,9})$/.exec(cursor);
  if (cursor !== undefined && !m)
    throw protocolError(ErrorCode.InvalidParams, 'Invalid params for resources/list: unknown cursor');
  const { commit, files } = await memory.files(m ? { at: m[1] as string } : {}).catch((err: unknown) => {
    throw isMemoryError(err, 'UNKNOWN_REVISION')
      ? protocolError(ErrorCode.InvalidParams, 'Invalid params for resources/list: the cursor names no commit')
      : err;
  });
  const start = m ? Number(m[2]) : 0;
  const page = files.slice(start, start + RESOURCE_PAGE);
  const resources = page.map((f) => ({
    uri: resourceUri(memory, f.path),
    name: f.path,
    mimeType: mimeOf(f.path),
    size: f.size,
    ...(f.description ? { description: f.description } : {}),
  }));
  const next = start + RESOURCE_PAGE;
  return next < files.length && commit ? { resources, nextCursor: `${commit}:${next}` } : { resources };
}

async function readResource(memory: Memory, uri: string) {
  const path = pathOfUri(memory, uri);
  try {
    const r = await memory.read(path);
    return { contents: [{ uri, mimeType: mimeOf(r.path), text: r.text }] };
  } catch (err) {
    if (
      isMemoryError(err, 'FILE_NOT_FOUND') ||
      isMemoryError(err, 'INVALID_PATH') ||
      isMemoryError(err, 'PATH_ESCAPE')
    ) {
      throw protocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 200)} (${err.code})`);
    }
    throw err;
  }
}

/** Subscriptions, and the watcher that serves them while there are any. */
class Subscriptions {
  private readonly uris = new Map<string, string>();
  private watcher: MemoryWatcher | undefined;

  constructor(
    private readonly memory: Memory,
    private readonly server: Server,
  ) {}

  add(uri: string): void {
    this.uris.set(uri, pathOfUri(this.memory, uri));
    if (this.watcher) return;
    // Not persistent: a forgotten subscription never keeps the server alive after its input ends.
    this.watcher = this.memory.watch({ persistent: false });
    this.watcher.on('memory_updated', (e: { affected_paths: string[] }) => {
      const changed = new Set(e.affected_paths);
      for (const [u, path] of this.uris) {
        if (changed.has(path)) this.server.sendResourceUpdated({ uri: u }).catch(() => undefined);
      }
    });
    this.watcher.on('error', () => undefined); // the watcher looks again on its next poll
  }

  remove(uri: string): void {
    this.uris.delete(uri);
    if (this.uris.size === 0) this.close();
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}

/**
 * Serves the resource requests on `server`; returns what stops the watcher.
 * @example const stop = serveResources(server, memory); server.onclose = stop
 */
export function serveResources(server: Server, memory: Memory): () => void {
  const subs = new Subscriptions(memory, server);
  server.setRequestHandler(ListResourcesRequestSchema, (req) => listPage(memory, req.params?.cursor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: `gitmem://${agentSegment(memory)}/{+path}`,
        name: 'memory file',
        description: 'A committed memory file (HEAD); subscribe to be told when it changes.',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (req) => readResource(memory, req.params.uri));
  server.setRequestHandler(SubscribeRequestSchema, async (req) => (subs.add(req.params.uri), {}));
  server.setRequestHandler(UnsubscribeRequestSchema, async (req) => (subs.remove(req.params.uri), {}));
  return () => subs.close();
}
