/**
 * What the model is asked when it proposes a resolution: one conflicted file at a time, the three versions
 * in full, the answer the whole resolved file and nothing else. Pure.
 */

export const PROPOSE_SYSTEM = [
  "You resolve a merge conflict in an AI agent's memory: markdown files with YAML frontmatter.",
  'You get the common ancestor, the version on main ("ours") and the version on a kept branch ("theirs").',
  'Keep every fact from both sides unless one side clearly replaces the other; never invent facts.',
  'Keep the frontmatter valid and exactly one frontmatter block. Do not add conflict markers.',
  `Answer with the complete resolved file only: no explanation, no code fence. To delete the file, answer exactly ${'<<DELETE>>'}.`,
].join('\n');

export const DELETE_ANSWER = '<<DELETE>>';

function block(label: string, text: string | null): string {
  return text === null
    ? `### ${label}: (file absent)\n`
    : `### ${label}\n<<<BEGIN\n${text}${text.endsWith('\n') ? '' : '\n'}END>>>\n`;
}

/**
 * The user prompt for one path.
 * @example proposePrompt('notes/a.md', 'a\n', 'a\nb\n', 'a\nc\n').includes('### ours (main)')
 */
export function proposePrompt(path: string, base: string | null, ours: string | null, theirs: string | null): string {
  return [
    `File: ${path}`,
    block('base (common ancestor)', base),
    block('ours (main)', ours),
    block('theirs (kept branch)', theirs),
  ].join('\n');
}

/**
 * The file text of a model's answer: a wrapping code fence is removed, a final newline kept; null = delete.
 * @example answerText('```markdown\nx\n```') === 'x\n'
 */
export function answerText(answer: string): string | null {
  const trimmed = answer.trim();
  if (trimmed === DELETE_ANSWER) return null;
  const fenced = /^```[^\n]*\n([\s\S]*?)\n?```$/.exec(trimmed);
  const text = fenced ? (fenced[1] ?? '') : trimmed;
  return text.endsWith('\n') ? text : `${text}\n`;
}
