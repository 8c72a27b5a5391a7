/**
 * An in-memory repository and shorthands for planPatch's unit tests (src/memfs/apply-patch/plan*.test.ts).
 */
import { expect } from 'vitest';
import { MemoryError } from '../../src/errors.js';
import { planPatch, type PatchFs } from '../../src/memfs/apply-patch/plan.js';

export const DIR = '/srv/agents/a1/memory';
export const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');
export const memo = (description: string, body: string, extra = '') =>
  `---\ndescription: ${description}\n${extra}---\n${body}`;

/** An in-memory repository; `NOT_UTF8` content makes the reader throw like the real one does. */
export function repo(files: Record<string, string>): PatchFs & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    read(file) {
      reads.push(file);
      const content = files[file];
      if (content === 'NOT_UTF8') throw new MemoryError('NOT_UTF8', `failed to read ${file}: not UTF-8`);
      return content ?? null;
    },
  };
}

export function plan(files: Record<string, string>, ...lines: string[]) {
  return planPatch(patch(...lines), repo(files), { memoryDir: DIR });
}

export function failure(files: Record<string, string>, ...lines: string[]): MemoryError {
  try {
    plan(files, ...lines);
  } catch (err) {
    expect(err).toBeInstanceOf(MemoryError);
    return err as MemoryError;
  }
  throw new Error('expected planPatch to throw');
}
