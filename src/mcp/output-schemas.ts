/**
 * The output schemas the MCP tools list: what `structuredContent` holds. A refusal is an `isError` result
 * whose structuredContent is the error (`{ code, message, data }`), so every schema admits that shape too
 * (clients validate whatever structuredContent they get). Plain data.
 */
const str = { type: 'string' } as const;
const strings = { type: 'array', items: str } as const;

const ERROR = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: str, message: str, data: { type: 'object' } },
} as const;

/** An object schema with these properties (all required unless listed optional), or the error shape. */
function output(properties: Record<string, unknown>, optional: readonly string[] = []) {
  const required = Object.keys(properties).filter((k) => !optional.includes(k));
  return { type: 'object', properties, anyOf: [{ required }, ERROR] } as const;
}

const WRITER = { type: 'string', enum: ['agent', 'worker', 'reflection', 'shell', 'sync'] } as const;

export const OUTPUT_SCHEMAS = {
  write: output({ commit: str, paths: strings, message: str, view: str }, ['view']),
  tree: output({ tree: str }),
  log: output({
    entries: {
      type: 'array',
      items: {
        type: 'object',
        required: ['sha', 'date', 'author', 'reason', 'files'],
        properties: { sha: str, date: str, author: str, email: str, reason: str, files: strings },
      },
    },
  }),
  prompt: output({ prompt: str }),
  view: output({
    text: str,
    commit: str,
    path: str,
    kind: { type: 'string', enum: ['file', 'directory'] },
    truncated: { type: 'boolean' },
  }),
  history: output({
    entries: {
      type: 'array',
      items: {
        type: 'object',
        required: ['sha', 'date', 'author', 'writer', 'reason', 'files'],
        properties: {
          sha: str,
          date: str,
          author: str,
          email: str,
          writer: WRITER,
          reason: str,
          parents: strings,
          files: {
            type: 'array',
            items: {
              type: 'object',
              required: ['status', 'path'],
              properties: { status: str, path: str, oldPath: str },
            },
          },
        },
      },
    },
  }),
} as const;

/** Hints for a tool that only reads committed memory. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
/**
 * Hints for a tool that writes: one tool with several commands (create … delete, and view) gets the
 * hints of its most dangerous command — it can delete files, so it is destructive; calls are not
 * idempotent (each one is a commit). Every write stays in the git history and can be reverted.
 */
export const WRITES = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
} as const;
