/**
 * Claude Code's auto memory kept in a gitmem checkout (`connect claude-code --auto-memory`): the pure part of
 * the PreToolUse / PostToolUse hooks. Which tool call touches the memory folder, the file text it would leave
 * (Write's content; Edit's and MultiEdit's replacements applied to the current text, as Claude Code applies
 * them), the commit reason taken from the call, and the deny answer Claude Code shows the model. The tool
 * input is the model's output: every field is checked, a path is resolved lexically and must stay inside.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** The tools whose writes the hooks judge (the settings' matcher). */
export const WRITE_TOOLS = ['Write', 'Edit', 'MultiEdit'] as const;
export const WRITE_TOOL_MATCHER = WRITE_TOOLS.join('|');

/** One replacement of Edit / MultiEdit. */
interface Replacement {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

/** A write the hooks judge: the memory-relative path and what the tool does to it. */
export type ToolWrite =
  | { tool: 'Write'; path: string; content: string }
  | { tool: 'Edit' | 'MultiEdit'; path: string; edits: readonly Replacement[] };

/** The model's stated intent, where the harness gives one (Claude Code's tools carry no such field today). */
const INTENT_FIELDS = ['description', 'reason', 'intent'] as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function replacement(v: unknown): Replacement | undefined {
  if (!isRecord(v) || typeof v['old_string'] !== 'string' || typeof v['new_string'] !== 'string') return undefined;
  return { oldString: v['old_string'], newString: v['new_string'], replaceAll: v['replace_all'] === true };
}

/**
 * The memory-relative path of `filePath` when it lies inside `memoryDir` (never `.git` or above), else undefined.
 * @example relativeInside('/m', '/m/topic.md') === 'topic.md'
 */
export function relativeInside(memoryDir: string, filePath: unknown): string | undefined {
  if (typeof filePath !== 'string' || filePath === '' || filePath.includes('\0') || !isAbsolute(filePath))
    return undefined;
  const rel = relative(resolve(memoryDir), resolve(filePath));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  const parts = rel.split(sep);
  return parts.some((p) => p.toLowerCase() === '.git') ? undefined : parts.join('/');
}

/**
 * The write a tool call makes inside `memoryDir`; undefined for another tool, a path outside, or an input
 * that is not the tool's shape (Claude Code rejects that itself).
 */
export function toolWrite(memoryDir: string, toolName: unknown, input: unknown): ToolWrite | undefined {
  if (!isRecord(input)) return undefined;
  const path = relativeInside(memoryDir, input['file_path']);
  if (path === undefined) return undefined;
  if (toolName === 'Write')
    return typeof input['content'] === 'string' ? { tool: 'Write', path, content: input['content'] } : undefined;
  if (toolName === 'Edit') {
    const one = replacement(input);
    return one ? { tool: 'Edit', path, edits: [one] } : undefined;
  }
  if (toolName === 'MultiEdit' && Array.isArray(input['edits'])) {
    const edits = input['edits'].map(replacement);
    return edits.every((e) => e !== undefined) ? { tool: 'MultiEdit', path, edits: edits as Replacement[] } : undefined;
  }
  return undefined;
}

/**
 * The text the write leaves, given the file's current text (undefined: no file); undefined when an edit's
 * `old_string` is not found (the tool fails on its own then, and writes nothing).
 * @example resultingText({ tool: 'Edit', path: 'a.md', edits: [{ oldString: 'x', newString: 'y', replaceAll: false }] }, 'x x') === 'y x'
 */
export function resultingText(write: ToolWrite, current: string | undefined): string | undefined {
  if (write.tool === 'Write') return write.content;
  let text = current ?? '';
  for (const e of write.edits) {
    if (e.oldString === '') {
      // Claude Code's Edit with an empty old_string creates the file with new_string.
      if (current !== undefined && current !== '') return undefined;
      text = e.newString;
      continue;
    }
    if (!text.includes(e.oldString)) return undefined;
    text = e.replaceAll ? text.split(e.oldString).join(e.newString) : text.replace(e.oldString, () => e.newString);
  }
  return text;
}

/** The model's stated intent in the tool input, one line, at most 200 characters. */
function intentOf(input: unknown): string | undefined {
  if (!isRecord(input)) return undefined;
  for (const field of INTENT_FIELDS) {
    const v = input[field];
    if (typeof v === 'string' && v.trim() !== '') return v.replace(/\s+/g, ' ').trim().slice(0, 200);
  }
  return undefined;
}

/**
 * The commit message of a write Claude Code made: the tool, the path, and the model's intent when given.
 * @example commitReason({ tool: 'Write', path: 'a.md', content: '' }, {}) === 'Claude Code Write a.md'
 */
export function commitReason(write: ToolWrite, input: unknown): string {
  const intent = intentOf(input);
  return `Claude Code ${write.tool} ${write.path}${intent === undefined ? '' : `: ${intent}`}`;
}

/** The reason of the commit the session start makes for changes no PostToolUse hook committed. */
export function strayReason(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).join(', ') + (paths.length > 5 ? `, and ${paths.length - 5} more` : '');
  return `Changes made while the gitmem hooks did not run (a crash or a disabled hook), committed at the next session start: ${shown}`;
}

/**
 * Claude Code's PreToolUse answer that blocks the call; the reason reaches the model as the tool's result.
 * @example JSON.parse(denyOutput('x')).hookSpecificOutput.permissionDecision === 'deny'
 */
export function denyOutput(reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  });
}
