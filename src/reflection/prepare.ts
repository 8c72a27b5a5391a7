/**
 * The launch half of a reflection run: refuse a dirty parent and an empty payload
 * before anything is created, then make the private worktree, write the payload file beside it and build
 * both prompts (snapshot fitted to its budget).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GitRunner } from '../git/runner.js';
import { agentPaths } from '../memfs/layout.js';
import { readCommittedSnapshot, type CommittedSnapshot } from '../read/read-revision.js';
import { DEFAULT_TREE_LIMITS } from '../blocks/tree-limits.js';
import { createMemoryWorktree, worktreeName, type MemoryWorktree } from '../worktree/create.js';
import { discardWorktree } from '../worktree/cleanup.js';
import { dirtyPaths } from '../worktree/inspect.js';
import { materializePaths } from '../worktree/materialize.js';
import { markReflectionStarted, unreflectedSlice } from './cursor.js';
import { buildTaskPrompt, systemPromptFor } from './prompts.js';
import type { ReflectionRunOptions, ReflectionSkipped } from './run-types.js';
import { assertReflectionSandbox } from './shell.js';
import { buildParentSnapshot, shrinkSnapshot, type ParentSnapshot } from './snapshot.js';
import { buildTranscriptPayload } from './transcripts-payload.js';

/** System prompt + task message are capped together at ~16k estimated tokens (4 characters each). */
const PROMPT_CHAR_CAP = 64_000;
/** Payloads up to this size are also inlined in the task message. */
const INLINE_PAYLOAD_CAP = 24_000;

/** Everything the run needs once the worktree exists. */
export interface PreparedReflection {
  wt: MemoryWorktree;
  agentDir: string;
  payloadPath: string;
  payloadChars: number;
  lines: { from: number; to: number };
  system: string;
  prompt: string;
  snapshot?: ParentSnapshot['stats'];
}

type Gate = { skip: ReflectionSkipped } | { payload: string; lines: { from: number; to: number } };

/** Parent clean? Anything new to reflect on? (No worktree, no directory is created here.) */
async function gateReflection(o: ReflectionRunOptions, memoryDir: string, agentDir: string): Promise<Gate> {
  const conversationId = o.conversationId;
  // A multi run does not pre-check the parent (B10.23): finalize refuses a dirty parent as `parent_dirty`.
  if (o.multi) return { payload: o.multi.payload, lines: { from: 0, to: 0 } };
  if ((await dirtyPaths(o.git, memoryDir)).length > 0) {
    return {
      skip: {
        launched: false,
        reason: 'parent_dirty',
        conversationId,
        message: 'Parent memory has uncommitted changes; commit or discard them before reflecting.',
      },
    };
  }
  const slice = unreflectedSlice(agentDir, conversationId);
  const messages = buildTranscriptPayload(slice.rows);
  if (messages.length <= 1) {
    return {
      skip: {
        launched: false,
        reason: 'no_payload',
        conversationId,
        message: 'No new transcript content to reflect on.',
      },
    };
  }
  return { payload: JSON.stringify(messages, null, 1), lines: { from: slice.startLine, to: slice.endLine } };
}

function topLevelDirs(snap: CommittedSnapshot): string[] {
  return [...new Set(snap.paths.filter((p) => p.includes('/')).map((p) => p.split('/')[0] as string))];
}

/**
 * Creates the worktree with every directory of HEAD checked out (a reflection or a defrag may touch any), and
 * reads the snapshot at its base.
 * @example const { wt, snap } = await makeFullWorktree(git, memoryDir, 'defrag')
 */
export async function makeFullWorktree(
  git: GitRunner,
  memoryDir: string,
  kind: 'reflection' | 'defrag' = 'reflection',
): Promise<{ wt: MemoryWorktree; snap: CommittedSnapshot }> {
  const before = await readCommittedSnapshot(git, memoryDir);
  const wt = await createMemoryWorktree({ memoryDir, kind, git, paths: topLevelDirs(before) });
  try {
    const snap = before.revision === wt.baseHead ? before : await readCommittedSnapshot(git, memoryDir, wt.baseHead);
    if (snap !== before) await materializePaths(wt, topLevelDirs(snap), git);
    return { wt, snap };
  } catch (err) {
    await discardWorktree(wt, git).catch(() => undefined);
    throw err;
  }
}

function buildPrompts(o: ReflectionRunOptions, snap: CommittedSnapshot, payload: string, reviewed: string) {
  const system = o.systemPrompt ?? systemPromptFor('reflection');
  const trailer = `Reviewed-Transcript: ${reviewed}`;
  if (o.taskPrompt !== undefined) return { system, prompt: o.taskPrompt };
  const files = snap.paths
    .filter((p) => snap.markdown.has(p))
    .map((p) => ({ path: p, content: snap.markdown.get(p) ?? '' }));
  const parent = buildParentSnapshot(files, {
    treeLimits: o.treeLimits ?? DEFAULT_TREE_LIMITS,
    ...(o.snapshotBudget ? { budget: o.snapshotBudget } : {}),
  });
  const base = {
    reviewed,
    trailer,
    payloadChars: payload.length,
    ...(payload.length <= INLINE_PAYLOAD_CAP ? { inlinePayload: payload } : {}),
    instruction: o.instruction,
  };
  const fixed = system.length + buildTaskPrompt({ ...base, snapshot: '' }).length;
  let prompt = buildTaskPrompt({ ...base, snapshot: shrinkSnapshot(parent, fixed, PROMPT_CHAR_CAP) });
  if (system.length + prompt.length > PROMPT_CHAR_CAP && base.inlinePayload !== undefined) {
    const { inlinePayload: _dropped, ...rest } = base;
    prompt = buildTaskPrompt({ ...rest, snapshot: shrinkSnapshot(parent, fixed - payload.length, PROMPT_CHAR_CAP) });
  }
  return { system, prompt, snapshot: parent.stats };
}

/**
 * Gates, then prepares the worktree, payload file and prompts; a skip is returned, never thrown.
 * @example const p = await prepareReflection(o); if ('skip' in p) return p.skip;
 */
export async function prepareReflection(
  o: ReflectionRunOptions,
): Promise<{ skip: ReflectionSkipped } | PreparedReflection> {
  const { agentDir, memoryDir } = agentPaths(o.home, o.agentId);
  const gate = await gateReflection(o, memoryDir, agentDir);
  if ('skip' in gate) return gate;
  mkdirSync(join(agentDir, 'memory-worktrees'), { recursive: true });
  assertReflectionSandbox({
    gitmemHome: o.home,
    agentId: o.agentId,
    memoryDir,
    env: o.env,
    onWarning: o.onWarning,
  });
  const { wt, snap } = await makeFullWorktree(o.git, memoryDir);
  try {
    const payloadPath = join(wt.worktreeBaseDir, `${worktreeName(wt)}.transcript.json`);
    writeFileSync(payloadPath, gate.payload);
    const started = o.multi ? o.multi.advance.map((a) => a.conversationId) : [o.conversationId];
    for (const id of started) markReflectionStarted(agentDir, id, o.clock);
    const reviewed = o.multi?.reviewed ?? `${o.conversationId} lines ${gate.lines.from}-${gate.lines.to}`;
    const prompts = buildPrompts(o, snap, gate.payload, reviewed);
    return { wt, agentDir, payloadPath, payloadChars: gate.payload.length, lines: gate.lines, ...prompts };
  } catch (err) {
    await discardWorktree(wt, o.git).catch(() => undefined);
    throw err;
  }
}
