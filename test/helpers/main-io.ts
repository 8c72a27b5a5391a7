/**
 * Runs the CLI's `main` in this process with a captured io (no built binary, no child process): for tests that
 * drive a command through its real argument parsing without paying a process start each call.
 */
import { main } from '../../src/cli/main.js';

export interface MainRun {
  code: number;
  out: string;
  err: string;
}

/**
 * `gitmem <args>` in-process; `sep` joins the chunks written to each stream.
 * @example const r = await runMain(['sync'], env); expect(r.code, r.err).toBe(0)
 */
export async function runMain(
  args: string[],
  env: Record<string, string>,
  o: { cwd?: string; sep?: string } = {},
): Promise<MainRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    env,
    cwd: o.cwd ?? process.cwd(),
    stdout: (t: string) => void out.push(t),
    stderr: (t: string) => void err.push(t),
    readStdin: async () => '',
  };
  const code = await main(args, io);
  return { code, out: out.join(o.sep ?? ''), err: err.join(o.sep ?? '') };
}
