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
import { constants as osConstants } from 'node:os';
import { join } from 'node:path';
import { Collector, runProcess, type Launcher, type ProcessOptions, type ProcessResult } from './process.js';

/** What a streamed job needs of its shell (shell-launcher.ts's Helper). */
export interface StreamingShell {
  job: { pid?: number; done: (line: { kind: 'X' | 'C'; status: number }) => void; onLine?: (kind: string) => void } | undefined;
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

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The names of job `n`'s FIFOs (fd 3, stdout, stderr), as `mkfifo` arguments. */
export const fifoNames = (scratch: string, n: number): [string, string, string] => [join(scratch, `${n}.h`), join(scratch, `${n}.o`), join(scratch, `${n}.e`)];

/**
 * The shell text of one streamed job; `F` (FIFOs there), `R` (opened), `N` (cannot make them) are its own
 * lines. `made`: the FIFOs were made ahead (off the job's path), so the shell only opens them.
 */
export function streamedScript(bin: string, args: readonly string[], o: ProcessOptions, f: Fifos, made = false): string {
  const env = Object.entries(o.env).map(([k, v]) => `${k}=${quote(v)}`).join(' ');
  const stdin = f.input ? quote(f.input) : '/dev/null';
  const child = `${env} ${[bin, ...args].map(quote).join(' ')} <${stdin} >&7 2>&8 3<&9 7>&- 8>&- 9<&-`;
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
    for (const [path, flags] of [[f.out, read], [f.err, read], [f.held, fsConstants.O_RDWR | fsConstants.O_NONBLOCK]] as const) {
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
export function runStreamedInShell(shell: StreamingShell, bin: string, args: readonly string[], o: ProcessOptions, job: { scratch: string; n: number; made: boolean }): Promise<ProcessResult> {
  const [held, out0, err0] = fifoNames(job.scratch, job.n);
  const f: Fifos = { held, out: out0, err: err0, input: o.input !== undefined ? join(job.scratch, `${job.n}.in`) : undefined };
  const removeNames = (): void => [f.held, f.out, f.err, f.input].forEach((p) => p && rmSync(p, { force: true }));
  return new Promise<ProcessResult | 'spawn'>((resolve) => {
    const max = o.maxBuffer ?? 64 * 1024 * 1024;
    const [out, err] = [new Collector(max), new Collector(max)];
    let [timedOut, aborted, started, pending] = [false, false, false, 3];
    let ends: { out: number; err: number; held: number } | undefined;
    let exit: { kind: 'X' | 'C'; status: number } | undefined;
    const timers: NodeJS.Timeout[] = [];
    const stop = stopper(shell, o.graceMs, timers, () => settle());
    const onAbort = (): void => ((aborted = true), stop());
    const settle = (): void => {
      if (!exit) return;
      timers.forEach(clearTimeout);
      o.signal?.removeEventListener('abort', onAbort);
      removeNames();
      if (!started) return resolve('spawn');
      resolve(result(exit, shell.sentSignal, { out, err, timedOut, aborted }));
    };
    const ended = (): void => void (--pending === 0 && settle());
    const stream = (fd: number, into: Collector): void => {
      const s = new Socket({ fd, readable: true, writable: false });
      s.on('data', (c: Buffer) => (into.add(c), o.killOnOverflow && into.truncated && stop()));
      s.on('error', () => undefined);
      s.on('close', ended);
    };
    shell.job = {
      onLine: (kind) => {
        if (kind === 'N') return shell.job?.done({ kind: 'C', status: 0 });
        if (kind === 'F') ends = openEnds(f) ?? (shell.kill('SIGKILL'), undefined);
        if (kind !== 'R' || !ends) return;
        started = true;
        removeNames();
        stream(ends.out, out);
        stream(ends.err, err);
        hold(ends.held, o.heldInput, () => shell.kill('SIGKILL'));
      },
      done: (line) => {
        exit = line;
        if (!started) {
          for (const fd of ends ? [ends.out, ends.err, ends.held] : []) closeSync(fd);
          return settle();
        }
        ended();
      },
    };
    o.heldInput?.catch(() => undefined); // handled once the child runs (hold); no unhandled rejection meanwhile
    if (f.input) writeFileSync(f.input, o.input ?? '');
    if (o.timeoutMs !== undefined) timers.push(setTimeout(() => ((timedOut = true), stop()), o.timeoutMs));
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener('abort', onAbort, { once: true });
    shell.write(streamedScript(bin, args, o, f, job.made));
  }).then((r) => (r === 'spawn' ? runProcess(bin, args, o) : r));
}

/** SIGTERM, then SIGKILL after the grace; 200 ms later an answer even if a helper that escaped the group holds the streams. */
function stopper(shell: StreamingShell, graceMs: number | undefined, timers: NodeJS.Timeout[], settle: () => void): () => void {
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
function hold(fd: number, held: Promise<string> | undefined, kill: () => void): void {
  const s = new Socket({ fd, readable: false, writable: true });
  s.on('error', () => undefined);
  if (!held) return void s.end();
  held.then(
    (text) => s.end(text),
    () => (kill(), s.destroy()),
  );
}

function result(exit: { kind: 'X' | 'C'; status: number }, sent: NodeJS.Signals | undefined, r: { out: Collector; err: Collector; timedOut: boolean; aborted: boolean }): ProcessResult {
  const stdoutBuffer = r.out.buffer();
  const base = { stdoutBuffer, stdout: stdoutBuffer.toString('utf8'), stderr: r.err.buffer().toString('utf8'), timedOut: r.timedOut, aborted: r.aborted, truncated: r.out.truncated || r.err.truncated };
  if (exit.kind === 'C') return { ...base, exitCode: null, signal: sent ?? 'SIGKILL' };
  // Death by signal n shows as 128+n, which a real exit code can also be: only a signal we sent counts as one.
  const signal = sent && exit.status === 128 + (osConstants.signals[sent] ?? 0) ? sent : null;
  return { ...base, exitCode: signal ? null : exit.status, signal };
}

/** One set of FIFOs made ahead; `take` hands it out only once made, and a failing `mkfifo` stops the stock. */
export function fifoStock(scratch: string, next: () => number, launch: Launcher): { take(): number | undefined; restock(path: string | undefined, shellFree: boolean): void } {
  let spare: { n: number; ready: boolean } | undefined;
  let broken = false;
  return {
    take() {
      if (!spare?.ready) return undefined;
      const n = spare.n;
      spare = undefined;
      return n;
    },
    restock(path, shellFree) {
      if (spare || broken || !shellFree) return;
      const s = { n: next(), ready: false };
      spare = s;
      void launch('mkfifo', ['-m', '600', '--', ...fifoNames(scratch, s.n)], { cwd: scratch, env: path === undefined ? {} : { PATH: path } }).then((r) => {
        if (r.exitCode === 0) s.ready = true;
        else [broken, spare] = [true, undefined];
      });
    },
  };
}
