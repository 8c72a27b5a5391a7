import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { resolveScope, runWithAgent } from './scope.js';

const home = '/h';

describe('memory scope resolution (runtime first)', () => {
  it('explicit agent id wins over everything', () => {
    const s = runWithAgent('ctx', () => resolveScope({ home, agentId: 'x', env: { GITMEM_MEMORY_DIR: '/m', GITMEM_AGENT_ID: 'e' } }));
    expect(s).toMatchObject({ memoryDir: '/h/agents/x/memory', source: 'explicit' });
  });
  it('the in-process context beats a stale MEMORY_DIR', () => {
    const s = runWithAgent('ctx', () => resolveScope({ home, env: { MEMORY_DIR: '/stale' } }));
    expect(s).toMatchObject({ memoryDir: '/h/agents/ctx/memory', source: 'context' });
  });
  it('then GITMEM_MEMORY_DIR, then MEMORY_DIR', () => {
    expect(resolveScope({ home, env: { GITMEM_MEMORY_DIR: '/a', MEMORY_DIR: '/b' } }).memoryDir).toBe('/a');
    expect(resolveScope({ home, env: { MEMORY_DIR: '/b' } }).memoryDir).toBe('/b');
  });
  it('then GITMEM_AGENT_ID, then AGENT_ID', () => {
    expect(resolveScope({ home, env: { GITMEM_AGENT_ID: 'g', AGENT_ID: 'a' } }).memoryDir).toBe('/h/agents/g/memory');
    expect(resolveScope({ home, env: { AGENT_ID: 'a' } }).memoryDir).toBe('/h/agents/a/memory');
  });
  it('otherwise a clear NO_MEMORY_DIR error', () => {
    let err: unknown;
    try {
      resolveScope({ home, env: {} });
    } catch (e) {
      err = e;
    }
    expect(isMemoryError(err, 'NO_MEMORY_DIR')).toBe(true);
    expect(String((err as Error).message)).toMatch(/GITMEM_AGENT_ID/);
  });
  it('rejects agent ids with path characters', () => {
    for (const bad of ['../x', 'a/b', '', '.hidden', 'a\0b']) {
      expect(() => resolveScope({ home, agentId: bad || ' x/ ', env: {} })).toThrow();
    }
  });
});
