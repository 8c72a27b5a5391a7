/**
 * A fake Anthropic Messages API (`/v1/messages`) on 127.0.0.1 for the README's harness examples: the first
 * request gets a `memory` tool call, a request carrying a tool result gets the answer "Noted.". The native
 * memory tool (`memory_20250818`, gitmem/anthropic) gets that tool's input; any other tool list (gitmem/ai-sdk's
 * `memory` tool) gets gitmem's own.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_TOOL_INPUT = {
  anthropic: { command: 'create', path: '/memories/drinks.md', file_text: '# Drinks\ngreen tea\n' },
  'ai-sdk': {
    command: 'create',
    reason: 'the user likes green tea',
    file_path: 'notes/tea.md',
    description: 'Drinks',
    file_text: 'green tea\n',
  },
};

function fakeMessagesApi(systems: string[]): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const r = JSON.parse(body) as {
        system?: unknown;
        tools?: Array<{ type?: string }>;
        messages: Array<{ content: unknown }>;
      };
      systems.push(JSON.stringify(r.system ?? ''));
      const answered = JSON.stringify(r.messages).includes('"tool_result"');
      const native = (r.tools ?? []).some((t) => t.type === 'memory_20250818');
      const content = answered
        ? [{ type: 'text', text: 'Noted.' }]
        : [
            {
              type: 'tool_use',
              id: 'toolu_1',
              name: 'memory',
              input: FAKE_TOOL_INPUT[native ? 'anthropic' : 'ai-sdk'],
            },
          ];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content,
          stop_reason: answered ? 'end_turn' : 'tool_use',
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
      );
    });
  });
}

/** Starts the fake; `baseURL` is what ANTHROPIC_BASE_URL takes; `systems` the `system` of every request, as JSON. */
export async function startFakeAnthropic(): Promise<{
  baseURL: string;
  systems: string[];
  close: () => Promise<void>;
}> {
  const systems: string[] = [];
  const server = fakeMessagesApi(systems);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return { baseURL: `http://127.0.0.1:${port}`, systems, close: () => new Promise((r) => server.close(() => r())) };
}
