/**
 * The clean check in O(changed): a full `git status` proves the tree clean once (the baseline, taken while
 * the watcher already runs); later checks ask git only about the paths the watcher saw change, plus the
 * paths HEAD moved by, plus one index-equals-HEAD question. Why that is enough: a path with no event since
 * the baseline has the baseline's content, which was HEAD's then; if HEAD did not change it there and the
 * index equals HEAD, the path is clean now. Whenever the watcher cannot vouch for its list (see watcher.ts),
 * or a rule file changed, or anything looks dirty, the check is the full one, exactly as without a watcher.
 */
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  changedPathsOp,
  indexMatchesHeadOp,
  LITERAL_PATHSPECS_ENV,
  pathStatusOp,
  ruleFilesOp,
} from '../../git/commands/status-paths.js';
import type { RepoStatus } from '../../git/commands/status.js';
import type { GitRunner } from '../../git/runner.js';
import { repoObjectFormat } from '../../git/object-format.js';
import { headFromFiles } from '../../git/read-ref.js';
import { matchesHead } from './head-compare.js';
import { defaultRuleFiles, fingerprint, isRuleFile } from './rule-files.js';
import { WorkTreeWatcher, type WatcherOptions } from './watcher.js';

export interface WatchedCheckOptions extends WatcherOptions {
  /** Below this many tracked files (estimated from the index size) the full check is cheap: no watcher. */
  minFiles?: number;
  /** The watcher starts at this check (the first ones run as before: a one-write process pays nothing). */
  startAtCheck?: number;
  /** Environment git sees (where its global configuration and ignore files are). */
  env?: Record<string, string | undefined>;
}

/** Argument bytes of changed paths above which one full walk is cheaper and safer than a long argv. */
const MAX_PATHSPEC_BYTES = 128 * 1024;
/** How often a repo too small for a watcher is measured again. */
const RESIZE_EVERY = 64;

/** Bytes of the index (and of its shared part under core.splitIndex): ~70 bytes per entry. */
function indexEntriesEstimate(gitDir: string): number {
  let bytes = statSync(join(gitDir, 'index'), { throwIfNoEntry: false })?.size ?? 0;
  let shared = 0;
  for (const name of readdirSync(gitDir)) {
    if (name.startsWith('sharedindex.'))
      shared = Math.max(shared, statSync(join(gitDir, name), { throwIfNoEntry: false })?.size ?? 0);
  }
  bytes += shared;
  return Math.floor(bytes / 70);
}

/** HEAD's commit and branch when HEAD is plain (a branch of a loose or packed ref, or detached). */
interface Head {
  head: string;
  branch: string | null;
}

function headNow(gitDir: string): Head | null {
  let text: string;
  try {
    text = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
  } catch {
    return null;
  }
  const head = headFromFiles(gitDir); // inside the watcher's own fast path: its entry is the switch
  if (head === undefined) return null;
  const branch = /^ref: refs\/heads\/(\S+)$/.exec(text)?.[1] ?? null;
  return { head, branch };
}

interface Baseline {
  head: string;
  rules: string;
}

export class WatchedCleanCheck {
  private watcher: WorkTreeWatcher | null = null;
  private baseline: Baseline | null = null;
  private noted: { from: string; to: string; paths: string[] } | null = null;
  private checks = 0;
  /** Measured once big enough for a watcher (then a broken one is replaced at the next check). */
  private bigEnough = false;
  private ruleFiles: string[];
  /** Diagnostics and tests: how the last check was answered. */
  lastMode: 'full' | 'incremental' = 'full';
  lastReason = 'first check';

  constructor(
    private readonly memoryDir: string,
    private readonly options: WatchedCheckOptions = {},
  ) {
    this.ruleFiles = defaultRuleFiles(this.gitDir, options.env ?? {});
  }

  private get gitDir(): string {
    return join(this.memoryDir, '.git');
  }

  /** Test seam: the running watcher, if any. */
  get currentWatcher(): WorkTreeWatcher | null {
    return this.watcher;
  }

  /** Clean → the status (HEAD, branch); dirty → whatever `full` throws (REPO_DIRTY). */
  async check(git: GitRunner, full: () => Promise<RepoStatus>): Promise<RepoStatus> {
    this.checks++;
    const noted = this.noted;
    this.noted = null;
    const watcher = this.ensureWatcher();
    if (watcher === null || watcher === 'starting') return this.fullCheck(git, full, null, watcher ?? 'no watcher');
    // The index question needs no watcher answer: asked now, it runs while the cookie travels.
    const at = this.baseline === null ? null : headNow(this.gitDir);
    const indexClean = at === null ? null : git.exec(indexMatchesHeadOp(at.head), { cwd: this.memoryDir });
    indexClean?.catch(() => undefined); // awaited in incremental(); an early failure is not unhandled
    if (!(await watcher.sync())) {
      this.stopWatcher(); // a fresh one (with a fresh baseline) next time
      return this.fullCheck(git, full, null, 'the watcher broke');
    }
    const snapshot = watcher.take();
    const rules = fingerprint(this.ruleFiles);
    const baseline = this.baseline;
    this.baseline = null; // until this check proves the tree clean again
    if (baseline === null) return this.fullCheck(git, full, rules, 'no baseline');
    if (snapshot.full) return this.fullCheck(git, full, rules, snapshot.reason);
    if (rules !== baseline.rules) return this.fullCheck(git, full, rules, 'an ignore or config file changed');
    const paths = [
      ...new Set([...snapshot.paths, ...(noted !== null && noted.from === baseline.head ? noted.paths : [])]),
    ];
    const expected = noted !== null && noted.from === baseline.head ? noted.to : baseline.head;
    if (at === null || indexClean === null) return this.fullCheck(git, full, rules, 'HEAD is not plain');
    const answer = await this.incremental(git, paths, expected, at, indexClean).catch(
      () => 'git could not answer for the paths',
    );
    if (typeof answer === 'string') return this.fullCheck(git, full, rules, answer);
    this.baseline = { head: answer.head as string, rules };
    this.lastMode = 'incremental';
    this.lastReason = `${paths.length} changed path(s)`;
    return answer;
  }

  /** The write that just committed `commit` on `parent` changed exactly `paths` (saves a tree diff). */
  noteCommit(parent: string | null, commit: string, paths: readonly string[]): void {
    this.noted = parent === null ? null : { from: parent, to: commit, paths: [...paths] };
  }

  private async fullCheck(
    git: GitRunner,
    full: () => Promise<RepoStatus>,
    rules: string | null,
    reason: string,
  ): Promise<RepoStatus> {
    this.lastMode = 'full';
    this.lastReason = reason;
    const status = await full();
    if (rules !== null && status.head !== null && this.watcher?.healthy) {
      const configured = await git.exec(ruleFilesOp(), { cwd: this.memoryDir }).catch(() => null);
      const before = this.ruleFiles.join('\n');
      if (configured !== null)
        this.ruleFiles = [...defaultRuleFiles(this.gitDir, this.options.env ?? {}), ...configured];
      // A rule file learnt just now was not in `rules`: the next check walks once more.
      if (configured !== null && this.ruleFiles.join('\n') === before) this.baseline = { head: status.head, rules };
    }
    return status;
  }

  /** The status (HEAD, branch) when the changed paths are clean, or why the full check must answer instead. */
  private async incremental(
    git: GitRunner,
    changed: string[],
    expected: string,
    at: Head,
    indexClean: Promise<boolean>,
  ): Promise<RepoStatus | string> {
    const checked = new Set(changed);
    if ([...checked].some(isRuleFile)) return 'an ignore or attributes file changed';
    if (changed.reduce((n, p) => n + Buffer.byteLength(p) + 1, 0) > MAX_PATHSPEC_BYTES) return 'too many changed paths';
    if (headNow(this.gitDir)?.head !== at.head) return 'HEAD moved during the check';
    const opts = { cwd: this.memoryDir, env: { ...LITERAL_PATHSPECS_ENV } };
    const format = repoObjectFormat(this.gitDir);
    const same = await matchesHead(git, this.memoryDir, at.head, changed, format, opts.env);
    if (!(await indexClean) || same === false) return 'changes to report';
    let unsure = same === 'ask git' ? changed : [];
    if (at.head !== expected) {
      // HEAD moved without this check hearing how: the paths it moved are checked too.
      const moved = (await git.exec(changedPathsOp(expected, at.head), opts)).filter((p) => !checked.has(p));
      if (moved.some(isRuleFile)) return 'HEAD changed an ignore or attributes file';
      const sameMoved = await matchesHead(git, this.memoryDir, at.head, moved, format, opts.env);
      if (sameMoved === false) return 'changes to report';
      if (sameMoved === 'ask git') unsure = [...unsure, ...moved];
    }
    const status: RepoStatus = {
      head: at.head,
      branch: at.branch,
      upstream: null,
      ahead: 0,
      behind: 0,
      tracking: false,
      entries: [],
    };
    if (unsure.length === 0) return status;
    const asked = await git.exec(pathStatusOp(unsure), opts); // git decides the paths the cheap look could not
    return asked.entries.length === 0 && asked.head === at.head ? status : 'changes to report';
  }

  /** The watcher, when one is ready to answer; starts one (in the background) when the repo is worth it. */
  private ensureWatcher(): WorkTreeWatcher | 'starting' | null {
    if (this.watcher !== null) return this.watcher.state === 'starting' ? 'starting' : this.watcher;
    const startAt = this.options.startAtCheck ?? 2;
    const minFiles = this.options.minFiles ?? 5_000;
    if (this.checks < startAt) return null;
    if (!this.bigEnough) {
      if ((this.checks - startAt) % RESIZE_EVERY !== 0) return null;
      this.bigEnough = minFiles <= 0 || indexEntriesEstimate(this.gitDir) >= minFiles;
      if (!this.bigEnough) return null;
    }
    try {
      if (!lstatSync(this.gitDir).isDirectory()) return null; // a linked worktree or a gitfile: full checks only
      this.watcher = new WorkTreeWatcher(this.memoryDir, join(this.gitDir, 'gitmem-fsmonitor'), this.options);
    } catch {
      return null;
    }
    return 'starting'; // it gets ready in the background; the check after that takes the baseline
  }

  private stopWatcher(): void {
    this.watcher?.close();
    this.watcher = null;
    this.baseline = null;
  }

  close(): void {
    this.stopWatcher();
  }
}
