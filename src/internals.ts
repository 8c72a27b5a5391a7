/**
 * `gitmem/internals`: the building blocks under the `Memory` handle (the git runner, the validator, the
 * layers' operations), for tools that need one piece. UNSTABLE: names and signatures here change between
 * minor versions without notice; a harness uses `gitmem` (index.ts). Explicit named exports only; the
 * curated surface is re-exported too, so one import can mix both.
 */
export * from './index.js';
export { MemoryError, isMemoryError, toMemoryError, type MemoryErrorCode } from './errors.js';
export { createGitRunner, GitCommandError, type GitRunner, type GitOp, type GitResult, type GitAuth } from './git/runner.js';
export { redactText } from './git/redact.js';
export { classifyGitFailure, type GitFailureKind } from './git/classify.js';
export {
  parseMemoryFile,
  renderMemoryFile,
  splitFrontmatter,
  tryParseMemoryFile,
  isReadOnlyValue,
} from './blocks/frontmatter.js';
export { validateChanges, findProblems, isProtectedText, type FileChange, type Problem, type ValidationOptions } from './blocks/validate.js';
export { agentPaths, assertAgentId, type AgentPaths } from './memfs/layout.js';
export { normalizeMemoryPath } from './memfs/paths.js';
export { parsePatch, type PatchOp, type Hunk, type HunkLine } from './memfs/apply-patch/parse.js';
export { planPatch, type PatchFs, type PatchPlan } from './memfs/apply-patch/plan.js';
export { compilePrompt, type CommittedFile, type CompileOptions } from './blocks/compile-prompt.js';
export { renderTree, type TreeEntry } from './blocks/tree.js';
export { applyTreeLimits, DEFAULT_TREE_LIMITS, type TreeLimits } from './blocks/tree-limits.js';
export { listPresets, buildPresetPrompt, isPresetId, DEFAULT_PRESET_ID, MEMORY_MODES, type MemoryMode, type PromptPreset } from './blocks/presets.js';
export { PROMPT_SURFACES, DEFAULT_PROMPT_SURFACE, surfaceWording, type PromptSurface, type SurfaceWording } from './blocks/prompt-surfaces.js';
export { defaultMemoryFiles } from './blocks/defaults.js';
export { listPersonalities, getPersonality, detectPersonality, type Personality } from './blocks/personalities.js';
export { replaceBodyPreservingFrontmatter, composeMemoryFile } from './blocks/replace-body.js';
export { parseModelSpec, formatModelSpec, MODEL_SPEC_FORMS, type ModelSpec } from './llm/model-spec.js';
export { readGitmemConfig, checkGitmemConfig, configPath, type GitmemConfigFile, type ProviderConfig } from './llm/config.js';
export { resolveModel, describeModel, type ResolveModelOptions } from './llm/provider.js';
export { runSubAgent, type SubAgentLimits, type SubAgentRun, type SubAgentOptions, type SubAgentStepInfo } from './llm/sub-agent.js';
export { type ShellRunner } from './llm/tool-set.js';
export { appendRunLog, readRunLog, runLogPath, type RunLogEntry } from './reflection/run-log.js';
export {
  appendTranscript,
  readTranscript,
  readNumberedTranscript,
  listConversations,
  hasTranscript,
  transcriptPath,
  conversationKey,
  type TranscriptRow,
  type TranscriptRowInput,
  type TranscriptTextRow,
  type TranscriptToolRow,
} from './reflection/transcripts.js';
export { readCursor, unreflectedSlice, advanceCursor, markReflectionStarted, cursorPath, type ReflectionCursor, type UnreflectedSlice } from './reflection/cursor.js';
export { claudeSubagentFiles, parseClaudeCodeFrom } from './reflection/sources/claude-code.js';
export { parseCodexFrom } from './reflection/sources/codex.js';
export { packageRoot } from './assets.js';
export { loadSource, stageSource, parseFromSpec, syntheticConversationId, SOURCE_TYPES, SOURCE_FORMS, type FromSpec, type SourceType, type StageResult } from './reflection/sources/index.js';
export {
  buildMemoryWriterPolicy,
  normalizePolicy,
  type SandboxPolicy,
  type MemoryWriterPolicyOptions,
} from './sandbox/policy.js';
export { renderBwrapArgv, type BwrapRenderOptions } from './sandbox/bwrap.js';
export { renderSeatbeltProfile, renderSeatbeltArgv, type SeatbeltProfile } from './sandbox/seatbelt.js';
export { detectSandboxBackend, type SandboxBackend } from './sandbox/detect.js';
export { buildConfinedEnv, SANDBOX_SENTINEL, type ConfinedEnvOptions } from './sandbox/env.js';
export { confineCommand, fsSandboxSwitch, FS_SANDBOX_SWITCH, type ConfinedCommand, type ConfineOptions } from './sandbox/launch.js';
export { runConfined, type RunConfinedOptions, type RunConfinedResult } from './sandbox/run.js';
// --- sync: remotes, credentials, clone, sync, post-turn sync, kept branches, mirror ---
export { authForRemote, parseCredentialsFile, credentialsFromToken, readCredentialsFile, type GitCredentials, type AuthScheme } from './sync/credentials.js';
export { loadConfig, resolveCredentials, resolveTreeLimits, configuredAgent, treeLimitsFromEnv, daemonSettings, VARIABLES, type GitmemConfig } from './config.js';
export { setRemote, showRemote, removeRemote, normalizeRemoteUrl, type RemoteInfo } from './sync/remote.js';
export { agentIdFromUrl, type CloneOptions, type CloneResult } from './sync/clone.js';
export { syncMemory } from './sync/sync.js';
export { syncAfterTurn } from './sync/after-turn.js';
export { prepareParentRefresh, type ParentRefreshOptions, type PreparedRefresh } from './sync/refresh.js';
export type { SyncResult, SyncStatus, SyncOptions, ConflictPolicy } from './sync/types.js';
export { CONFLICT_POLICIES, CONFLICT_POLICY_NAMES, DEFAULT_CONFLICT_POLICY, parseConflictPolicy } from './sync/conflict-policy.js';
export { listKeptBranches, showKeptBranch, dropKeptBranch, type KeptBranch, type KeptBranchDetail } from './sync/conflicts.js';
export { setMirror, unsetMirror, pushMirror, mirrorStatus, getMirrorUrl, type MirrorPushResult, type MirrorLogEntry } from './sync/mirror.js';
export { NETWORK_RETRY, backoffDelay, type GitRetryPolicy, type GitRunOptions } from './git/runner.js';
export { withMemoryOperation, readMemoryOperationHolder, LEASE_FILE, type MemoryOperationOptions, type LeaseHolder } from './git/lease.js';
export { resolveGitCommonDir } from './git/common-dir.js';
export { createMemoryWorktree, worktreeId, type MemoryWorktree, type CreateWorktreeOptions } from './worktree/create.js';
export { materializePaths } from './worktree/materialize.js';
export { removeWorktreeDir, deleteBranch, discardWorktree } from './worktree/cleanup.js';
export { mergeIntoCheckout, type CheckoutMergeResult } from './worktree/merge.js';
export { agentIdentity, reflectionIdentity, SYSTEM_IDENTITY, identityEnv, identityConfig, type Identity } from './identity.js';
export { runMemoryWorker, startMemoryWorker, type MemoryWorkerHandle } from './worktree/worker.js';
export { integrateWorkerWorktree, workerMergeMessage } from './worktree/integrate.js';
export type {
  MemoryWorkerTask,
  MemoryWorkerBody,
  MemoryWorkerContext,
  MemoryWorkerOutcome,
  MemoryWorkerStatus,
  MemoryWorkerType,
  MemoryWorkerDeps,
} from './worktree/worker-types.js';
export {
  finalizeReflectionWorktree,
  consumesTranscript,
  shouldRecompile,
  reflectionMergeSummary,
  type ReflectionFinalizeResult,
  type ReflectionFinalizeStatus,
  type FinalizeReflectionOptions,
  type FinalizeDeps,
} from './worktree/finalize.js';
export { createCommandBody, runWorkerCommand, commandBodyPolicy, type CommandBodyOptions, type RunWorkerCommandOptions } from './worktree/command-body.js';
// --- core: the memory API (composition root) ---
export { gitmemVersion } from './memory.js';
export { runnerFor, locateMemory } from './wiring/open.js';
export { modelResolver } from './wiring/reflection.js';
export { resolveMemoryDir, resolveScope, resolveInitAgent, runWithAgent, currentAgentId, listHomeAgents } from './memfs/scope.js';
export { runMemoryTool, validateToolCall, type WriteResult, type WriteDeps } from './memfs/tool.js';
export { memoryToolSchema, applyPatchToolSchema, MEMORY_COMMANDS, WRITE_COMMANDS, type MemoryCommand, type WriteCommand } from './memfs/tool-schema.js';
export { runApplyPatch } from './memfs/apply-patch/run.js';
export { initMemoryRepo, type InitResult } from './memfs/init.js';
export { publishCommit } from './memfs/commit.js';
export { recoverInterruptedWrite, type RecoveryOutcome } from './memfs/journal.js';
export { objectId, writeObject, parseTree, serializeTree, commitText, type TreeItem } from './git/objects.js';
export { assertCleanForWrite } from './memfs/clean-check.js';
export { readCommittedSnapshot, type CommittedSnapshot } from './memfs/read-revision.js';
export { ensureHooks } from './hooks/install.js';
export { runPreCommit, preCommitVerdict, type PreCommitVerdict } from './hooks/pre-commit.js';
export { serveDaemonHooks, type DaemonHookOptions } from './hooks/hook-daemon.js';
export { serveHookValidation, HOOK_SOCKET_ENV, type HookChannel, type HookChannelOptions } from './hooks/serve-hook-validation.js';
export { preCommitEntry } from './hooks/install.js';
export { listProtectedPaths, protectPaths, unprotectPaths, recordProtection } from './hooks/protected.js';
export { type LogEntry } from './memfs/log.js';
export { buildTranscriptPayload, type PayloadMessage } from './reflection/transcripts-payload.js';
// --- reflection: settings, triggers, snapshot, runs, harness entry points, dream ---
export {
  resolveReflectionSettings,
  applyReflectionLayer,
  describeReflectionSettings,
  DEFAULT_REFLECTION_SETTINGS,
  type ReflectionSettings,
  type ReflectionTrigger,
  type ReflectionMergeMode,
  type ReflectionSettingsSources,
} from './reflection/settings.js';
export { decideReflection, type ReflectionEvent, type ReflectionTriggerSource } from './reflection/triggers.js';
export { createReservationTable, type ReservationTable } from './reflection/reservation.js';
export { buildParentSnapshot, shrinkSnapshot, previewNotice, SNAPSHOT_BUDGET, type ParentSnapshot, type SnapshotFile } from './reflection/snapshot.js';
export { loadReflectionPrompt, systemPromptFor, buildTaskPrompt, type ReflectionPromptName } from './reflection/prompts.js';
export { runReflection, DEFAULT_REFLECTION_LIMITS } from './reflection/run.js';
export type {
  ReflectionRunOptions,
  ReflectionResult,
  ReflectionCompleted,
  ReflectionSkipped,
  ReflectionStatus,
  ReflectionProgress,
  PendingIntegration,
} from './reflection/run-types.js';
export { createReflectionShell, type ReflectionShellOptions } from './reflection/shell.js';
export {
  type ReflectionHarness,
  type ReflectionHarnessOptions,
  type ReflectionLaunch,
  type HarnessOutcome,
} from './reflection/harness.js';
export { dreamExitCode, DREAM_TIMEOUT_SECONDS, type DreamOptions, type DreamResult } from './reflection/dream-types.js';
export { parseDreamTarget, syncTargetIn, syncTargetOut, targetInstruction, type DreamTarget } from './reflection/dream-target.js';
export { pruneOrphanWorktrees, type PruneOrphanOptions, type PruneResult, type PrunedWorktree, type SkippedWorktree } from './worktree/prune.js';
export { readWorktreeOwner, ownerState, type WorktreeOwner, type OwnerState } from './worktree/owner.js';
export { pinCommonGitDir } from './worktree/pin-common.js';
export { importWorktreeCommits, UNPACK_LIMIT, type ImportedWork, type ImportTarget } from './worktree/import.js';
export { workerObjectEnv, harnessWorktreeEnv, worktreeGitDirs, readDetachedHead, PRIVATE_GITDIRS, type WorktreeGitDirs } from './worktree/git-env.js';

// Starting git through resident shells (for long-lived processes; see shell-launcher.ts).
export { createShellLauncher, type ShellLauncher } from './process/shell-launcher.js';
export { runProcess, type Launcher, type ProcessOptions, type ProcessResult } from './process/run.js';
export { sharedShellLauncher } from './process/shell-launcher.js';
// --- the read side: reads of committed revisions, history, diff, revert, tokens, change events ---
export { resolveRevision, parseDateSpec, MAX_REVISION_LENGTH } from './git/revision.js';
export { classifyCommit, classifyMove, type CommitFacts } from './read/writer.js';
export { WRITERS, WRITER_KINDS, mergeSubject, mergeWriter, identityWriter, type WriterKind, type MergingWriter } from './writers.js';
export { MemoryWatcher, type WatchOptions } from './read/watch.js';
export { renderFileView, renderDirectoryView, formatSize, VIEW_LIMITS, type ViewFile } from './read/view-format.js';
export type { MemoryReadApi } from './read/handle.js';
export type { ViewCallOptions } from './read/view.js';
export type { RevertResult } from './read/revert.js';
export type {
  ReadResult,
  ViewOptions,
  ViewResult,
  ListedFile,
  HistoryOptions,
  HistoryEntry,
  DiffOptions,
  DiffResult,
  TokensResult,
  MemoryUpdatedEvent,
} from './read/types.js';
export { SEARCH_LIMITS, SEARCH_MODES, INDEXED_EXTENSIONS, type SearchHit, type SearchOptions, type SearchMode } from './search/types.js';
// --- budgets, secrets and the validator's problems ---
export { DEFAULT_SYSTEM_BUDGET_TOKENS, estimateTokens, isSystemFile, systemUsage, type SystemUsage } from './blocks/budgets.js';
export { readSystemBudget, readSystemUsage, REPO_BUDGET_KEY } from './hooks/budget-config.js';
export { scanText, secretFingerprint, ALLOW_SECRET_MARKER, type SecretFinding } from './blocks/secrets.js';
export { allowSecrets, disallowSecrets, listAllowedSecrets, readAllowedSecrets } from './hooks/secret-allow.js';
export { formatProblem, problemCode } from './blocks/validate.js';
export { openMemoryDir, preCommitProblems, runMemoryDoctor } from './memory.js';
// --- kept branches resolved, and doctor ---
export { runDoctor, type DoctorReport, type DoctorCheckReport, type DoctorOptions } from './doctor/doctor.js';
export { DOCTOR_CHECK_NAMES, type DoctorCheckName } from './doctor/checks.js';
export type { MemoryConflicts, Resolution, ResolveResult, ProposalInfo, ProposeOptions, ProposeResult, ConflictDetail } from './conflicts/handle.js';
