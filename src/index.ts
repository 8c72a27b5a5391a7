/**
 * `gitmem`: the front door. A harness opens one handle with {@link createMemory} and does everything
 * through it — writes, reads, search, sync, workers, reflection. This file is the whole stable surface
 * (explicit named exports only; keep it small). Building blocks live in `gitmem/internals` (unstable);
 * harness adapters in their own subpaths, so importing `gitmem` loads no model or MCP SDK.
 *
 * @example
 *   import { createMemory, initMemory } from 'gitmem';
 *   await initMemory({ agentId: 'ada' });
 *   const memory = await createMemory({ agentId: 'ada' });
 *   await memory.tool({ command: 'create', file_path: 'notes/tea.md', description: 'Drinks', file_text: 'green tea\n', reason: 'Ada likes tea' });
 *   const system = await memory.compilePrompt();
 */

// --- opening and making memories ---
export {
  createMemory,
  initMemory,
  cloneMemory,
  listAgents,
  listPersonalities,
  runPreCommitCheck,
  type Memory,
  type MemoryOptions,
  type MemoryStatus,
  type MemorySyncOptions,
  type MirrorSetResult,
  type MirrorStatus,
  type WorkerTask,
  type MemoryReflectionOptions,
  type MemoryDreamOptions,
  type InitOptions,
  type CloneMemoryOptions,
} from './memory.js';
export type { InitResult } from './memfs/init.js';
export type { CloneResult } from './sync/clone.js';
export type { Identity } from './identity.js';

// --- configuration ---
export { loadConfig, VARIABLES, type GitmemConfig, type LoadConfigOptions } from './config.js';

// --- errors ---
export { MemoryError, isMemoryError, type MemoryErrorCode } from './errors.js';

// --- the memory tool's schemas (for a harness that declares the tools itself) ---
export { memoryToolSchema, applyPatchToolSchema } from './memfs/tool-schema.js';
export type { WriteResult } from './memfs/tool.js';

// --- the prompt ---
export { listPresets, MEMORY_MODES, type MemoryMode } from './blocks/presets.js';

// --- the read side and search ---
export type { HistoryEntry, ViewResult, DiffResult, MemoryUpdatedEvent } from './read/types.js';
export type { SearchHit, SearchOptions } from './search/types.js';

// --- sync ---
export { CONFLICT_POLICY_NAMES } from './sync/conflict-policy.js';
export type { SyncResult, ConflictPolicy } from './sync/types.js';
export type { KeptBranch, KeptBranchDetail } from './sync/conflicts.js';
export type { RemoteInfo } from './sync/remote.js';
export type { MirrorPushResult } from './sync/mirror.js';

// --- background writers ---
export type { MemoryWorkerOutcome, MemoryWorkerBody, MemoryWorkerContext } from './worktree/worker-types.js';
export type { MemoryWorkerHandle } from './worktree/worker.js';
export type { PruneResult } from './worktree/prune.js';

// --- reflection and dream ---
export {
  createReflectionHarness,
  runDream,
  type CreateReflectionHarnessOptions,
  type RunDreamOptions,
} from './memory.js';
export type { ReflectionHarness, HarnessOutcome } from './reflection/harness.js';
export { dreamExitCode, type DreamResult } from './reflection/dream-types.js';
export type { TranscriptRowInput } from './reflection/transcripts.js';
