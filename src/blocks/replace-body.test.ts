import { describe, expect, it } from 'vitest';
import { parseMemoryFile } from './frontmatter.js';
import { composeMemoryFile, replaceBodyPreservingFrontmatter } from './replace-body.js';
import { errorCodeOf } from '../../test/helpers/errors.js';

describe('replaceBodyPreservingFrontmatter', () => {
  it('keeps every key, puts description/limit/read_only first and writes blank line + trimmed body + newline', () => {
    const existing = '---\nowner: me\nread_only: false\nlimit: 500\ndescription: Old\n---\nold body\n';
    const out = replaceBodyPreservingFrontmatter(existing, '\n\n  new body\n\n');
    expect(out).toBe('---\ndescription: Old\nlimit: 500\nread_only: false\nowner: me\n---\n\nnew body\n');
  });

  it('overrides the description when one is given (collapsed to one line), not when blank', () => {
    const existing = '---\ndescription: Old\n---\nbody\n';
    expect(replaceBodyPreservingFrontmatter(existing, 'b', { description: 'New\nline' })).toBe(
      '---\ndescription: New line\n---\n\nb\n',
    );
    expect(replaceBodyPreservingFrontmatter(existing, 'b', { description: '  ' })).toBe(
      '---\ndescription: Old\n---\n\nb\n',
    );
  });

  it('round-trips through the real parser and is idempotent', () => {
    const existing =
      '\ufeff---\r\ndescription: "Tricky: value # with hash"\r\nlimit: 20\r\nempty:\r\ntags: [a, b]\r\n---\r\nold\r\n';
    const once = replaceBodyPreservingFrontmatter(existing, 'Line one\nLine two');
    const parsed = parseMemoryFile(once);
    expect(parsed.data).toEqual({ description: 'Tricky: value # with hash', limit: 20, empty: null, tags: ['a', 'b'] });
    expect(parsed.body).toBe('\nLine one\nLine two\n');
    expect(replaceBodyPreservingFrontmatter(once, 'Line one\nLine two')).toBe(once);
  });

  it('refuses files without (closed) frontmatter and empty bodies with stable codes', () => {
    expect(errorCodeOf(() => replaceBodyPreservingFrontmatter('just text\n', 'b'))).toBe('FRONTMATTER_INVALID');
    expect(errorCodeOf(() => replaceBodyPreservingFrontmatter('---\ndescription: x\n', 'b'))).toBe(
      'FRONTMATTER_INVALID',
    );
    expect(errorCodeOf(() => replaceBodyPreservingFrontmatter('---\n: : bad\n---\nb', 'b'))).toBe(
      'FRONTMATTER_INVALID',
    );
    expect(errorCodeOf(() => replaceBodyPreservingFrontmatter('---\ndescription: x\n---\nb', ' \n '))).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it('composeMemoryFile lays out a new file the same way', () => {
    expect(composeMemoryFile({ read_only: true, description: 'D' }, ' hi \n')).toBe(
      '---\ndescription: D\nread_only: true\n---\n\nhi\n',
    );
  });
});
