/**
 * read_only protection, for the validator (validate.ts): which text makes a file protected (fail-closed), the
 * refusals of the read_only key and of listed files, and the operator's way past each. Apart from validate.ts
 * because the memory tool, the protected list and the merge ask these questions of a file directly, and the
 * format checks (validate-format.ts) share them.
 */
import {
  isRawReadOnlyValue,
  isReadOnlyValue,
  normalizeText,
  parseFrontmatterYaml,
  splitFrontmatter,
  type FrontmatterData,
} from './frontmatter.js';
import type { LayoutRow } from './layouts.js';
import type { Problem } from './validate-types.js';

/**
 * The operator's way past each protection refusal, named in the refusal itself (one line, the path left as
 * `<path>`: the refusal names the path at its start, and a hostile name is never pasted into a command).
 */
export const OPERATOR_HINTS = {
  write: 'an operator writes it with `gitmem protect write <path>`',
  unlock: 'an operator first rewrites it without read_only (`gitmem protect write <path>`)',
  unlist: 'an operator lifts that with `gitmem protect remove <path>`',
} as const;

/** How a check reports a problem about a path (findProblems collects them). */
export type Report = (path: string, message: string, extra?: Problem) => void;

/** The protected list, the paths whose protection is lifted for this change, and the layout's rules. */
export interface Rules {
  listed: ReadonlySet<string>;
  lifted: ReadonlySet<string>;
  layout: LayoutRow;
}

const READ_ONLY_LINE = /^\s*(["']?)read_only\1\s*:(.*)$/;

/**
 * True when a file's text makes it protected: its frontmatter has a `read_only` value that is not an explicit
 * false (see isReadOnlyValue). Fails closed: when the frontmatter cannot be parsed (invalid YAML, a duplicate
 * key, never closed), any `read_only:` line in it with such a value protects the file.
 * @example isProtectedText('---\ndescription: [x\nread_only: yes\n---\n') === true
 */
export function isProtectedText(text: string | null): boolean {
  if (text === null) return false;
  const split = splitFrontmatter(text);
  if (split.kind === 'none') return false;
  let lines: string;
  if (split.kind === 'ok') {
    try {
      return isReadOnlyValue(parseFrontmatterYaml(split.yamlText)['read_only']);
    } catch {
      lines = split.yamlText;
    }
  } else {
    lines = normalizeText(text).slice(4); // unclosed: everything after the opening ---
  }
  return lines.split('\n').some((line) => {
    const m = READ_ONLY_LINE.exec(line);
    return m !== null && isRawReadOnlyValue(m[2] ?? '');
  });
}

/** The frontmatter a file had at HEAD, or null (none, or not parseable). */
export function headData(headContent: string | null): FrontmatterData | null {
  if (headContent === null) return null;
  const split = splitFrontmatter(headContent);
  if (split.kind !== 'ok') return null;
  try {
    return parseFrontmatterYaml(split.yamlText);
  } catch {
    return null;
  }
}

/** The refusal of an agent's change to the read_only key itself. */
export const fieldRefusal = (verb: string): string =>
  `'read_only' is a protected field and cannot be ${verb} by the agent; ${OPERATOR_HINTS.write}`;

/** The agent may not set, change or remove the read_only key (compared with the file at HEAD). */
export function checkReadOnlyKey(
  path: string,
  data: FrontmatterData,
  head: FrontmatterData | null,
  report: Report,
): void {
  const has = Object.hasOwn(data, 'read_only');
  const headHas = head !== null && Object.hasOwn(head, 'read_only');
  if (has && !headHas) {
    report(path, fieldRefusal('set'));
  } else if (has && headHas && JSON.stringify(data['read_only']) !== JSON.stringify(head['read_only'])) {
    report(path, fieldRefusal('changed'));
  } else if (!has && headHas) {
    report(path, fieldRefusal('removed'));
  }
}

/** The refusal of a change to a path on the protected list. */
export function listedMessage(verb: string, hint: string): string {
  return `protected (gitmem recorded it as read_only) and cannot be ${verb}; ${hint}`;
}
