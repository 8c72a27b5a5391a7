/**
 * The change stream: server-sent events, one `memory_updated` per move of main (whoever moved it), fed by
 * the agent's one memory.watch(); a comment every 15 s keeps proxies and the browser from closing it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isMemoryError } from '../index.js';
import type { PalaceHub } from './hub.js';
import { securityHeaders } from './security.js';

const KEEPALIVE_MS = 15_000;

export async function openEvents(
  hub: PalaceHub,
  req: IncomingMessage,
  res: ServerResponse,
  agent: string,
): Promise<void> {
  let view;
  try {
    view = await hub.agent(agent);
  } catch (err) {
    res.writeHead(isMemoryError(err) ? 404 : 500, { ...securityHeaders(), 'Content-Type': 'text/plain' });
    return void res.end('no such agent');
  }
  res.writeHead(200, {
    ...securityHeaders(),
    'Content-Type': 'text/event-stream; charset=utf-8',
    Connection: 'keep-alive',
  });
  const unsubscribe = view.subscribe((e) => res.write(`event: memory_updated\ndata: ${JSON.stringify(e)}\n\n`));
  await view.watching();
  res.write(`retry: 1000\nevent: ready\ndata: ${JSON.stringify({ agent, head: await view.head() })}\n\n`);
  const timer = setInterval(() => res.write(': keep-alive\n\n'), KEEPALIVE_MS);
  const stop = (): void => {
    clearInterval(timer);
    unsubscribe();
  };
  req.on('close', stop);
  res.on('error', stop);
}
