/**
 * The sub-agent's tools as AI SDK tool definitions: read_file, list_dir, grep, edit_file, write_file (all
 * confined to the root) and, when the caller provides a sandboxed runner, shell. Failures are returned to
 * the model as text so it can correct itself; they never end the run.
 */
import type { ToolSet } from 'ai';
import { isMemoryError } from '../errors.js';
import { editFileIn, grepIn, listDirIn, readFileIn, writeFileIn } from './fs-tools.js';

/** Runs one shell command inside the sandbox (provided by the caller; see src/sandbox). */
export type ShellRunner = (
  command: string,
  opts: { cwd: string; signal: AbortSignal; timeoutMs: number },
) => Promise<{ exitCode: number | null; stdout: string; stderr: string }>;

/** Options of {@link buildToolSet}. */
export interface ToolSetOptions {
  root: string;
  shell?: ShellRunner;
  /** Aborts running shell commands when the run stops. */
  signal: AbortSignal;
  /** Per-command limit for the shell tool. */
  shellTimeoutMs?: number;
}

const SHELL_OUTPUT_CAP = 20_000;

function safely(run: () => string): string {
  try {
    return run();
  } catch (err) {
    if (isMemoryError(err)) return `Error [${err.code}]: ${err.message}`;
    return `Error: ${err instanceof Error ? err.message : String(err)}`;
  }
}

function clip(text: string): string {
  return text.length <= SHELL_OUTPUT_CAP ? text : `${text.slice(0, SHELL_OUTPUT_CAP)}\n[output truncated]`;
}

async function runShell(o: ToolSetOptions, shell: ShellRunner, command: string): Promise<string> {
  try {
    const r = await shell(command, { cwd: o.root, signal: o.signal, timeoutMs: o.shellTimeoutMs ?? 60_000 });
    return clip(`exit code: ${r.exitCode ?? 'killed'}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  } catch (err) {
    return `Error: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * Builds the tool set; `ai` and `zod` are imported here, lazily.
 * @example const tools = await buildToolSet({ root: worktreeDir, signal: controller.signal })
 */
export async function buildToolSet(o: ToolSetOptions): Promise<ToolSet> {
  const [{ tool }, { z }] = await Promise.all([import('ai'), import('zod')]);
  const root = o.root;
  const tools: ToolSet = {
    read_file: tool({
      description:
        'Read a text file in the memory directory. Paths are relative to it. Optional 1-based line offset and line limit.',
      inputSchema: z.object({
        path: z.string(),
        offset: z.number().int().optional(),
        limit: z.number().int().optional(),
      }),
      execute: async (a) => safely(() => readFileIn(root, a)),
    }),
    list_dir: tool({
      description:
        'List files and folders (recursively) under a directory of the memory directory; folders end with /.',
      inputSchema: z.object({ path: z.string().optional(), depth: z.number().int().optional() }),
      execute: async (a) => safely(() => listDirIn(root, a)),
    }),
    grep: tool({
      description: 'Search file contents with a regular expression; prints path:line: text.',
      inputSchema: z.object({ pattern: z.string(), path: z.string().optional(), ignoreCase: z.boolean().optional() }),
      execute: async (a) => safely(() => grepIn(root, a)),
    }),
    edit_file: tool({
      description:
        'Replace an exact string in an existing file. old_string must occur exactly once unless replace_all is true.',
      inputSchema: z.object({
        path: z.string(),
        old_string: z.string(),
        new_string: z.string(),
        replace_all: z.boolean().optional(),
      }),
      execute: async (a) => safely(() => editFileIn(root, a)),
    }),
    write_file: tool({
      description: 'Create a new file or overwrite one completely (prefer edit_file for existing files).',
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      execute: async (a) => safely(() => writeFileIn(root, a)),
    }),
  };
  const shell = o.shell;
  if (shell) {
    tools['shell'] = tool({
      description: 'Run a shell command in the memory directory (sandboxed; e.g. git add/commit, wc, ls).',
      inputSchema: z.object({ command: z.string() }),
      execute: async (a) => runShell(o, shell, a.command),
    });
  }
  return tools;
}
