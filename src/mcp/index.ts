/**
 * `gitmem/mcp`: gitmem's MCP server for a harness — the configured SDK server for one agent's memory
 * (connect it to any transport), and a ready Streamable HTTP server for one or many agents.
 */
export { createMcpServer, serveMemory } from './server.js';
export { startMcpHttpServer, type McpHttpOptions, type McpHttpServer } from './http.js';
export { generateToken, readTokenFile } from './http-token.js';
export { LineStdioTransport, MAX_LINE_BYTES } from './stdio-transport.js';
