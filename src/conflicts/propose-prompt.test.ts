import { describe, expect, it } from 'vitest';
import { answerText, proposePrompt } from './propose-prompt.js';

describe('answerText / proposePrompt', () => {
  it('unwraps one code fence, keeps a final newline, and reads the delete answer', () => {
    expect(answerText('```markdown\n---\ndescription: d\n---\nx\n```')).toBe('---\ndescription: d\n---\nx\n');
    expect(answerText('plain')).toBe('plain\n');
    expect(answerText('  <<DELETE>>\n')).toBeNull();
  });
  it('puts all three versions in the prompt, an absent one named as such', () => {
    const p = proposePrompt('notes/a.md', null, 'ours\n', 'theirs\n');
    expect(p).toContain('### base (common ancestor): (file absent)');
    expect(p).toContain('### ours (main)\n<<<BEGIN\nours\nEND>>>');
  });
});
