/**
 * memory_apply_patch into attached shared repositories, as the memory tool is routed (wiring/shared.ts): a
 * patch whose every path is under `shared/<name>/` for an attached `<name>` lands in that repository's checkout
 * (one commit there with the reason, judged by its own hooks, validator and protected list), a read-only
 * attachment refuses it, and a patch that spans the agent's memory and a shared repository (or two shared
 * repositories) is refused whole before anything is read: one commit per repository, never a half-applied patch.
 */
import { MemoryError } from '../errors.js';
import { TOOL_LIMITS } from '../memfs/limits.js';
import { runApplyPatch } from '../memfs/apply-patch/run.js';
import { patchTargets, type PatchTarget } from '../memfs/apply-patch/targets.js';
import type { WriteDeps, WriteResult } from '../memfs/tool.js';
import { readAttachments, sharedCheckout, type SharedAttachment } from '../sync/shared.js';
import { sharedWriteDeps } from './shared.js';

/** The targets of the call's patch, or undefined when the call is not one to route (runApplyPatch refuses it). */
function targetsOf(call: unknown, memoryDir: string): PatchTarget[] | undefined {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return undefined;
  const args = call as Record<string, unknown>;
  const input = args['input'] ?? args['patch'];
  if (typeof input !== 'string' || input.length > TOOL_LIMITS.patchChars) return undefined;
  try {
    return patchTargets(input, memoryDir);
  } catch {
    return undefined; // a malformed patch: refused by the plan in its own words
  }
}

/** The attached repository a file is in (`shared/<name>/…`), or undefined for the agent's own memory. */
function repositoryOf(file: string, attached: readonly SharedAttachment[]): SharedAttachment | undefined {
  const m = /^shared\/([^/]+)\/./.exec(file);
  return m ? attached.find((a) => a.name === m[1]) : undefined;
}

/**
 * Runs a memory_apply_patch call in the attached shared repository its paths name; undefined when they name
 * none (the agent's own memory takes it).
 * @example (await routeSharedPatch(deps, { home, agentId }, call)) ?? (await runApplyPatch(deps, call))
 */
export async function routeSharedPatch(
  deps: WriteDeps,
  o: { home: string; agentId: string | undefined },
  call: unknown,
): Promise<WriteResult | undefined> {
  if (o.agentId === undefined) return undefined;
  const attached = readAttachments(o.home, o.agentId);
  if (attached.length === 0) return undefined;
  const targets = targetsOf(call, deps.memoryDir);
  if (targets === undefined) return undefined;
  const repos = new Set(targets.map((t) => repositoryOf(t.file, attached)));
  const shared = [...repos].filter((r) => r !== undefined);
  const name = shared[0]?.name;
  if (name === undefined) return undefined;
  if (repos.size > 1) {
    const where = [...repos].map((r) => (r === undefined ? "the agent's memory" : `shared/${r.name}/`));
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `memory_apply_patch: a patch cannot span two repositories (${where.join(' and ')}); send one patch per repository`,
    );
  }
  if (shared[0]?.readOnly === true)
    throw new MemoryError(
      'READ_ONLY',
      `memory_apply_patch: shared repository ${name} is attached read-only to this agent`,
    );
  const route = { memoryDir: deps.memoryDir, within: `shared/${name}` };
  return runApplyPatch(sharedWriteDeps(deps, sharedCheckout(o.home, o.agentId, name)), call, route);
}
