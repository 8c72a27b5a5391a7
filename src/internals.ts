/**
 * `gitmem/internals`: the building blocks under the `Memory` handle that gitmem's own entry points (the CLI, the
 * MCP server, the palace, the harness hooks), its tests and its benches use — nothing more (the front-door test
 * counts them). UNSTABLE: names and signatures here change between minor versions without notice; a harness
 * uses `gitmem` (index.ts). Explicit named exports only; the curated surface is re-exported too, so one import
 * can mix both.
 */
export * from './index.js';
export { MemoryError, isMemoryError, type MemoryErrorCode } from './errors.js';
export { createGitRunner, type GitRunner } from './git/runner.js';
export { redactText } from './git/redact.js';
export { tryParseMemoryFile } from './blocks/frontmatter.js';
export { validateChanges } from './blocks/validate.js';
export { agentPaths, assertAgentId } from './memfs/layout.js';
export { compilePrompt } from './blocks/compile-prompt.js';
export { renderTree } from './blocks/tree.js';
export { DEFAULT_TREE_LIMITS } from './blocks/tree-limits.js';
export {
  PROMPT_SURFACES,
  DEFAULT_PROMPT_SURFACE,
  surfaceWording,
  type PromptSurface,
} from './blocks/prompt-surfaces.js';
export { MODEL_SPEC_FORMS } from './llm/model-spec.js';
export { readGitmemConfig, checkGitmemConfig, configPath } from './llm/config.js';
export { readSystemBudget } from './hooks/budget-config.js';
export { appendRunLog, readRunLog } from './reflection/run-log.js';
export {
  appendTranscript,
  readTranscript,
  readNumberedTranscript,
  listConversations,
  type TranscriptRow,
} from './reflection/transcripts.js';
export { readCursor } from './reflection/cursor.js';
export { claudeSubagentFiles, parseClaudeCodeFrom } from './reflection/sources/claude-code.js';
export { parseCodexFrom } from './reflection/sources/codex.js';
export { packageRoot } from './assets.js';
export { syntheticConversationId, SOURCE_FORMS, type SourceType } from './reflection/sources/index.js';
export { buildMemoryWriterPolicy } from './sandbox/writer-policy.js';
export { confineCommand } from './sandbox/launch.js';
export { sandboxExec, type SandboxExecOptions, type SandboxExecResult } from './wiring/shell.js';
export { homeShared } from './wiring/shared-home.js';
// --- sync
export { type GitmemConfig } from './config.js';
export { showRemote } from './sync/remote.js';
export { syncMemory } from './sync/sync.js';
export { syncAfterTurn } from './sync/after-turn.js';
export { integrateWriters } from './sync/integrate-writers.js';
export type { SyncResult, SyncStatus, SyncOptions, ConflictPolicy } from './sync/types.js';
export {
  CONFLICT_POLICIES,
  CONFLICT_POLICY_NAMES,
  DEFAULT_CONFLICT_POLICY,
  parseConflictPolicy,
} from './sync/conflict-policy.js';
export { listKeptBranches, showKeptBranch, dropKeptBranch } from './sync/conflicts.js';
export { mirrorStatus } from './sync/mirror.js';
export { withMemoryOperation } from './git/lease.js';
export { mergeIntoCheckout } from './worktree/merge.js';
export type {
  MemoryWorkerTask,
  MemoryWorkerBody,
  MemoryWorkerContext,
  MemoryWorkerOutcome,
  MemoryWorkerStatus,
  MemoryWorkerType,
  MemoryWorkerDeps,
} from './worktree/worker-types.js';
// --- core
export { listHomeAgents } from './memfs/scope.js';
export { readCommittedSnapshot } from './read/read-revision.js';
export { serveDaemonHooks } from './hooks/hook-daemon.js';
export { preCommitEntry } from './hooks/install.js';
export { findPreCommitProblems } from './hooks/pre-commit.js';
export { readRepoLayout } from './hooks/layout-config.js';
export { type LayoutRow } from './blocks/layouts.js';
// --- reflection
export { resolveReflectionSettings, type ReflectionSettings } from './reflection/settings.js';
export {
  SETTINGS_SCHEMA,
  SETTINGS_SCOPES,
  settingSpec,
  settingsHelp,
  type SettingsScope,
} from './reflection/settings-schema.js';
export { getSetting, setSetting, unsetSetting, type SettingsPlace } from './reflection/settings-store.js';
export { decideReflection } from './reflection/triggers.js';
export type {
  ReflectionRunOptions,
  ReflectionResult,
  ReflectionCompleted,
  ReflectionSkipped,
  ReflectionStatus,
  ReflectionProgress,
  PendingIntegration,
} from './reflection/run-types.js';
export { dreamExitCode, type DreamResult } from './reflection/dream-types.js';
export type { DefragOptions, DefragResult, DefragStatus } from './reflection/defrag-types.js';

// Starting git through resident shells (for long-lived processes; see shell-launcher.ts).
export { createShellLauncher } from './process/shell-launcher.js';
export { runProcess, type Launcher } from './process/run.js';
// --- the read side
export { resolveRevision } from './git/revision.js';
export { WRITER_KINDS, type WriterKind } from './writers.js';
export { MemoryWatcher } from './read/watch.js';
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
export type { SearchOptions, SearchMode } from './search/types.js';
// --- the tool catalogue (what every surface lists, and the rules a call must fit)
export { TOOL_CATALOGUE, TOOL_NAMES, TOOLS_PROMPT_SURFACE, type ToolName, type ToolRow } from './tools/catalogue.js';
export { checkToolArguments, type ToolInputSchema } from './tools/arguments.js';
export { writeCommandList } from './blocks/memory-commands.js';
// --- budgets
export { estimateTokens } from './blocks/budgets.js';
export { scanText } from './blocks/secrets.js';
export { allowSecrets, disallowSecrets, listAllowedSecrets } from './hooks/secret-allow.js';
export { formatProblem, problemCode } from './blocks/validate.js';
export { openMemoryDir, handleGit, handleWiring, type HandleWiring } from './memory.js';
// --- kept branches resolved
export type {
  MemoryConflicts,
  Resolution,
  ResolveResult,
  ProposalInfo,
  ProposeOptions,
  ProposeResult,
  ConflictDetail,
} from './conflicts/handle.js';
