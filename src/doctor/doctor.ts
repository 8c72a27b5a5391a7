/**
 * `gitmem doctor [--fix]`: runs every check of the table on one repository; with `fix`, repairs what a check
 * marks safe to repair and runs that check again, so the report says what was done and what still stands.
 */
import { resolveGitCommonDir } from '../git/common-dir.js';
import type { GitRunner } from '../git/runner.js';
import type { GitCredentials } from '../sync/credentials.js';
import { resolveCommit } from '../worktree/inspect.js';
import { DOCTOR_CHECKS, DOCTOR_CHECK_NAMES, type DoctorCheckName } from './checks.js';
import type { CheckFinding, DoctorContext } from './types.js';

export interface DoctorCheckReport extends CheckFinding {
  check: DoctorCheckName;
  title: string;
  /** What --fix did for this check (absent without --fix or when nothing was done). */
  fixed?: string[];
}

export interface DoctorReport {
  memoryDir: string;
  healthy: boolean;
  checks: DoctorCheckReport[];
}

export interface DoctorOptions {
  git: GitRunner;
  memoryDir: string;
  home: string;
  env: Record<string, string | undefined>;
  /** The sync credentials (the configuration's reading of them), for the remote check. */
  credentials?: () => GitCredentials | undefined;
  fix?: boolean;
  /** Only these checks (default all). */
  only?: readonly DoctorCheckName[];
  now?: () => number;
}

async function contextFor(o: DoctorOptions): Promise<DoctorContext> {
  const head = await resolveCommit(o.git, o.memoryDir, 'HEAD');
  return {
    git: o.git,
    memoryDir: o.memoryDir,
    gitDir: resolveGitCommonDir(o.memoryDir),
    home: o.home,
    env: o.env,
    credentials: o.credentials ?? (() => undefined),
    head,
    now: o.now ?? Date.now,
  };
}

/** Runs one check (and its repair); returns the report and the context the next check should use. */
async function runOne(
  o: DoctorOptions,
  ctx: DoctorContext,
  name: DoctorCheckName,
): Promise<[DoctorCheckReport, DoctorContext]> {
  const check = DOCTOR_CHECKS[name];
  const first = await check.run(ctx);
  if (first.status === 'ok' || o.fix !== true || check.fix === undefined)
    return [{ check: name, title: check.title, ...first }, ctx];
  const fixed = await check.fix(ctx);
  const fresh = await contextFor(o); // the repair may have moved HEAD or changed what is on disk
  const again = await check.run(fresh);
  return [{ check: name, title: check.title, ...again, ...(fixed.length > 0 ? { fixed } : {}) }, fresh];
}

/**
 * Checks one memory repository.
 * @example const r = await runDoctor({ git, memoryDir, home, env }); if (!r.healthy) console.log(r.checks.filter((c) => c.status === 'problem'))
 */
export async function runDoctor(o: DoctorOptions): Promise<DoctorReport> {
  const checks: DoctorCheckReport[] = [];
  let ctx = await contextFor(o); // shared, so the committed files are read once
  for (const name of o.only ?? DOCTOR_CHECK_NAMES) {
    const [report, next] = await runOne(o, ctx, name);
    checks.push(report);
    ctx = next;
  }
  return { memoryDir: o.memoryDir, healthy: checks.every((c) => c.status === 'ok'), checks };
}
