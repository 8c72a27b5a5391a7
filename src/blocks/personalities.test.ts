import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { defaultMemoryFiles } from './defaults.js';
import { parseMemoryFile } from './frontmatter.js';
import { detectPersonality, getPersonality, listPersonalities } from './personalities.js';
import { composeMemoryFile, replaceBodyPreservingFrontmatter } from './replace-body.js';
import { validateChanges } from './validate.js';

describe('default memory files', () => {
  it('creates system/persona.md then system/human.md, both accepted by the commit rules', () => {
    const files = defaultMemoryFiles();
    expect(files.map((f) => f.path)).toEqual(['system/persona.md', 'system/human.md']);
    const changes = files.map((f) => ({
      status: 'added' as const,
      path: f.path,
      content: f.content,
      headContent: null,
    }));
    expect(validateChanges(changes)).toEqual([]);
    const human = parseMemoryFile(files[1]!.content);
    expect(String(human.data['description'])).toMatch(/person I work with/);
    expect(human.body).toMatch(/haven't got to know/);
    expect(defaultMemoryFiles()).toEqual(files);
  });
});

describe('personalities', () => {
  it('offers 4-6 lowercase presets with non-empty texts that pass the commit rules', () => {
    const all = listPersonalities();
    expect(all.map((p) => p.id)).toEqual(['memo', 'blank', 'tutor', 'stern', 'cheerful']);
    for (const p of all) {
      expect(p.id).toBe(p.id.toLowerCase());
      for (const part of [p.persona, p.human]) {
        expect(part.description.length, p.id).toBeGreaterThan(10);
        expect(part.body.length, p.id).toBeGreaterThan(40);
        expect(part.body).toBe(part.body.trim());
        expect(`${part.description} ${part.body}`).not.toMatch(/letta|claude|senpai/i);
      }
    }
    expect(new Set(all.map((p) => p.persona.body)).size).toBe(all.length);
    const changes = all.flatMap((p) =>
      (['persona', 'human'] as const).map((name) => ({
        status: 'added' as const,
        path: `system/${name}.md`,
        content: composeMemoryFile({ description: p[name].description }, p[name].body),
        headContent: null,
      })),
    );
    expect(validateChanges(changes)).toEqual([]);
  });

  it('memo is the init default, so applying it to a fresh repo changes nothing', () => {
    const memo = getPersonality('memo');
    for (const [file, part] of [
      [defaultMemoryFiles()[0]!, memo.persona],
      [defaultMemoryFiles()[1]!, memo.human],
    ] as const) {
      expect(replaceBodyPreservingFrontmatter(file.content, part.body, { description: part.description })).toBe(
        file.content,
      );
    }
  });

  it('resolves ids case-insensitively and aliases default → memo; unknown ids list the choices', () => {
    expect(getPersonality(' Tutor ').id).toBe('tutor');
    expect(getPersonality('default').id).toBe('memo');
    try {
      getPersonality('kawaii');
      expect.unreachable();
    } catch (err) {
      expect(isMemoryError(err, 'UNKNOWN_PERSONALITY')).toBe(true);
      expect((err as Error).message).toContain('memo, blank, tutor, stern, cheerful');
    }
  });

  it('applying a personality keeps frontmatter keys and is detected afterwards', () => {
    const persona = '---\ndescription: mine\nlimit: 3000\n---\nI am custom.\n';
    expect(detectPersonality(persona)).toBeNull();
    const stern = getPersonality('stern');
    const applied = replaceBodyPreservingFrontmatter(persona, stern.persona.body, {
      description: stern.persona.description,
    });
    expect(parseMemoryFile(applied).data).toEqual({ description: stern.persona.description, limit: 3000 });
    expect(detectPersonality(applied)).toBe('stern');
    expect(detectPersonality(defaultMemoryFiles()[0]!.content)).toBe('memo');
  });
});
