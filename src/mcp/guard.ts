/**
 * Checks each request's params against the SDK's schema for its method before the SDK sees it. The SDK
 * parses them inside its handlers and answers a mismatch with -32603 (or -32602) carrying the whole
 * validator report; here it is -32602 with the first problem on one line. Methods not in the table go
 * on untouched (the SDK answers an unknown one with -32601).
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { errorReply, firstIssue } from './envelope.js';

type RequestSchema = {
  safeParse(v: unknown): { success: true } | { success: false; error: Parameters<typeof firstIssue>[0] };
};

/** The requests gitmem's server answers, with the schema of each. */
const REQUEST_SCHEMAS: Readonly<Record<string, RequestSchema>> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'resources/subscribe': SubscribeRequestSchema,
  'resources/unsubscribe': UnsubscribeRequestSchema,
  'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema,
};

/**
 * The -32602 answer for a request whose params do not fit its method, or undefined.
 * @example checkRequestParams({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} })?.error.code === -32602
 */
export function checkRequestParams(m: JSONRPCMessage): JSONRPCErrorResponse | undefined {
  if (!('method' in m) || !('id' in m)) return undefined;
  const schema = Object.hasOwn(REQUEST_SCHEMAS, m.method) ? REQUEST_SCHEMAS[m.method] : undefined;
  const parsed = schema?.safeParse({ method: m.method, ...(m.params === undefined ? {} : { params: m.params }) });
  if (!parsed || parsed.success) return undefined;
  return errorReply(m.id, ErrorCode.InvalidParams, `Invalid params for ${m.method}: ${firstIssue(parsed.error).text}`);
}

/**
 * A transport that answers what `check` refuses itself and hands everything else to the server.
 * @example await server.connect(new GuardedTransport(new LineStdioTransport(), checkRequestParams))
 */
export class GuardedTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  constructor(
    private readonly inner: Transport,
    private readonly check: (m: JSONRPCMessage) => JSONRPCErrorResponse | undefined,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      const refusal = this.check(message);
      if (refusal)
        this.inner
          .send(refusal)
          .catch((err: unknown) => this.onerror?.(err instanceof Error ? err : new Error(String(err))));
      else this.onmessage?.(message, extra);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
