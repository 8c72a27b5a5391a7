/**
 * A launcher shell's job whose output is streamed as it comes and whose fd 3 is held until released: what a
 * confined command needs (its output cap stops it; the sandbox's gate waits on fd 3), run from a resident
 * shell so that starting it costs the same from any size of caller.
 *
 * The shell makes three FIFOs in the launcher's private directory and opens its ends; this process opens the
 * other ends, the names are removed, and the child gets them as fds 1, 2 and 3 (the shell keeps no copy, so
 * the streams end when the child and everything it started are gone). A shell without `mkfifo`, or one that
 * dies before the child starts, leaves the job to a plain spawn.
 */
import { closeSync, constants as fsConstants, fstatSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { Collector, runProcess, type Launcher, type ProcessOptions, type ProcessResult } from './run.js';
import { commandPrefix, sentSignalOf, shellQuote as quote, type Job } from './shell-helper.js';

/** What a streamed job needs of its shell (shell-helper.ts's Helper). */
export interface StreamingShell {
  job: Job | undefined;
  sentSignal: NodeJS.Signals | undefined;
  kill(sig: NodeJS.Signals): void;
  write(script: string): void;
}

interface Fifos {
  held: string;
  out: string;
  err: string;
  input: string | undefined;
}

/** The names of job `n`'s FIFOs (fd 3, stdout, stderr), as `mkfifo` arguments. */
export const fifoNames = (scratch: string, n: number): [string, string, string] => [
  join(scratch, `${n}.h`),
  join(scratch, `${n}.o`),
  join(scratch, `${n}.e`),
];

/**
 * The shell text of one streamed job; `F` (FIFOs there), `R` (opened), `N` (cannot make them) are its own
 * lines. `made`: the FIFOs were made ahead (off the job's path), so the shell only opens them.
 */
export function streamedScript(
  bin: string,
  args: readonly string[],
  o: ProcessOptions,
  f: Fifos,
  made = false,
): string {
  const stdin = f.input ? quote(f.input) : '/dev/null';
  const child = `${commandPrefix(o.env) ?? ''}${[bin, ...args].map(quote).join(' ')} <${stdin} >&7 2>&8 3<&9 7>&- 8>&- 9<&-`;
  const [h, out, err] = [quote(f.held), quote(f.out), quote(f.err)];
  const run = `echo F; exec 7>${out} 8>${err} 9<${h}; echo R; ${child} & echo "P $!"; exec 7>&- 8>&- 9<&-; wait $!; echo "X $?"`;
  const body = made ? run : `if mkfifo -m 600 -- ${h} ${out} ${err} 2>/dev/null; then ${run}; else echo N; fi`;
  return `if cd -- ${quote(o.cwd)} 2>/dev/null; then unset OLDPWD; ${body}; else echo "C 0"; fi\n`;
}

/**
 * Opens this process's ends: reading ends for the output, a writing end for fd 3 (O_RDWR never blocks on a
 * FIFO). Undefined when one cannot be opened as a FIFO (the shell is then stopped and the job spawned).
 */
function openEnds(f: Fifos): { out: number; err: number; held: number } | undefined {
  const read = fsConstants.O_RDONLY | fsConstants.O_NONBLOCK;
  const opened: number[] = [];
  try {
    for (const [path, flags] of [
      [f.out, read],
      [f.err, read],
      [f.held, fsConstants.O_RDWR | fsConstants.O_NONBLOCK],
    ] as const) {
      const fd = openSync(path, flags | fsConstants.O_NOFOLLOW);
      opened.push(fd);
      if (!fstatSync(fd).isFIFO()) throw new Error(`${path} is not a FIFO`);
    }
    const [out, err, held] = opened as [number, number, number];
    return { out, err, held };
  } catch {
    opened.forEach((fd) => closeSync(fd));
    return undefined;
  }
}

/**
 * Runs one job in `shell` with streamed output; resolves as `runProcess` would (never rejects).
 * @example await runStreamedInShell(helper, '/usr/bin/bwrap', args, opts, { scratch, n: 7, made: false })
 */
export function runStreamedInShell(
  shell: StreamingShell,
  bin: string,
  args: readonly string[],
  o: ProcessOptions,
  job: { scratch: string; n: number; made: boolean },
): Promise<ProcessResult> {
  const [held, out, err] = fifoNames(job.scratch, job.n);
  const f: Fifos = { held, out, err, input: o.input !== undefined ? join(job.scratch, `${job.n}.in`) : undefined };
  return new Promise<ProcessResult | 'spawn'>((resolve) =>
    new StreamedJob(shell, o, f, resolve).start(streamedScript(bin, args, o, f, job.made)),
  ).then((r) => (r === 'spawn' ? runProcess(bin, args, o) : r));
}

/** One streamed job's state: the three streams (stdout, stderr, the exit line) it waits for, and how it stops. */
class StreamedJob {
  private readonly out: Collector;
  private readonly err: Collector;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly stop: () => void;
  private readonly onAbort = (): void => ((this.aborted = true), this.stop());
  private timedOut = false;
  private aborted = false;
  private started = false;
  private pending = 3;
  private ends: { out: number; err: number; held: number } | undefined;
  private heldEnd: Socket | undefined;
  private exit: { kind: 'X' | 'C'; status: number } | undefined;
  private settled = false;

  constructor(
    private readonly shell: StreamingShell,
    private readonly o: ProcessOptions,
    private readonly f: Fifos,
    private readonly resolve: (r: ProcessResult | 'spawn') => void,
  ) {
    const max = o.maxBuffer ?? 64 * 1024 * 1024;
    [this.out, this.err] = [new Collector(max), new Collector(max)];
    this.stop = stopper(shell, o.graceMs, this.timers, () => this.settle());
  }

  start(script: string): void {
    const mine = {
      done: (line: { kind: 'X' | 'C'; status: number }) => this.done(line),
      onLine: (kind: string) => this.line(kind),
    };
    this.shell.job = mine;
    this.o.heldInput?.catch(() => undefined); // handled once the child runs (hold); no unhandled rejection meanwhile
    if (this.f.input) writeFileSync(this.f.input, this.o.input ?? '');
    if (this.o.timeoutMs !== undefined)
      this.timers.push(setTimeout(() => ((this.timedOut = true), this.stop()), this.o.timeoutMs));
    if (this.o.signal?.aborted) this.onAbort();
    else this.o.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.shell.write(script);
  }

  private line(kind: string): void {
    if (this.exit) return;
    if (kind === 'N') return this.done({ kind: 'C', status: 0 });
    if (kind === 'F') this.ends = openEnds(this.f) ?? (this.shell.kill('SIGKILL'), undefined);
    if (kind !== 'R' || !this.ends) return;
    this.started = true;
    // The child opens its stdin file after this line: that name goes at the end, the FIFOs' now.
    [this.f.held, this.f.out, this.f.err].forEach((p) => rmSync(p, { force: true }));
    this.stream(this.ends.out, this.out);
    this.stream(this.ends.err, this.err);
    const job = this.shell.job;
    // Only this job's child is killed: once it is done, its shell may be running another one.
    this.heldEnd = hold(
      this.ends.held,
      this.o.heldInput,
      () => void (this.shell.job === job && !this.exit && this.shell.kill('SIGKILL')),
    );
  }

  private done(line: { kind: 'X' | 'C'; status: number }): void {
    if (this.exit) return; // the first answer stands (a shell that dies after its X line says nothing new)
    this.exit = line;
    if (this.started) return this.ended();
    for (const fd of this.ends ? [this.ends.out, this.ends.err, this.ends.held] : []) closeSync(fd);
    this.ends = undefined;
    this.settle();
  }

  private stream(fd: number, into: Collector): void {
    const s = new Socket({ fd, readable: true, writable: false });
    s.on('data', (c: Buffer) => (into.add(c), this.o.killOnOverflow && into.truncated && this.stop()));
    s.on('error', () => undefined);
    s.on('close', () => this.ended());
  }

  private ended(): void {
    if (--this.pending === 0) this.settle();
  }

  private settle(): void {
    if (!this.exit || this.settled) return;
    this.settled = true;
    this.timers.forEach(clearTimeout);
    this.o.signal?.removeEventListener('abort', this.onAbort);
    this.heldEnd?.destroy();
    [this.f.held, this.f.out, this.f.err, this.f.input].forEach((p) => p && rmSync(p, { force: true }));
    const stopped = this.timedOut || this.aborted;
    // Never started: a plain spawn runs it instead, unless it was already timed out or cancelled.
    if (!this.started && !stopped) return this.resolve('spawn');
    const exit = this.started ? this.exit : { kind: 'C' as const, status: -1 };
    this.resolve(
      result(exit, this.shell.sentSignal ?? (this.started ? undefined : 'SIGTERM'), {
        out: this.out,
        err: this.err,
        timedOut: this.timedOut,
        aborted: this.aborted,
      }),
    );
  }
}

/** SIGTERM, then SIGKILL after the grace; 200 ms later an answer even if a helper that escaped the group holds the streams. */
function stopper(
  shell: StreamingShell,
  graceMs: number | undefined,
  timers: NodeJS.Timeout[],
  settle: () => void,
): () => void {
  let stopping = false;
  return () => {
    if (stopping) return;
    stopping = true;
    shell.kill('SIGTERM');
    const kill = (): void => {
      shell.kill('SIGKILL');
      timers.push(setTimeout(settle, 200).unref());
    };
    timers.push(setTimeout(kill, graceMs ?? 2000).unref());
  };
}

/** fd 3's text once `held` settles (then its end is closed); a rejection kills the child, never releasing it. */
function hold(fd: number, held: Promise<string> | undefined, kill: () => void): Socket {
  const s = new Socket({ fd, readable: false, writable: true });
  s.on('error', () => undefined);
  if (!held) return s.end();
  held.then(
    (text) => void (s.destroyed || s.end(text)),
    () => (kill(), s.destroy()),
  );
  return s;
}

function result(
  exit: { kind: 'X' | 'C'; status: number },
  sent: NodeJS.Signals | undefined,
  r: { out: Collector; err: Collector; timedOut: boolean; aborted: boolean },
): ProcessResult {
  const stdoutBuffer = r.out.buffer();
  const base = {
    stdoutBuffer,
    stdout: stdoutBuffer.toString('utf8'),
    stderr: r.err.buffer().toString('utf8'),
    timedOut: r.timedOut,
    aborted: r.aborted,
    truncated: r.out.truncated || r.err.truncated,
  };
  if (exit.kind === 'C') return { ...base, exitCode: null, signal: sent ?? 'SIGKILL' };
  const signal = sentSignalOf(exit.status, sent);
  return { ...base, exitCode: signal ? null : exit.status, signal };
}

/** Streamed jobs whose FIFOs one restock makes ahead. */
const SETS_AHEAD = 8;

/**
 * FIFO sets made ahead, each handed out once (every job still gets fresh FIFOs); `take` hands out only sets
 * already made, and a failing `mkfifo` stops the stock.
 */
export function fifoStock(
  scratch: string,
  next: () => number,
  launch: Launcher,
): { take(): number | undefined; restock(path: string | undefined, shellFree: boolean): void } {
  const ready: number[] = [];
  let making = false;
  let broken = false;
  return {
    take() {
      return ready.shift();
    },
    restock(path, shellFree) {
      if (ready.length > 0 || making || broken || !shellFree) return;
      // Several jobs' FIFOs in one mkfifo: a process start costs about a millisecond here, beside the caller's work.
      const sets = Array.from({ length: SETS_AHEAD }, () => next());
      making = true;
      void launch('mkfifo', ['-m', '600', '--', ...sets.flatMap((n) => fifoNames(scratch, n))], {
        cwd: scratch,
        env: path === undefined ? {} : { PATH: path },
      }).then((r) => {
        making = false;
        if (r.exitCode === 0) ready.push(...sets);
        else broken = true;
      });
    },
  };
}
