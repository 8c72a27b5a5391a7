/**
 * Unified diffs (git's text) as rows for the diff view: file headers, hunk headers, added, removed and
 * context lines with their line numbers. Pure; the view renders each row as text.
 */
export interface DiffRow {
  kind: 'file' | 'hunk' | 'add' | 'del' | 'ctx' | 'meta';
  text: string;
  oldLine?: number;
  newLine?: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * @example parseUnifiedDiff('diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b\n').map((r) => r.kind) // ['file', 'hunk', 'del', 'add']
 */
export function parseUnifiedDiff(text: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      inHunk = false;
      rows.push({ kind: 'file', text: line.slice('diff --git '.length) });
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk) {
      inHunk = true;
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      rows.push({ kind: 'hunk', text: line });
      continue;
    }
    if (!inHunk) {
      if (line !== '' && !line.startsWith('index ') && !line.startsWith('--- ') && !line.startsWith('+++ '))
        rows.push({ kind: 'meta', text: line });
      continue;
    }
    if (line.startsWith('+')) rows.push({ kind: 'add', text: line.slice(1), newLine: newLine++ });
    else if (line.startsWith('-')) rows.push({ kind: 'del', text: line.slice(1), oldLine: oldLine++ });
    else if (line.startsWith(' '))
      rows.push({ kind: 'ctx', text: line.slice(1), oldLine: oldLine++, newLine: newLine++ });
    else if (line.startsWith('\\')) rows.push({ kind: 'meta', text: line });
    else if (line !== '') rows.push({ kind: 'meta', text: line });
  }
  return rows;
}
