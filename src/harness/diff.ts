/**
 * The `--dry-run` picture of a planned write: one hunk per file, the lines between the first and the last
 * difference marked `-` and `+`, with a little context. Our edits touch one region per event or block,
 * so a longest-common-subsequence diff would buy little here.
 */

const CONTEXT = 2;

/**
 * A unified-style diff of `before` → `after` (undefined: no file) under headers naming `path`.
 * @example lineDiff('/f', 'a\nb\n', 'a\nc\n') // '--- /f\n+++ /f\n@@ line 2 @@\n a\n-b\n+c\n'
 */
export function lineDiff(path: string, before: string | undefined, after: string | undefined): string {
  const a = before === undefined ? [] : splitLines(before);
  const b = after === undefined ? [] : splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail])
    tail += 1;
  const from = Math.max(0, head - CONTEXT);
  const out = [
    `--- ${before === undefined ? '/dev/null' : path}`,
    `+++ ${after === undefined ? '/dev/null' : path}`,
    `@@ line ${from + 1} @@`,
  ];
  for (const l of a.slice(from, head)) out.push(` ${l}`);
  for (const l of a.slice(head, a.length - tail)) out.push(`-${l}`);
  for (const l of b.slice(head, b.length - tail)) out.push(`+${l}`);
  for (const l of a.slice(a.length - tail, a.length - tail + CONTEXT)) out.push(` ${l}`);
  return `${out.join('\n')}\n`;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  else lines.push(`${lines.pop() ?? ''}\n\\ No newline at end of file`);
  return lines;
}
