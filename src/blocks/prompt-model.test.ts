// The incremental prompt parts against compilePrompt from scratch: seeded random adds, edits, deletes, renames
// and moves among system/ blocks, skill folders (SKILL.md coming and going), dot paths, paths compilePrompt
// cleans, broken frontmatter and summaries — compared after every step.
import { describe, expect, it } from 'vitest';
import { compileParts, compilePrompt, type CommittedFile } from './compile-prompt.js';
import { summarizeMarkdown } from './file-summary.js';
import { PromptModel } from './prompt-model.js';
import { LAYOUTS, layoutRow, type LayoutRow } from './layouts.js';
import { rng } from '../../test/helpers/rng.js';

const DIRS = [
  'system',
  'system/sub',
  'notes',
  'skills/a',
  'skills/a/ref',
  'skills/b-c',
  'skills/b',
  '.hidden',
  'x/.y',
  '',
];
const NAMES = ['persona.md', 'human.md', 'SKILL.md', 'MEMORY.md', 'a.md', 'B.md', 'n.txt', 'é.md', 'system'];
const ODD = ['./notes/a.md', 'notes\\a.md', '/top.md'];

function text(next: () => number, step: number): string {
  const roll = next();
  if (roll < 0.15) return `---\ndescription: [broken\n---\nbody ${step}\n`;
  if (roll < 0.3) return `no frontmatter ${step}\n`;
  const name = next() < 0.3 ? `name: skill ${step}\n` : '';
  const ro = next() < 0.2 ? 'read_only: true\n' : '';
  return `---\ndescription: text ${step}\n${name}${ro}---\n\nbody ${step}\n`;
}

/** A file as the read cache hands it over: core texts in full, other markdown as summaries. */
function asCommitted(path: string, content: string, next: () => number, layout: LayoutRow): CommittedFile {
  if (layout.isCore(path) || !path.endsWith('.md') || next() < 0.3) return { path, content };
  return { path, summary: summarizeMarkdown(content) };
}

function randomPath(next: () => number): string {
  if (next() < 0.04) return ODD[Math.floor(next() * ODD.length)] as string;
  const dir = DIRS[Math.floor(next() * DIRS.length)] as string;
  const name = NAMES[Math.floor(next() * NAMES.length)] as string;
  return dir === '' ? name : `${dir}/${name}`;
}

/** A root index of many lines, so that its budget (3 lines in the index layout's test row) cuts it. */
const longIndex = (step: number): string => Array.from({ length: 5 }, (_, i) => `- line ${i} of ${step}`).join('\n');

describe.each<[string, LayoutRow]>([
  ['system', LAYOUTS.system],
  ['index', layoutRow('index', { lines: 3, bytes: 10_000 })],
])('PromptModel (%s layout)', (_name, layout) => {
  it('compiles like compilePrompt from scratch after every random step (seeded)', () => {
    const text2 = (next: () => number, step: number, path: string): string =>
      path === 'MEMORY.md' && next() < 0.5 ? longIndex(step) : text(next, step);
    const asCommittedIn = (path: string, step: number, next: () => number): CommittedFile =>
      asCommitted(path, text2(next, step, path), next, layout);
    for (let seed = 1; seed <= 30; seed++) {
      const next = rng(seed);
      const model = new PromptModel(layout);
      const files = new Map<string, CommittedFile>();
      const treeLimits =
        seed % 2 === 0 ? { maxLines: 4 + (seed % 9), maxChars: 300, maxChildrenPerDir: 1 + (seed % 3) } : undefined;
      const options = {
        revision: `r${seed}`,
        ...(treeLimits ? { treeLimits } : {}),
        ...(seed % 5 === 0 ? { mode: 'standard' as const } : {}),
      };
      for (let step = 0; step < 80; step++) {
        const paths = [...files.keys()];
        const pick = paths[Math.floor(next() * paths.length)];
        const roll = next();
        if (roll < 0.5 || pick === undefined) {
          const path = randomPath(next);
          const file = asCommittedIn(path, step, next);
          model.set(file);
          files.set(path, file);
        } else if (roll < 0.65) {
          const file = asCommittedIn(pick, step, next);
          model.set(file);
          files.set(pick, file);
        } else if (roll < 0.85) {
          model.delete(pick);
          files.delete(pick);
        } else {
          const to = randomPath(next);
          const file = { ...(files.get(pick) as CommittedFile), path: to };
          model.delete(pick);
          files.delete(pick);
          model.set(file);
          files.set(to, file);
        }
        let expected: string;
        try {
          expected = compilePrompt([...files.values()], options, layout);
        } catch (err) {
          expected = `throws ${(err as Error).message}`;
        }
        const parts = model.parts();
        const got = parts === undefined ? expected : compileParts(parts, options);
        expect(got, `seed ${seed} step ${step}`).toBe(expected);
      }
    }
  });

  it('has no parts while a path compilePrompt would clean is present, and has them again once it goes', () => {
    const model = new PromptModel(layout);
    model.set({ path: 'notes\\a.md', content: 'x' });
    expect(model.parts()).toBeUndefined();
    model.delete('notes\\a.md');
    expect(model.parts()).toBeDefined();
  });
});
