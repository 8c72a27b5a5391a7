/**
 * The sub-agent runtime driven by the AI SDK's mock model: a tool loop that edits files in its root, refuses
 * escapes, honours step/token/time limits and caller aborts, and records usage in the run log. The shell tool
 * runs through the real bubblewrap sandbox, proving the agent cannot write outside its worktree.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { appendRunLog, readRunLog } from '../../../src/reflection/run-log.js';
import { runSubAgent, type SubAgentStepInfo } from '../../../src/llm/sub-agent.js';
import type { ShellRunner } from '../../../src/llm/tool-set.js';
import { isMemoryError } from '../../../src/errors.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';

afterAll(cleanupTmp);

type Turn = { text: string } | { calls: { name: string; input: unknown }[] } | 'hang';

function usage(input: number, output: number): LanguageModelV3GenerateResult['usage'] {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

/** A scripted mock model; `prompts` records the tool results it was sent back. */
function scripted(turns: Turn[], perStep = { input: 100, output: 10 }) {
  let i = 0;
  const model = new MockLanguageModelV3({
    provider: 'mock',
    modelId: 'scripted',
    doGenerate: async (opts) => {
      const turn = turns[i++] ?? { text: 'done' };
      if (turn === 'hang') return new Promise<never>(() => undefined); // ignores the abort signal on purpose
      void opts;
      if ('text' in turn) {
        return {
          content: [{ type: 'text', text: turn.text }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: usage(perStep.input, perStep.output),
          warnings: [],
        };
      }
      return {
        content: turn.calls.map((c, k) => ({
          type: 'tool-call' as const,
          toolCallId: `c${i}-${k}`,
          toolName: c.name,
          input: JSON.stringify(c.input),
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: usage(perStep.input, perStep.output),
        warnings: [],
      };
    },
  });
  return model;
}

/** Tool results the model received, flattened to their text. */
function toolResults(model: MockLanguageModelV3): string[] {
  const out: string[] = [];
  const last = model.doGenerateCalls.at(-1);
  for (const m of last?.prompt ?? []) {
    if (m.role !== 'tool') continue;
    for (const part of m.content)
      if (part.type === 'tool-result' && part.output.type === 'text') out.push(part.output.value);
  }
  return out;
}

function worktree() {
  const base = makeTmpDir('gitmem-sub-');
  const root = join(base, 'memory-worktrees', 'reflection-1');
  mkdirSync(join(root, 'system'), { recursive: true });
  writeFileSync(join(root, 'system', 'human.md'), '---\ndescription: about the user\n---\nPrefers tabs.\n');
  return { base, root };
}

describe('runSubAgent with a scripted mock model', () => {
  it('runs the tool loop: reads, edits and writes inside its root, reports usage per step', async () => {
    const { root } = worktree();
    const model = scripted([
      {
        calls: [
          { name: 'read_file', input: { path: 'system/human.md' } },
          { name: 'list_dir', input: {} },
        ],
      },
      {
        calls: [
          {
            name: 'edit_file',
            input: {
              path: 'system/human.md',
              old_string: 'Prefers tabs.',
              new_string: 'Prefers tabs (2025-05-01: confirmed).',
            },
          },
        ],
      },
      {
        calls: [
          {
            name: 'write_file',
            input: { path: 'project/deploy.md', content: '---\ndescription: deploys\n---\nUse make ship.\n' },
          },
        ],
      },
      { calls: [{ name: 'grep', input: { pattern: 'make ship' } }] },
      { text: 'Updated human.md and added project/deploy.md.' },
    ]);
    const steps: SubAgentStepInfo[] = [];
    const run = await runSubAgent({
      model,
      system: 'sys',
      prompt: 'reflect',
      root,
      limits: { maxSteps: 10, timeoutMs: 10_000 },
      onStep: (s) => steps.push(s),
      maxRetries: 0,
    });
    expect(run).toMatchObject({
      text: 'Updated human.md and added project/deploy.md.',
      steps: 5,
      finishReason: 'stop',
      usage: { inputTokens: 500, outputTokens: 50, totalTokens: 550 },
    });
    expect(run.stoppedBy).toBeUndefined();
    expect(readFileSync(join(root, 'system/human.md'), 'utf8')).toContain('Prefers tabs (2025-05-01: confirmed).');
    expect(readFileSync(join(root, 'project/deploy.md'), 'utf8')).toContain('Use make ship.');
    expect(steps.map((s) => s.toolCalls.join(','))).toEqual([
      'read_file,list_dir',
      'edit_file',
      'write_file',
      'grep',
      '',
    ]);
    expect(toolResults(model).join('\n')).toContain('project/deploy.md:4: Use make ship.');
    expect(model.doGenerateCalls[0]?.tools?.map((t) => t.name).sort()).toEqual([
      'edit_file',
      'grep',
      'list_dir',
      'read_file',
      'write_file',
    ]);
  });

  it('returns escape attempts to the model as errors and changes nothing outside the root', async () => {
    const { base, root } = worktree();
    writeFileSync(join(base, 'outside.md'), 'untouched\n');
    const model = scripted([
      {
        calls: [
          { name: 'write_file', input: { path: '../../outside.md', content: 'pwned' } },
          { name: 'write_file', input: { path: join(base, 'new.md'), content: 'pwned' } },
          { name: 'edit_file', input: { path: '.git', old_string: 'x', new_string: 'y' } },
          { name: 'read_file', input: { path: '/etc/hostname' } },
        ],
      },
      { text: 'gave up' },
    ]);
    const run = await runSubAgent({
      model,
      system: 's',
      prompt: 'p',
      root,
      limits: { maxSteps: 5, timeoutMs: 10_000 },
      maxRetries: 0,
    });
    expect(run.steps).toBe(2);
    const results = toolResults(model);
    expect(results).toHaveLength(4);
    expect(results.slice(0, 2).every((r) => r.startsWith('Error [PATH_ESCAPE]'))).toBe(true);
    expect(results[2]).toMatch(/^Error \[INVALID_PATH\].*\.git/);
    expect(results[3]).toMatch(/^Error \[PATH_ESCAPE\]/);
    expect(readFileSync(join(base, 'outside.md'), 'utf8')).toBe('untouched\n');
    expect(existsSync(join(base, 'new.md'))).toBe(false);
  });

  it('stops at the step limit and at the token budget', async () => {
    const { root } = worktree();
    const loop: Turn[] = Array.from({ length: 20 }, () => ({ calls: [{ name: 'list_dir', input: {} }] }));
    const bySteps = await runSubAgent({
      model: scripted(loop),
      system: 's',
      prompt: 'p',
      root,
      limits: { maxSteps: 3, timeoutMs: 10_000 },
      maxRetries: 0,
    });
    expect(bySteps).toMatchObject({ steps: 3, stoppedBy: 'steps', finishReason: 'tool-calls' });
    const byTokens = await runSubAgent({
      model: scripted(loop, { input: 1000, output: 50 }),
      system: 's',
      prompt: 'p',
      root,
      limits: { maxSteps: 50, maxTotalTokens: 2500, timeoutMs: 10_000 },
      maxRetries: 0,
    });
    expect(byTokens).toMatchObject({ steps: 3, stoppedBy: 'tokens', usage: { totalTokens: 3150 } });
    const byOutput = await runSubAgent({
      model: scripted(loop, { input: 1, output: 50 }),
      system: 's',
      prompt: 'p',
      root,
      limits: { maxSteps: 50, maxOutputTokens: 100, timeoutMs: 10_000 },
      maxRetries: 0,
    });
    expect(byOutput).toMatchObject({ steps: 2, stoppedBy: 'tokens' });
  });

  it('the wall-clock limit wins the race even when the model never answers; a caller abort stops it too', async () => {
    const { root } = worktree();
    let t = 0;
    const started = Date.now();
    const run = await runSubAgent({
      model: scripted([{ calls: [{ name: 'list_dir', input: {} }] }, 'hang']),
      system: 's',
      prompt: 'p',
      root,
      limits: { maxSteps: 10, timeoutMs: 150 },
      clock: () => (t += 1000),
      maxRetries: 0,
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(run).toMatchObject({ steps: 1, stoppedBy: 'timeout', finishReason: 'aborted', durationMs: 1000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const aborted = await runSubAgent({
      model: scripted(['hang']),
      system: 's',
      prompt: 'p',
      root,
      limits: { maxSteps: 10, timeoutMs: 60_000 },
      signal: controller.signal,
    });
    expect(aborted).toMatchObject({ steps: 0, stoppedBy: 'abort' });
  });

  it('a provider failure throws MODEL_ERROR carrying the usage so far; runs are logged per agent', async () => {
    const { base, root } = worktree();
    let n = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        if (n++ === 0) {
          return {
            content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'list_dir', input: '{}' }],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage: usage(7, 3),
            warnings: [],
          };
        }
        throw new Error('upstream exploded');
      },
    });
    let caught: unknown;
    try {
      await runSubAgent({
        model,
        system: 's',
        prompt: 'p',
        root,
        limits: { maxSteps: 5, timeoutMs: 5000 },
        maxRetries: 0,
      });
    } catch (err) {
      caught = err;
    }
    expect(isMemoryError(caught, 'MODEL_ERROR')).toBe(true);
    expect((caught as Error).message).toContain('upstream exploded');
    expect(
      (caught as { data: { partial: { steps: number; usage: { totalTokens: number } } } }).data.partial,
    ).toMatchObject({ steps: 1, usage: { totalTokens: 10 } });

    const agentDir = join(base, 'agent');
    const entry = {
      kind: 'reflection',
      startedAt: '2025-01-01T00:00:00.000Z',
      durationMs: 12,
      steps: 1,
      inputTokens: 7,
      outputTokens: 3,
      outcome: 'failed',
      model: 'mock:scripted',
    };
    appendRunLog(agentDir, entry);
    appendRunLog(agentDir, { ...entry, outcome: 'merged' });
    expect(readRunLog(agentDir)).toEqual([entry, { ...entry, outcome: 'merged' }]);
  });
});

describe('shell tool through the real sandbox', { tags: ['sandbox'] }, async () => {
  const { confineCommand } = await import('../../../src/sandbox/launch.js');
  const { runConfined } = await import('../../../src/sandbox/run.js');

  it('the sub-agent cannot write outside its worktree via shell, but can inside it', async () => {
    const { base, root } = worktree();
    const onDisk = mkdtempSync(join('/var/tmp', 'gitmem-escape-')); // outside /dev and /tmp, which bwrap replaces
    const policy = {
      readonlyRoots: [],
      writableRoots: [root],
      deniedRoots: [],
      reopenedRoots: [],
      allowNetwork: false,
      privateTmp: true,
    };
    const shell: ShellRunner = async (command, o) => {
      const confined = confineCommand({
        command: ['/bin/sh', '-c', command],
        policy,
        env: { PATH: process.env['PATH'] },
        cwd: o.cwd,
      });
      const r = await runConfined(confined, {
        launch: sharedShellLauncher(),
        cwd: o.cwd,
        signal: o.signal,
        timeoutMs: o.timeoutMs,
      });
      return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
    };
    const model = scripted([
      {
        calls: [
          {
            name: 'shell',
            input: {
              command: `echo pwned > ${join(base, 'escaped.txt')}; echo pwned > ${join(onDisk, 'escaped.txt')}; echo kept > inside.txt; pwd`,
            },
          },
        ],
      },
      { text: 'done' },
    ]);
    const run = await runSubAgent({
      model,
      system: 's',
      prompt: 'p',
      root,
      shell,
      limits: { maxSteps: 4, timeoutMs: 20_000 },
      maxRetries: 0,
    });
    expect(run.steps).toBe(2);
    const [result] = toolResults(model);
    try {
      expect(result).toMatch(/Read-only file system|Permission denied|Directory nonexistent/);
      expect(result).toContain(root);
      expect(existsSync(join(base, 'escaped.txt'))).toBe(false);
      expect(existsSync(join(onDisk, 'escaped.txt'))).toBe(false);
      expect(readFileSync(join(root, 'inside.txt'), 'utf8')).toBe('kept\n');
    } finally {
      rmSync(onDisk, { recursive: true, force: true });
    }
  });
});
