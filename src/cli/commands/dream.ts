/**
 * `gitmem dream`: run one reflection by hand or from a script, over a stored conversation or an external
 * transcript, optionally maintaining a document such as AGENTS.md through memory. Thin: validation and
 * printing; the work is runDream. Progress goes to stderr (a spinner only on a TTY).
 */
import {
  dreamExitCode,
  MemoryError,
  MODEL_SPEC_FORMS,
  runDream,
  SOURCE_FORMS,
  type DreamResult,
} from '../../internals.js';
import type { CliCommand, CliContext } from '../types.js';

const USAGE = `
Usage: gitmem dream [--memory <agent-id>] [--from <source>] [--to <path>] [-i <text>] [-m <provider:model>]
                    [--timeout <seconds>] [--dry-run] [--merge auto|explicit] [--json]
       gitmem dream --recent <n> | --conversation <id|source>... | --auto [options above but --from]

Reviews what happened in a conversation and rewrites the agent's memory in a private worktree, then merges
the sub-agent's commits (each message is its reason, with a Reviewed-Transcript trailer).
  --memory <id>     agent whose memory to refine (default: --agent, GITMEM_AGENT_ID, AGENT_ID)
  --from <source>   a conversation id (default "default"), or a file another harness wrote:
${SOURCE_FORMS.map((f) => `                      ${f}`).join('\n')}
                    (transcript: takes gitmem rows or OpenAI / AI SDK messages, {"role", "content"})
  --recent <n>      reflect over the n most recently written conversations at once (one manifest)
  --conversation X  reflect over X (repeatable): a conversation id or a source as for --from
  --auto            a selector model picks up to 5 conversations from a scored catalogue
  --to <path>       maintain a document (e.g. ./AGENTS.md) through memory at system/<basename>; it is written
                    back only from the committed, merged result
  -i, --instruction extra instruction for this run
  -m, --model       ${MODEL_SPEC_FORMS.join(', ')}; else GITMEM_MODEL
                    or "model" in $GITMEM_HOME/config
  --timeout <s>     give up after this many seconds (default 1500); the run is stopped and cleaned up
  --dry-run         print the diff the dream would merge; merge nothing, keep the transcript unreflected
  --merge <mode>    auto (merge here) or explicit (keep the branch for review; see gitmem conflicts)
  --prompt, --system  replace the task message / the system prompt
Exit codes: 0 merged, no changes needed, nothing new since the last reflection, or dry run done;
1 anything else (bad arguments, no model, source error, parent dirty, conflict, failure, timeout, --to write
error); 2 internal error. --json prints one line (see docs/background.md, "Reflection and gitmem dream").
`;

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

function progress(ctx: CliContext): { line: (text: string) => void; stop: () => void } {
  const tty = process.stderr.isTTY === true && !ctx.json;
  let current = '';
  let frame = 0;
  const timer = tty
    ? setInterval(() => process.stderr.write(`\r${FRAMES[frame++ % FRAMES.length]} ${current}\u001b[K`), 100)
    : undefined;
  timer?.unref();
  return {
    line: (text) => {
      if (tty) process.stderr.write(`\r\u001b[K`);
      ctx.stderr(text);
      current = text;
    },
    stop: () => {
      if (timer) clearInterval(timer);
      if (tty) process.stderr.write('\r\u001b[K');
    },
  };
}

function str(ctx: CliContext, key: string): string | undefined {
  const v = ctx.values[key];
  return typeof v === 'string' ? v : undefined;
}

function list(ctx: CliContext, key: string): string[] | undefined {
  const v = ctx.values[key];
  return Array.isArray(v) && v.length > 0 ? v.filter((x): x is string => typeof x === 'string') : undefined;
}

/** The error convention: one `gitmem: CODE: message` line first, details after it. */
function printError(ctx: CliContext, e: { code: string; message: string }, details: string[] = []): void {
  ctx.stderr([`gitmem: ${e.code}: ${e.message.split('\n')[0] ?? ''}`, ...details].join('\n'));
}

function printText(ctx: CliContext, r: DreamResult): void {
  if (r.diff !== undefined) ctx.stdout(r.diff.trim() === '' ? '(no changes)' : r.diff);
  if (r.error)
    printError(
      ctx,
      r.error,
      (r.conflictingPaths ?? []).map((path) => `  conflicting: ${path}`),
    );
  else ctx.stdout(r.message);
  for (const s of r.slices ?? []) ctx.stdout(`  ${s.mode}: ${s.conversation_id} lines ${s.lines.from}-${s.lines.to}`);
  if (r.targetWritten) ctx.stdout(`Wrote ${r.targetPath}`);
}

/** A refusal before the run (bad arguments, no model, no sandbox) in the dream's own result shape. */
function refusal(ctx: CliContext, err: MemoryError): number {
  printError(ctx, err);
  if (ctx.json) {
    const agentId = str(ctx, 'memory') ?? ctx.agent;
    const r: DreamResult = {
      launched: false,
      success: false,
      message: err.message,
      agentId: agentId ?? '',
      error: { code: err.code, message: err.message, data: err.data },
    };
    ctx.stdout(JSON.stringify(r));
  }
  return err.code === 'INTERNAL' ? 2 : 1;
}

function mergeMode(ctx: CliContext): 'auto' | 'explicit' | undefined {
  const merge = str(ctx, 'merge');
  if (merge !== undefined && merge !== 'auto' && merge !== 'explicit')
    throw new MemoryError('INVALID_ARGUMENT', `--merge must be auto or explicit, got ${merge}`);
  return merge;
}

async function run(ctx: CliContext): Promise<number> {
  const [extra] = ctx.args;
  if (extra === 'help') return (void ctx.stdout(USAGE.trim()), 0);
  const p = progress(ctx);
  try {
    if (extra !== undefined) throw new MemoryError('INVALID_ARGUMENT', `Unknown argument: ${extra}`);
    return await dream(ctx, p, mergeMode(ctx));
  } catch (err) {
    if (!(err instanceof MemoryError)) throw err;
    p.stop();
    return refusal(ctx, err);
  } finally {
    p.stop();
  }
}

async function dream(
  ctx: CliContext,
  p: ReturnType<typeof progress>,
  merge: 'auto' | 'explicit' | undefined,
): Promise<number> {
  const r = await runDream({
    home: ctx.home,
    env: ctx.env,
    cwd: ctx.cwd,
    onProgress: p.line,
    onWarning: ctx.stderr,
    ...optional({
      agentId: str(ctx, 'memory') ?? ctx.agent,
      from: str(ctx, 'from'),
      recent: str(ctx, 'recent'),
      conversations: list(ctx, 'conversation'),
      to: str(ctx, 'to'),
      instruction: str(ctx, 'instruction'),
      model: str(ctx, 'model'),
      timeoutSeconds: str(ctx, 'timeout'),
      prompt: str(ctx, 'prompt'),
      system: str(ctx, 'system'),
      merge,
    }),
    ...(ctx.values['dry-run'] === true ? { dryRun: true } : {}),
    ...(ctx.values['auto'] === true ? { auto: true } : {}),
  });
  p.stop();
  if (ctx.json) {
    if (r.error) printError(ctx, r.error);
    ctx.stdout(JSON.stringify(r));
  } else printText(ctx, r);
  const code = dreamExitCode(r);
  // A timed-out run was told to stop; if something still holds the event loop, do not hang the caller.
  if (r.timedOut) setTimeout(() => process.exit(code), 10_000).unref();
  return code;
}

function optional<T extends Record<string, unknown>>(o: T): Partial<{ [K in keyof T]: Exclude<T[K], undefined> }> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<{
    [K in keyof T]: Exclude<T[K], undefined>;
  }>;
}

export const command: CliCommand = {
  name: 'dream',
  usage: USAGE,
  run,
};
