// The palace and search on an index-layout repository (`gitmem init --layout index`): the core bar counts the
// layout's core (markdown directly in the root, MEMORY.md included; what `gitmem tokens` and the budget count),
// named as the layout names it; a system-layout agent beside it keeps system/. Search finds root core files,
// routing indexes and deferred topic files alike, with the topic files' descriptions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTmp } from '../../helpers/tmp.js';
import { palaceHome, startPalaceProcess, type PalaceHome, type RunningPalace } from '../../helpers/palace-fixture.js';

let h: PalaceHome;
let p: RunningPalace;

interface Core {
  label: string;
  tokens: number;
  budget: number;
  files: Array<{ path: string; tokens: number }>;
}

const api = async <T>(route: string): Promise<T> => {
  const r = await fetch(`${p.url}api/${route}`);
  expect(r.status).toBe(200);
  return (await r.json()) as T;
};

beforeAll(async () => {
  h = palaceHome(['sys']);
  h.cli(['init', '--agent', 'idx', '--layout', 'index']);
  const create = (path: string, description: string, text: string): string =>
    h.cli([
      'memory',
      'create',
      path,
      '--description',
      description,
      '--text',
      text,
      '--reason',
      'fact',
      '--agent',
      'idx',
    ]);
  create('facts.md', 'project facts', 'ROOTFACT the build uses make\n');
  create('lang/go.md', 'Go style rules', 'DEEPTOPIC gofmt everything\n');
  h.cli([
    'memory',
    'create',
    'lang/MEMORY.md',
    '--text',
    '- [Go](go.md): Go style\n',
    '--reason',
    'index',
    '--agent',
    'idx',
  ]);
  p = await startPalaceProcess(h, ['--agent', 'idx']);
}, 60_000);

afterAll(async () => {
  await p?.stop();
  cleanupTmp();
});

describe('the palace on the index layout', () => {
  it("the core bar holds the root's markdown (MEMORY.md too) and no deferred file, as `gitmem tokens` counts it", async () => {
    const core = (await api<{ system: Core }>('summary?agent=idx')).system;
    expect(core.label).toBe('root memory files');
    expect(core.files.map((f) => f.path).sort()).toEqual(['MEMORY.md', 'facts.md', 'human.md', 'persona.md']);
    expect(core.tokens).toBeGreaterThan(0);
    const counted = JSON.parse(h.cli(['tokens', '--json', '--agent', 'idx'])) as {
      total_tokens: number;
      files: unknown[];
    };
    expect(core).toMatchObject({ tokens: counted.total_tokens, files: counted.files });
  });

  it('a system-layout agent keeps system/ as its core', async () => {
    const core = (await api<{ system: Core }>('summary?agent=sys')).system;
    expect(core.label).toBe('system/');
    expect(core.files.map((f) => f.path).sort()).toEqual(['system/human.md', 'system/persona.md']);
  });

  it('search finds root core files and deferred topic files, with their descriptions', async () => {
    type Hits = { hits: Array<{ path: string; description?: string }> };
    expect((await api<Hits>('search?agent=idx&q=ROOTFACT')).hits).toEqual([
      expect.objectContaining({ path: 'facts.md', description: 'project facts' }),
    ]);
    expect((await api<Hits>('search?agent=idx&q=DEEPTOPIC')).hits).toEqual([
      expect.objectContaining({ path: 'lang/go.md', description: 'Go style rules' }),
    ]);
    expect((await api<Hits>('search?agent=idx&q=gofmt OR style')).hits.map((x) => x.path)).toContain('lang/MEMORY.md');
  });
});
