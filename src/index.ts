/**
 * gitmem's public API: explicit named exports only. Areas append their exports below.
 */
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
export { validateChanges, type FileChange } from './blocks/validate.js';
export { agentPaths, assertAgentId, type AgentPaths } from './memfs/layout.js';
export { normalizeMemoryPath } from './memfs/paths.js';
export { parsePatch, type PatchOp, type Hunk, type HunkLine } from './memfs/apply-patch/parse.js';
export { planPatch, type PatchFs, type PatchPlan } from './memfs/apply-patch/plan.js';
