/**
 * A launcher that starts children through small resident shells instead of forking Node.
 *
 * Why: `spawn` forks the calling process, and a fork copies its page tables. In a long-lived Node process
 * (the CLI daemon, ~60 MB) that blocks the main thread ~3 ms per git call — more than git itself needs
 * for a small write. A shell is a few hundred kB and forks in microseconds. Each shell runs one child at
 * a time: the child's output goes to files in a private directory, and the shell reports the child's pid
 * (for timeouts and abort) and its exit status on a line of its own. Anything this cannot express
 * exactly (no POSIX shell, relative PATH entries, an environment name a shell cannot assign on a system with no
 * `env` utility) goes to
 * `runProcess` instead; input held for later and output that must stop its child are streamed
 * (shell-streamed.ts) from a shell tied to this process (shell-helper.ts). Each shell leads its own session and
 * process group and runs one child at a time, so that group is the child and every helper it started (git's
 * remote helpers): a timeout or abort signals the whole group, shell included, and the shell is replaced. No
 * `setsid` process per child.
 */
import {
  accessSync,
  closeSync,
  constants as fsConstants,
  existsSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { ensurePrivateDir, gitmemRuntimeDir, scratchPrefix, sweepDeadScratch } from './runtime-dir.js';
import { runProcess, type Launcher, type ProcessOptions, type ProcessResult } from './run.js';
import { commandPrefix, Helper, SHELL, sentSignalOf, shellQuote as quote, tie } from './shell-helper.js';
import { fifoStock, runStreamedInShell } from './shell-streamed.js';
import { fastPathOpen } from '../fast-paths.js';

const DEFAULT_MAX_SHELLS = 4;

export interface ShellLauncher {
  launch: Launcher;
  /** Stops the shells and removes the scratch directory. */
  close(): void;
}

/** Resolves `cmd` on `PATH` the way exec would; undefined when not found (or PATH has relative entries). */
function resolveCommand(
  cmd: string,
  path: string | undefined,
  cache: Map<string, string | undefined>,
): string | undefined {
  if (cmd.includes('/')) return isAbsolute(cmd) ? cmd : undefined;
  if ((path ?? '').split(delimiter).some((d) => d !== '' && !isAbsolute(d))) return undefined; // relative to the child's cwd
  const key = `${path ?? ''}\0${cmd}`;
  if (cache.has(key)) return cache.get(key);
  let found: string | undefined;
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, cmd), fsConstants.X_OK);
      found = join(dir, cmd);
      break;
    } catch {
      // keep looking
    }
  }
  cache.set(key, found);
  return found;
}

/** At most `max` bytes of a job's output file (then removed), and whether there was more. */
function readCapped(file: string, max: number): { buf: Buffer; truncated: boolean } {
  let out = { buf: Buffer.alloc(0), truncated: false };
  try {
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      const buf = Buffer.allocUnsafe(Math.min(size, max));
      out = { buf: buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)), truncated: size > max };
    } finally {
      closeSync(fd);
    }
  } catch {
    // no output file: no output
  }
  try {
    unlinkSync(file);
  } catch {
    // best effort
  }
  return out;
}

interface RunPlan {
  script: string;
  files: { out: string; err: string; input: string | undefined };
}

function plan(bin: string, args: readonly string[], o: ProcessOptions, scratch: string, n: number): RunPlan {
  const files = {
    out: join(scratch, `${n}.out`),
    err: join(scratch, `${n}.err`),
    input: o.input !== undefined ? join(scratch, `${n}.in`) : undefined,
  };
  const stdin = files.input ? quote(files.input) : '/dev/null';
  const argv = [bin, ...args];
  const command = `${commandPrefix(o.env) ?? ''}${argv.map(quote).join(' ')} <${stdin} >${quote(files.out)} 2>${quote(files.err)}`;
  const script = `if cd -- ${quote(o.cwd)} 2>/dev/null; then unset OLDPWD; ${command} & echo "P $!"; wait $!; echo "X $?"; else echo "C 0"; fi\n`;
  return { script, files };
}

/** The launcher's resident shells: the idle ones, all of them, and taking one (a new one while under the cap). */
function helperPool(maxShells: number) {
  const idle: Helper[] = [];
  const all = new Set<Helper>();
  const onDead = (h: Helper): void => {
    all.delete(h);
    const i = idle.indexOf(h);
    if (i !== -1) idle.splice(i, 1);
  };
  const take = (): Helper | undefined => {
    const h = idle.pop();
    if (h) return h;
    if (all.size >= maxShells) return undefined;
    const fresh = new Helper(onDead);
    all.add(fresh);
    return fresh;
  };
  return { idle, all, onDead, take };
}

/**
 * A launcher for a long-lived process that runs many git commands (the CLI daemon, the MCP server, a
 * harness with a large heap: `createMemory({ launch: l.launch })`). Idle shells do not keep the process
 * alive; `close()` stops them. Children see the given environment plus the shell's PWD/OLDPWD.
 * @example const l = createShellLauncher({ scratchParent: runtimeDir }); await l.launch('git', ['status'], { cwd, env })
 */
export function createShellLauncher(options: {
  scratchParent: string;
  maxShells?: number;
  sweep?: boolean;
}): ShellLauncher {
  if (options.sweep) sweepDeadScratch(options.scratchParent, 'launch');
  const scratch = mkdtempSync(join(options.scratchParent, scratchPrefix('launch')));
  liveScratch.add(scratch);
  const hasShell = existsSync(SHELL);
  const { idle, all, onDead, take } = helperPool(options.maxShells ?? DEFAULT_MAX_SHELLS);
  const pathCache = new Map<string, string | undefined>();
  let counter = 0;
  let closed = false;
  // The next streamed job's FIFOs, made by an idle shell once a streamed job is done (not on its path).
  const stock = fifoStock(
    scratch,
    () => counter++,
    (...a) => launch(...a),
  );
  const launch: Launcher = (cmd, args, o) => {
    const bin = resolveCommand(cmd, o.env['PATH'], pathCache);
    const expressible = bin !== undefined && commandPrefix(o.env) !== undefined;
    // Input held for later and output that must stop its child are streamed (FIFOs), from a tied shell only.
    const streamed = o.heldInput !== undefined || o.killOnOverflow === true;
    // Streamed jobs are a fast path (fast-paths.ts): switched off, they are a plain spawn.
    const helper =
      closed || !expressible || !hasShell || (streamed && (!fastPathOpen('streamedJobs') || !tie()))
        ? undefined
        : take();
    if (!helper) return runProcess(cmd, args, o);
    helper.hold(true);
    helper.sentSignal = undefined;
    const made = streamed ? stock.take() : undefined;
    const n = made ?? counter++;
    const run = streamed
      ? runStreamedInShell(helper, bin as string, args, o, { scratch, n, made: made !== undefined })
      : runInShell(helper, plan(bin as string, args, o, scratch, n), o, cmd);
    return run.finally(() => {
      helper.job = undefined;
      helper.hold(false);
      if (helper.retired && !helper.dead) helper.shell.kill('SIGKILL');
      if (helper.retired) onDead(helper);
      else if (!helper.dead && !closed) idle.push(helper);
      // After the caller has its answer, and only from a shell already running (a spawn would fork this process).
      if (streamed) setImmediate(() => stock.restock(o.env['PATH'], idle.length > 0));
    });
  };
  return {
    launch,
    close(): void {
      closed = true;
      liveScratch.delete(scratch);
      for (const h of all) h.shell.kill('SIGKILL');
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

// This process's launchers' scratch directories: every sandbox hides them (sandbox/host.ts), wherever they are,
// so no confined command reaches another job's FIFOs or output files.
const liveScratch = new Set<string>();

/** The scratch directories of this process's open launchers. */
export function launcherScratchDirs(): string[] {
  return [...liveScratch];
}

let shared: ShellLauncher | undefined;

/**
 * The launcher gitmem starts its children with unless told otherwise (memory.ts wires it into every git
 * runner, the sandbox's runConfined uses it too), one per process: created on first use (its scratch
 * directory in gitmem's private runtime directory, else the system temp dir), its idle shells never keep the
 * process alive, and the shells and the scratch directory go when the process exits. So a git call or a
 * sandbox started from a harness with a large heap costs what it costs from a small one.
 * @example createGitRunner({ env, launch: sharedShellLauncher() })
 */
export function sharedShellLauncher(): Launcher {
  return (cmd, args, o) => {
    if (!shared) {
      // In the runtime directory when it can be private: every sandbox hides it, so no confined command can
      // reach another job's FIFOs or output files even where an operator exposes the temp dir.
      const runtime = gitmemRuntimeDir(process.env);
      const own = runtime !== undefined && ensurePrivateDir(runtime);
      const launcher = createShellLauncher({ scratchParent: own ? runtime : tmpdir(), sweep: own });
      process.once('exit', () => launcher.close());
      shared = launcher;
    }
    return shared.launch(cmd, args, o);
  };
}

function runInShell(helper: Helper, p: RunPlan, o: ProcessOptions, cmd: string): Promise<ProcessResult> {
  return new Promise((resolve) => {
    let [timedOut, aborted] = [false, false];
    const timers: NodeJS.Timeout[] = [];
    const stop = (): void => {
      helper.kill('SIGTERM');
      timers.push(setTimeout(() => helper.kill('SIGKILL'), o.graceMs ?? 2000).unref());
    };
    const onAbort = (): void => ((aborted = true), stop());
    helper.job = {
      done: ({ kind, status }) => {
        timers.forEach(clearTimeout);
        o.signal?.removeEventListener('abort', onAbort);
        if (p.files.input) rmSync(p.files.input, { force: true });
        const max = o.maxBuffer ?? 64 * 1024 * 1024;
        const out = readCapped(p.files.out, max);
        const err = readCapped(p.files.err, max);
        const base = {
          stdoutBuffer: out.buf,
          stdout: out.buf.toString('utf8'),
          stderr: err.buf.toString('utf8'),
          timedOut,
          aborted,
          truncated: out.truncated || err.truncated,
        };
        const sent = helper.sentSignal;
        // The shell died with the group it was told to stop: the child was killed, not unstartable.
        if (kind === 'C' && status === -1 && sent) return resolve({ ...base, exitCode: null, signal: sent });
        if (kind === 'C') {
          const spawnError = Object.assign(
            new Error(status === -1 ? `spawn ${cmd}: the launcher shell exited` : `spawn ${cmd} ENOENT`),
            { code: 'ENOENT' },
          );
          return resolve({ ...base, exitCode: null, signal: null, spawnError });
        }
        const signal = sentSignalOf(status, sent);
        resolve({ ...base, exitCode: signal ? null : status, signal });
      },
    };
    if (p.files.input) writeFileSync(p.files.input, o.input ?? '');
    if (o.timeoutMs !== undefined) timers.push(setTimeout(() => ((timedOut = true), stop()), o.timeoutMs));
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener('abort', onAbort, { once: true });
    helper.write(p.script);
  });
}
