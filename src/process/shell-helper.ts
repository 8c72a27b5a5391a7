/**
 * One resident shell of the launcher (shell-launcher.ts): it runs one job at a time and reports on its stdout
 * the child's pid (`P`), its exit status (`X`), a directory it could not enter (`C 0`), and a streamed job's
 * own lines (shell-streamed.ts). It leads its own process group, and is tied to this process by a
 * parent-death signal where setpriv allows it.
 */
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import type { Readable, Writable } from 'node:stream';

export const SHELL = '/bin/sh';

/** `s` as one single-quoted shell word. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

const NAME_OK = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Names a shell will not take as a command prefix (bash: read-only or special).
const SHELL_SPECIAL =
  /^(BASH\w*|SHELLOPTS|UID|EUID|PPID|GROUPS|FUNCNAME|LINENO|RANDOM|SRANDOM|SECONDS|OPTIND|OPTARG|IFS|PS[1-4]|ENV|HISTCMD|EPOCH\w+)$/;
/** The utility that sets what a shell cannot assign; null when this system has none. */
const ENV_UTILITY = ['/usr/bin/env', '/bin/env'].find((p) => existsSync(p)) ?? null;

/**
 * What precedes a child's argv so it starts with exactly `env`: an assignment per name a shell can take, then
 * `env NAME=value …` for the others (exported bash functions, `BASH_*`, …), so the caller's environment never
 * sends a call to a plain spawn. `_` is left out: bash sets it in every program it starts (the program's own
 * path) and no child reads it. Undefined when a name can be expressed neither way (no `env` utility), or a
 * name or value holds a NUL (nothing can pass it; a plain spawn refuses it with its own error).
 * @example commandPrefix({ A: '1', 'BASH_FUNC_f%%': '() { :; }', _: '/usr/bin/node' }) // "A='1' '/usr/bin/env' 'BASH_FUNC_f%%=() { :; }' "
 */
export function commandPrefix(env: Record<string, string>): string | undefined {
  const assigned: string[] = [];
  const passed: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (k === '_') continue;
    if (k.includes('\0') || v.includes('\0')) return undefined; // no exec can pass it: the spawn says so
    if (NAME_OK.test(k) && !SHELL_SPECIAL.test(k)) assigned.push(`${k}=${shellQuote(v)}`);
    else passed.push(shellQuote(`${k}=${v}`));
  }
  if (passed.length > 0 && ENV_UTILITY === null) return undefined;
  const utility = passed.length > 0 ? [shellQuote(ENV_UTILITY as string), ...passed] : [];
  return [...assigned, ...utility, ''].join(' ');
}

/**
 * The signal a job died of, from the 128+n status the shell reports: only one this process sent counts, since a
 * real exit code can be 128+n too (git exits 129 on a usage error).
 */
export function sentSignalOf(status: number, sent: NodeJS.Signals | undefined): NodeJS.Signals | null {
  return sent && status === 128 + (osConstants.signals[sent] ?? 0) ? sent : null;
}

type Shell = ChildProcessByStdio<Writable, Readable, null>;

export interface Job {
  pid?: number;
  done: (line: { kind: 'X' | 'C'; status: number }) => void;
  /** A streamed job's own lines (shell-streamed.ts). */
  onLine?: (kind: string) => void;
}

// Ties a shell's life to this process: killed the moment its parent thread dies, so whatever it started
// with a parent-death signal of its own (bwrap --die-with-parent) goes too. Without it, no streamed jobs.
// Probed once, on first use: a setpriv without --pdeathsig (util-linux < 2.33, busybox) would kill every shell.
let tied: string | null | undefined;
export function tie(): string | undefined {
  if (tied === undefined) {
    const found = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
    tied =
      found &&
      spawnSync(found, ['--pdeathsig', 'KILL', '--', SHELL, '-c', ':'], { stdio: 'ignore', timeout: 5000 }).status === 0
        ? found
        : null;
  }
  return tied ?? undefined;
}

export class Helper {
  readonly shell: Shell;
  job: Job | undefined;
  dead = false;
  private pending = '';
  constructor(onDead: (h: Helper) => void) {
    const setpriv = tie();
    const [bin, args] = setpriv ? [setpriv, ['--pdeathsig', 'KILL', '--', SHELL]] : [SHELL, []];
    this.shell = spawn(bin, args, { stdio: ['pipe', 'pipe', 'ignore'], env: {}, detached: true });
    this.shell.stdin.on('error', () => undefined);
    this.shell.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    const die = (): void => {
      if (this.dead) return;
      this.dead = true;
      onDead(this);
      this.job?.done({ kind: 'C', status: -1 });
    };
    this.shell.on('exit', die);
    this.shell.on('error', die);
    this.hold(false);
  }
  /** An idle shell must not keep the host process alive; a running job must. */
  hold(running: boolean): void {
    for (const h of [this.shell, this.shell.stdin, this.shell.stdout] as Array<{ ref(): unknown; unref(): unknown }>) {
      if (running) h.ref();
      else h.unref();
    }
  }
  private read(chunk: Buffer): void {
    this.pending += chunk.toString('latin1');
    for (let nl = this.pending.indexOf('\n'); nl !== -1; nl = this.pending.indexOf('\n')) {
      const [kind, value] = this.pending.slice(0, nl).split(' ');
      this.pending = this.pending.slice(nl + 1);
      const job = this.job;
      if (!job) continue;
      if (kind === 'P') {
        job.pid = Number(value);
      } else if (kind === 'X' || kind === 'C') job.done({ kind, status: Number(value ?? -1) });
      else if (kind !== undefined) job.onLine?.(kind);
    }
  }
  write(script: string): void {
    this.shell.stdin.write(script);
  }
  /** The last signal `kill` sent to the running job (undefined when none). */
  sentSignal: NodeJS.Signals | undefined;
  /** Set once the group was signalled. */
  retired = false;
  /** Signals the running job's whole process group: the shell (which then dies), the child, its helpers. */
  kill(sig: NodeJS.Signals): void {
    const job = this.job;
    if (!job) return;
    this.sentSignal = sig;
    this.retired = true; // its shell is being signalled too: never handed another job
    const targets = [this.shell.pid === undefined ? undefined : -this.shell.pid, job.pid].filter(
      (t): t is number => t !== undefined,
    );
    for (const target of targets) {
      try {
        process.kill(target, sig);
        return;
      } catch {
        // already gone
      }
    }
  }
}
