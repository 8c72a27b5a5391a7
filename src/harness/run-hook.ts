/**
 * `gitmem hook <harness> <event>`: one entry for every hook a harness runs. A hook never breaks the harness:
 * whatever goes wrong, it exits 0 with one line on standard error and an entry in the agent's run log (when
 * the agent is known); the part of a transcript it could not handle is still owed, and the next run takes it.
 */
import { spawnDetached } from '../process/detached.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createMemory, MemoryError, type Memory } from '../index.js';
import {
  agentPaths,
  appendRunLog,
  packageRoot,
  resolveReflectionSettings,
  type GitmemConfig,
  type Launcher,
} from '../internals.js';
import type { HarnessId } from './catalogue.js';
import type { HookEvent } from './hook-events.js';
import { parseHookInput, type HookInput } from './hook-input.js';
import { commitStray, postWrite, preWrite } from './auto-memory-hooks.js';
import { agentForProject } from './projects.js';
import { reflectPending } from './reflect-pending.js';
import { sessionStartOutput } from './session-start.js';
import { turnEnd } from './turn-end.js';

export interface HookRun {
  harness: HarnessId;
  event: HookEvent;
  config: GitmemConfig;
  /** `--agent`, when given. */
  agent: string | undefined;
  env: Record<string, string | undefined>;
  cwd: string;
  stdin: () => Promise<string>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  launch?: Launcher | undefined;
}

/** The model reflections would use: GITMEM_MODEL, else the config file's. */
function modelConfigured(config: GitmemConfig): boolean {
  return config.model.spec !== undefined || typeof config.file().model === 'string';
}

/** Starts `gitmem hook <harness> reflect` detached: its own session, output appended to the agent's job log. */
function launchJob(h: HookRun, memory: Memory, agentDir: string): void {
  mkdirSync(join(agentDir, 'harness'), { recursive: true, mode: 0o700 });
  const bin = join(packageRoot(), 'dist', 'bin', 'gitmem.cjs');
  const args = [bin, 'hook', h.harness, 'reflect', '--agent', memory.agentId ?? '', '--home', h.config.home];
  // A failed start is not reported: the job's absence shows as a part still owed.
  spawnDetached(process.execPath, args, { cwd: h.cwd, env: h.env, log: join(agentDir, 'harness', 'reflect.log') });
}

async function open(h: HookRun, input: HookInput): Promise<{ memory: Memory; agentDir: string }> {
  const agentId = h.agent ?? agentForProject(h.config.home, input.cwd ?? h.cwd);
  const memory = await createMemory({
    config: h.config,
    agentId,
    launch: h.launch,
  });
  if (memory.agentId === undefined)
    throw new MemoryError('INVALID_ARGUMENT', 'the hook needs an agent: pass --agent or run `gitmem connect` with one');
  return { memory, agentDir: agentPaths(h.config.home, memory.agentId).agentDir };
}

async function dispatch(h: HookRun, input: HookInput, known: (dir: string) => void): Promise<void> {
  const { memory, agentDir } = await open(h, input);
  known(agentDir);
  const settings = resolveReflectionSettings({
    home: h.config.home,
    agentDir,
    projectDir: input.cwd,
  });
  const position = (event: 'turn-end' | 'session-end' | 'compaction') =>
    turnEnd({
      harness: h.harness,
      event,
      input,
      agentDir,
      settings,
      modelConfigured: modelConfigured(h.config),
      launch: () => launchJob(h, memory, agentDir),
    });
  if (h.event === 'pre-write') {
    const out = await preWrite(memory, input);
    if (out !== '') h.stdout(out);
  } else if (h.event === 'post-write') await postWrite(memory, input);
  else if (h.event === 'auto-memory-start') {
    // Claude Code loads the checkout's MEMORY.md itself: this hook only settles what no hook committed.
    await commitStray(memory);
    if (input.source === 'compact') position('compaction');
  } else if (h.event === 'session-start') {
    h.stdout(await sessionStartOutput(memory, { agentDir, modelConfigured: modelConfigured(h.config) }));
    if (input.source === 'compact') position('compaction');
  } else if (h.event === 'reflect') {
    await reflectPending({
      home: h.config.home,
      agentId: memory.agentId as string,
      agentDir,
      env: h.env,
      cwd: h.cwd,
      log: (l) => h.stderr(l),
    });
  } else position(h.event);
}

/**
 * Runs one hook; always resolves to exit code 0 (see the file comment).
 * @example process.exitCode = await runHook({ harness: 'claude-code', event: 'session-start', config, … })
 */
export async function runHook(h: HookRun): Promise<0> {
  let agentDir: string | undefined;
  try {
    const input = parseHookInput(await h.stdin());
    await dispatch(h, input, (dir) => (agentDir = dir));
  } catch (err) {
    const message =
      (err instanceof MemoryError ? `${err.code}: ${err.message}` : (err as Error).message).split('\n')[0] ?? '';
    h.stderr(`gitmem hook ${h.harness} ${h.event}: ${message}`);
    if (agentDir !== undefined) {
      try {
        appendRunLog(agentDir, {
          kind: 'harness-hook',
          startedAt: new Date().toISOString(),
          durationMs: 0,
          steps: 0,
          inputTokens: 0,
          outputTokens: 0,
          outcome: 'failed',
          model: '',
          harness: h.harness,
          event: h.event,
          error: message,
        });
      } catch {
        // the log is best effort: the hook still must not fail the harness
      }
    }
  }
  return 0;
}
