import { configuredAgent } from '../config.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { errorCodeOf } from '../../test/helpers/errors.js';
import { cleanupTmp, makeTmpDir } from '../../test/helpers/tmp.js';
import { isMemoryError } from '../errors.js';
import { resolveInitAgent, resolveScope, runWithAgent } from './scope.js';

afterAll(cleanupTmp);

function homeWith(...agents: string[]): string {
  const h = makeTmpDir('gitmem-scope-');
  for (const a of agents) mkdirSync(join(h, 'agents', a, 'memory', '.git'), { recursive: true });
  mkdirSync(join(h, 'agents', 'not-a-repo'), { recursive: true }); // never counts as an agent
  return h;
}

const home = '/h';

describe('memory scope resolution (runtime first)', () => {
  it('explicit agent id wins over everything', () => {
    const s = runWithAgent('ctx', () =>
      resolveScope({
        home,
        agentId: 'x',
        configured: configuredAgent({ GITMEM_MEMORY_DIR: '/m', GITMEM_AGENT_ID: 'e' }),
      }),
    );
    expect(s).toMatchObject({ memoryDir: '/h/agents/x/memory', source: 'explicit' });
  });
  it('the in-process context beats a stale MEMORY_DIR', () => {
    const s = runWithAgent('ctx', () => resolveScope({ home, configured: configuredAgent({ MEMORY_DIR: '/stale' }) }));
    expect(s).toMatchObject({ memoryDir: '/h/agents/ctx/memory', source: 'context' });
  });
  it('then GITMEM_MEMORY_DIR, then MEMORY_DIR', () => {
    expect(
      resolveScope({ home, configured: configuredAgent({ GITMEM_MEMORY_DIR: '/a', MEMORY_DIR: '/b' }) }).memoryDir,
    ).toBe('/a');
    expect(resolveScope({ home, configured: configuredAgent({ MEMORY_DIR: '/b' }) }).memoryDir).toBe('/b');
  });
  it('then GITMEM_AGENT_ID, then AGENT_ID', () => {
    expect(resolveScope({ home, configured: configuredAgent({ GITMEM_AGENT_ID: 'g', AGENT_ID: 'a' }) }).memoryDir).toBe(
      '/h/agents/g/memory',
    );
    expect(resolveScope({ home, configured: configuredAgent({ AGENT_ID: 'a' }) }).memoryDir).toBe('/h/agents/a/memory');
  });
  it('otherwise a clear NO_MEMORY_DIR error', () => {
    let err: unknown;
    try {
      resolveScope({ home, configured: configuredAgent({}) });
    } catch (e) {
      err = e;
    }
    expect(isMemoryError(err, 'NO_MEMORY_DIR')).toBe(true);
    expect(String((err as Error).message)).toMatch(/GITMEM_AGENT_ID/);
  });
  it('rejects agent ids with path characters', () => {
    for (const bad of ['../x', 'a/b', '', '.hidden', 'a\0b']) {
      expect(() => resolveScope({ home, agentId: bad || ' x/ ', configured: configuredAgent({}) })).toThrow();
    }
  });
  it("then the home's only agent; with several, NO_MEMORY_DIR listing them", () => {
    const one = homeWith('solo');
    expect(resolveScope({ home: one, configured: configuredAgent({}) })).toMatchObject({
      agentId: 'solo',
      source: 'only-agent',
      memoryDir: join(one, 'agents/solo/memory'),
    });
    const two = homeWith('b', 'a');
    let err: unknown;
    try {
      resolveScope({ home: two, configured: configuredAgent({}) });
    } catch (e) {
      err = e;
    }
    expect(isMemoryError(err, 'NO_MEMORY_DIR') && err.data['agents']).toEqual(['a', 'b']);
    expect(String((err as Error).message)).toContain('(a, b)');
  });
  it('init: the same order without the memory-dir step, and "default" on a home without agents', () => {
    expect(resolveInitAgent({ home: homeWith(), configured: configuredAgent({ GITMEM_MEMORY_DIR: '/x' }) })).toBe(
      'default',
    );
    expect(resolveInitAgent({ home: homeWith('solo'), configured: configuredAgent({}) })).toBe('solo');
    expect(resolveInitAgent({ home: homeWith('solo'), configured: configuredAgent({ AGENT_ID: 'e' }) })).toBe('e');
    expect(
      runWithAgent('ctx', () => resolveInitAgent({ home: homeWith('a', 'b'), configured: configuredAgent({}) })),
    ).toBe('ctx');
    expect(errorCodeOf(() => resolveInitAgent({ home: homeWith('a', 'b'), configured: configuredAgent({}) }))).toBe(
      'NO_MEMORY_DIR',
    );
  });
  it('a home that is a regular file is HOME_UNUSABLE, not "no agents"', () => {
    const file = join(makeTmpDir('gitmem-scope-'), 'f');
    writeFileSync(file, 'x');
    expect(errorCodeOf(() => resolveScope({ home: file, configured: configuredAgent({}) }))).toBe('HOME_UNUSABLE');
  });
});
