import { describe, expect, it } from 'vitest';
import { parseHistory } from './history.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('history parse', () => {
  it('reads commits, renames and messages holding separator-like bytes', () => {
    const out = `\x1e${A}\0${B}\0${'2025-01-02T00:00:00+00:00'}\0Ann\0ann@x\0why \x1e${B} M\n\n\0\nR100\0old.md\0M\0\x1e${B}\0\0d\0Bob\0b@x\0first\n\0\nA\0M\0`;
    const [one, two] = parseHistory(out);
    expect(one).toMatchObject({ sha: A, parents: [B], author: 'Ann', message: `why \x1e${B} M` });
    expect(one?.files).toEqual([{ status: 'R', oldPath: 'old.md', path: 'M' }]);
    expect(two).toMatchObject({ sha: B, parents: [], files: [{ status: 'A', path: 'M' }] });
  });
});
