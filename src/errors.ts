/**
 * One error type for the whole library. Callers branch on `code`, never on message text.
 * Every code is documented here; add new ones here (docs/library.md points to this list) rather than inventing strings.
 */
export type MemoryErrorCode =
  // --- input ---
  | 'INVALID_ARGUMENT' // a parameter is missing, blank or of the wrong type
  | 'UNKNOWN_COMMAND' // a memory-tool command, CLI sub-command or patch directive we do not know
  | 'INVALID_PATH' // a path argument is malformed (traversal, NUL, home-relative, empty label)
  | 'PATH_ESCAPE' // a path resolves outside the memory repository, or passes through a symbolic link (never followed)
  | 'INVALID_AGENT_ID' // an agent id with path characters or other forbidden content
  | 'UNKNOWN_PRESET' // prompt preset id not in the table
  | 'UNKNOWN_MODE' // memory prompt mode not standard|memfs|local-memfs
  | 'UNKNOWN_PERSONALITY' // personality preset id not in the table
  // --- repository state ---
  | 'NO_MEMORY_DIR' // no agent id / memory dir could be resolved
  | 'MEMORY_DIR_MISSING' // the resolved memory directory does not exist
  | 'HOME_UNUSABLE' // the gitmem home is not a directory, or cannot be created or read (data.home)
  | 'NOT_A_GIT_REPO' // the memory directory has no .git
  | 'AGENT_EXISTS' // init/clone into an agent that already has a repo (where that is refused)
  | 'UNKNOWN_REVISION' // a revision argument (at/from/to: sha, branch, HEAD~N, @{…}, ISO date) names no commit (data.at)
  | 'REPO_DIRTY' // uncommitted changes block an automated write
  | 'REPO_CONFLICT' // a merge or rebase is in progress / unmerged paths
  | 'REPO_BROKEN' // the memory repository exists but is not usable as one (e.g. no commit on main: a failed init); data.memoryDir
  | 'REPO_UNSUPPORTED' // the repository's object format is not one gitmem can write (sha1, sha256); data.objectFormat
  // --- file content ---
  | 'FILE_NOT_FOUND' // target memory file or directory does not exist
  | 'FILE_EXISTS' // create/rename/add onto an existing file
  | 'FRONTMATTER_INVALID' // missing/unclosed frontmatter, unknown key, empty description, bad YAML
  | 'READ_ONLY' // the file is read_only, or a write would add/change/remove read_only
  | 'NOT_UTF8' // file is not valid UTF-8 (UTF-16 BOM, NUL bytes, bad bytes)
  | 'NO_MATCH' // str_replace old_string not found
  | 'AMBIGUOUS_MATCH' // str_replace old_string found more than once without replace_all
  | 'NO_CHANGES' // the operation produced no effective change; nothing committed
  | 'WOULD_DISCARD_EDITS' // a preset would overwrite a file holding text that is no starter or preset text (data.path); --force overrides
  | 'PATCH_INVALID' // memory_apply_patch grammar error
  | 'PATCH_MISMATCH' // a hunk's context was not found in the current file
  | 'REVERT_CONFLICT' // a revert no longer applies cleanly to HEAD (data.paths lists the files); nothing changed
  | 'VALIDATION_FAILED' // the pre-commit rule set rejected the change (data.errors lists each)
  | 'SECRET_DETECTED' // what is written (or about to be pushed) looks like a credential: rule, file:line and fingerprint named, never the value (data.secrets)
  | 'BUDGET_EXCEEDED' // the change grows a file past its `limit` or system/ past its token budget (data.errors names file, size and budget)
  | 'HOOKS_UNPINNED' // core.hooksPath is set after gitmem's value by a source gitmem cannot edit (e.g. the environment)
  | 'HOOKS_UNRUNNABLE' // a writer would start from an install whose pre-commit hook entry is missing (broken install)
  | 'IO_ERROR' // the file system refused an operation (no space, read-only, permission…; data.errno)
  | 'ROLLBACK_INCOMPLETE' // a write failed and could not put everything back (data.problems); nothing is committed later
  | 'RECOVERY_SET_ASIDE' // an interrupted write could not be finished; its journal was renamed (data.journal) for inspection
  // --- git / processes ---
  | 'GIT_FAILED' // git exited non-zero (GitCommandError carries redacted argv/stderr)
  | 'GIT_TIMEOUT' // git exceeded its timeout and was killed
  | 'GIT_TRANSIENT' // a retryable network failure (HTTP 5xx, reset, timed out) that survived retries
  | 'GIT_AUTH' // authentication failed, or ssh does not know the server's host key (never retried; data.problem says which)
  | 'GIT_DNS' // the remote's host name does not resolve (never retried)
  | 'GIT_REDIRECT' // an authenticated remote redirected to another origin (or kept redirecting); not followed, nothing sent there
  | 'GIT_LOCKED' // another git process kept a lock file (e.g. index.lock) past the short wait; nothing changed
  | 'ABORTED' // the caller's AbortSignal fired
  | 'LOCK_TIMEOUT' // the memory operation lease could not be acquired in time (data.holder)
  // --- sync ---
  | 'NO_REMOTE' // no remote configured for an operation that needs one
  | 'REMOTE_REJECTED' // the remote's commits break the memory rules: main stays, they are kept on gitmem/rejected/<time> (data: the sync result, with its problems)
  | 'SYNC_CONFLICT' // pull/rebase hit a true conflict (data: the sync result, with its conflictPaths)
  | 'PUSH_FAILED' // push rejected for a reason other than non-fast-forward
  | 'MIRROR_ERROR' // mirror push preconditions (no URL, no commits, detached HEAD)
  | 'CREDENTIALS_INSECURE' // the credentials file (or an MCP token file) is readable by group/others (must be 0600)
  // --- MCP over HTTP ---
  | 'UNSAFE_BIND' // an HTTP server was asked to listen beyond loopback without a token the operator gave (a token file); data.host
  // --- background writers ---
  | 'WORKTREE_ERROR' // a worktree could not be created or finalized
  | 'SANDBOX_UNAVAILABLE' // no kernel sandbox backend; fail-closed refusal
  | 'SANDBOX_NESTED' // asked to sandbox from inside a sandbox
  | 'SANDBOX_OFF' // `sandbox exec` (the agent's own shell) while GITMEM_SHELL_SANDBOX is not switched on; nothing ran
  | 'WORKER_FAILED' // a memory worker's command body exited non-zero or was killed (data.exitCode, data.stderr)
  | 'MERGE_CONFLICT' // a background writer's commits conflict with the checkout; its branch is kept (gitmem conflicts)
  | 'MERGE_REJECTED' // a background writer's commits broke the memory rules; nothing merged, its branch is kept
  | 'REFLECTION_FAILED' // a reflection ended without a usable result (edits left uncommitted, commits refused, not merged)
  | 'CONTENT_DROPPED' // a defragmentation deleted lines that are nowhere in memory any more: nothing merged, its branch is kept (the result's `preservation` lists them)
  | 'PROPOSAL_STALE' // a proposed conflict resolution was made on another main or kept-branch tip; propose again (data.proposal)
  // --- CLI daemon ---
  | 'DAEMON_UNAVAILABLE' // no daemon can run here (platform, socket path, disabled, not built)
  | 'DAEMON_UNSAFE_DIR' // the daemon's runtime directory is not private to this user
  | 'DAEMON_LOST' // printed by a CLI client whose daemon died after taking its command (exit 2, never retried)
  // --- reflection / models ---
  | 'MODEL_NOT_CONFIGURED' // no model given and none configured
  | 'MODEL_ERROR' // provider call failed
  // --- search ---
  | 'SEARCH_UNAVAILABLE' // the full-text engine (optional dependency better-sqlite3) is not installed or does not load
  | 'TIMEOUT' // a wall-clock limit fired (dream --timeout, sub-agent limits)
  | 'INTERNAL'; // a bug: an invariant did not hold

const BRAND = Symbol.for('gitmem.MemoryError');

/** Options for {@link MemoryError}. */
export interface MemoryErrorOptions {
  data?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * The library's only error class (subclasses add typed fields where callers need them).
 * @example
 *   try { await memory.tool(call) } catch (e) { if (isMemoryError(e, 'REPO_DIRTY')) ... }
 */
export class MemoryError extends Error {
  readonly code: MemoryErrorCode;
  readonly data: Record<string, unknown>;
  /** Brand shared by every copy of this class (the CLI ships more than one bundle). */
  readonly [BRAND] = true;

  /** `instanceof MemoryError` holds for a MemoryError from any copy of the library; subclasses keep the usual check. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== MemoryError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  constructor(code: MemoryErrorCode, message: string, options: MemoryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MemoryError';
    this.code = code;
    this.data = options.data ?? {};
  }

  toJSON(): { code: MemoryErrorCode; message: string; data: Record<string, unknown> } {
    return { code: this.code, message: this.message, data: this.data };
  }
}

/**
 * True when `err` is a MemoryError (optionally with the given code), also one from another copy of gitmem.
 * @example catch (err) { if (isMemoryError(err, 'MEMORY_DIR_MISSING')) await initMemory({ agentId }); }
 */
export function isMemoryError(err: unknown, code?: MemoryErrorCode): err is MemoryError {
  return err instanceof MemoryError && (code === undefined || err.code === code);
}

/** Wraps anything thrown into a MemoryError, keeping MemoryErrors as they are. */
export function toMemoryError(err: unknown, code: MemoryErrorCode = 'INTERNAL'): MemoryError {
  if (err instanceof MemoryError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new MemoryError(code, message, { cause: err });
}
