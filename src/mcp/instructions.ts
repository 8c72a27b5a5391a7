/** What the server tells a client's model about using it (the MCP `instructions`). */
import { writeCommandList } from '../internals.js';

/** The instructions, plain text; the memory tool's commands come from the one list (blocks/memory-commands.ts). */
export const SERVER_INSTRUCTIONS = [
  "gitmem serves one agent's memory: a git repository of markdown files, each with a `description` in its frontmatter.",
  "Read memory when a file's description bears on the task; write it when you learn something that should outlast the",
  'session (a preference or correction from the user, a fact about the project, a decision and why).',
  'Files under system/ are the system prompt (the `system_prompt` prompt, or the memory_prompt tool); everything else',
  'is listed by path and description and read on demand.',
  'Read: memory_view (a directory two levels deep with sizes and descriptions, or a file with line numbers; `at` reads',
  'an older revision: a sha, HEAD~3 or a date), memory_tree, memory_history (who changed what, when and why; one path',
  'follows renames), memory_search (ranked full-text hits with path and line; `at` searches an older revision), and',
  'the resources gitmem://<agent>/<path> (subscribe to be told when a file changes).',
  `Write: the memory tool (${writeCommandList()}; view reads) and`,
  'memory_apply_patch for several files at once. Every write is one commit whose message is your `reason`: say why.',
  'Reads see committed memory only. Writes are checked against the memory rules (frontmatter with a description,',
  'read_only files, path rules); a refusal is an error result starting with its code (e.g. FILE_NOT_FOUND,',
  'VALIDATION_FAILED) — fix the call and retry.',
].join('\n');
