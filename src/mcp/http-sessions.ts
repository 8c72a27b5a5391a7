/**
 * The MCP HTTP server's sessions: each its own SDK server (createMcpServer) and Streamable HTTP
 * transport, keyed by the session id the SDK generated and by the agent route it was opened on (a
 * session of one agent is unknown at another agent's URL). A session ends on DELETE, on close(), or
 * after `idleMs` with no request and no open stream; closing its server stops its resource watcher.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Memory } from '../index.js';
import { createMcpServer } from './server.js';

interface Session {
  readonly id: string;
  readonly route: string;
  readonly server: Server;
  readonly transport: StreamableHTTPServerTransport;
  /** Requests (and SSE streams) still open: a session with one is never idle. */
  open: number;
  lastSeen: number;
}

export interface SessionTableOptions {
  idleMs: number;
  maxSessions: number;
  version: string;
  log: (line: string) => void;
  now?: () => number;
}

/**
 * The live sessions of one HTTP server.
 * @example const t = new SessionTable(opts); await t.open('agent:a1', memory, req, res, initMessage)
 */
export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: ReturnType<typeof setInterval>;
  private readonly now: () => number;
  /** Sessions being opened: counted against the limit before their id exists. */
  private pending = 0;

  constructor(private readonly o: SessionTableOptions) {
    this.now = o.now ?? Date.now;
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.min(o.idleMs / 2, 60_000)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Takes a slot for a session about to be opened, or returns false when the table is full. Taken before
   * the memory is opened, so concurrent initialize requests cannot all pass the check; every true is
   * followed by open() or release().
   */
  reserve(): boolean {
    if (this.sessions.size + this.pending >= this.o.maxSessions) return false;
    this.pending += 1;
    return true;
  }

  /** Gives back a slot that reserve() took and open() will not use. */
  release(): void {
    this.pending -= 1;
  }

  /** The session `id` opened on `route`, if it is live. */
  find(id: string, route: string): Session | undefined {
    const s = this.sessions.get(id);
    return s?.route === route ? s : undefined;
  }

  /** Serves one request of a live session. */
  async serve(session: Session, req: IncomingMessage, res: ServerResponse, message?: JSONRPCMessage): Promise<void> {
    session.open += 1;
    session.lastSeen = this.now();
    res.on('close', () => {
      session.open -= 1;
      session.lastSeen = this.now();
    });
    await session.transport.handleRequest(req, res, message);
  }

  /**
   * Opens a session for an initialize request on `route`, in the slot reserve() took; a request the
   * transport refuses leaves nothing behind.
   */
  async open(
    route: string,
    memory: Memory,
    req: IncomingMessage,
    res: ServerResponse,
    message: JSONRPCMessage,
  ): Promise<void> {
    const server = createMcpServer(memory, this.o.version);
    let session: Session | undefined;
    let pending = true;
    const settle = (): void => {
      if (pending) this.release();
      pending = false;
    };
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        settle();
        session = { id, route, server, transport, open: 0, lastSeen: this.now() };
        this.sessions.set(id, session);
        this.o.log(`session ${id.slice(0, 8)} opened (${route})`);
      },
    });
    const stopResources = server.onclose;
    server.onclose = () => {
      stopResources?.();
      if (session && this.sessions.get(session.id) === session) {
        this.sessions.delete(session.id);
        this.o.log(`session ${session.id.slice(0, 8)} closed`);
      }
    };
    server.onerror = (err) => this.o.log(`session ${session?.id.slice(0, 8) ?? '(new)'}: ${err.message}`);
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, message);
    } finally {
      settle();
    }
    if (!session) await server.close(); // the transport refused the request before a session began
  }

  /** Closes sessions idle for longer than `idleMs`. */
  sweep(): void {
    const cutoff = this.now() - this.o.idleMs;
    for (const s of [...this.sessions.values()]) {
      if (s.open <= 0 && s.lastSeen < cutoff) {
        this.o.log(`session ${s.id.slice(0, 8)} idle`);
        void s.server.close();
      }
    }
  }

  /** Closes every session (its streams, its server, its watcher) and stops the idle sweep. */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((s) => s.server.close().catch(() => undefined)));
  }
}
