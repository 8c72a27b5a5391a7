/**
 * The pre-commit hook's text, and which gitmem installs it names. One machine often has several installs (a
 * global CLI, a project's library, an `npx` cache), and a sandboxed writer sees only the install that
 * started it, so the hook lists every install that opened the repository and runs the first one whose hook
 * entry exists; with none left it fails with a one-line fix instead of "Cannot find module". Pure: rendering,
 * parsing and the choice of the list are plain functions of their inputs.
 */
import { CLIENT_FAIL, CLIENT_PASS, hookClientPerl } from './hook-client-script.js';

/** One gitmem install the hook can run: the Node binary that ran it and its hook entry (absolute paths). */
export interface HookInstall {
  node: string;
  entry: string;
}

/** At most this many installs are named (the preferred one and the latest others). */
export const MAX_HOOK_INSTALLS = 4;

const HEADER = '# gitmem pre-commit hook: enforces the memory format and read_only protection on every commit.';
const TRY = 'gitmem_try';

function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Shell text of the hook: each install on its own `gitmem_try '<node>' '<entry>'` line, preferred first.
 * @example preCommitScript([{ node: '/usr/bin/node', entry: '/opt/gitmem/dist/bin/pre-commit.cjs' }])
 */
export function preCommitScript(installs: readonly HookInstall[]): string {
  const looked = installs.map((i) => i.entry).join(', ');
  const fix = `gitmem pre-commit hook: no gitmem installation found (looked for ${looked || 'none'}); run any gitmem command (e.g. \`gitmem status\`) with the gitmem you use now to repair this hook`;
  return [
    '#!/bin/sh',
    HEADER,
    '# Managed by gitmem; rewritten when stale, so local edits are lost.',
    '# The gitmem installs that opened this repository, preferred first: the first whose hook entry exists runs',
    '# the check (a sandboxed writer sees only its own install). Node falls back to the one on PATH.',
    '# A running gitmem of that install answers first when one does (no Node start); else Node decides.',
    `gitmem_ask='${hookClientPerl()}'`,
    `${TRY}() {`,
    '  [ -f "$2" ] || return 0',
    '  if command -v perl >/dev/null 2>&1; then',
    '    perl -e "$gitmem_ask" -- "$2"',
    `    case $? in ${CLIENT_PASS}) exit 0 ;; ${CLIENT_FAIL}) exit 1 ;; esac`,
    '  fi',
    '  if [ -x "$1" ]; then exec "$1" "$2"; fi',
    '  exec node "$2"',
    '}',
    ...installs.map((i) => `${TRY} ${q(i.node)} ${q(i.entry)}`),
    `printf '%s\\n' ${q(fix)} >&2`,
    'exit 1',
    '',
  ].join('\n');
}

/**
 * The pre-commit hook of a confined writer, as a perl script (one process fewer than the shell hook): the same
 * client, asking the writer's channel; its verdict exits 0 or 1, and without one Node decides, as in the shell
 * hook. Only the install that started the writer is named: the only one its sandbox shows.
 * @example writeFileSync(join(hooksDir, 'pre-commit'), writerPreCommitScript('/usr/bin/perl', currentInstall()), { mode: 0o755 })
 */
export function writerPreCommitScript(perl: string, install: HookInstall): string {
  const pl = (s: string): string => `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;
  return [
    `#!${perl}`,
    HEADER,
    "# A confined writer's copy, made by its harness for this run only.",
    `my ($gitmem_node, $gitmem_entry) = (${pl(install.node)}, ${pl(install.entry)});`,
    '# A verdict exits 0 or 1; anything else (no answer, a perl error, a server gone mid-write) lets Node decide.',
    '$SIG{PIPE} = "IGNORE";',
    'END {',
    `  if ($? == ${CLIENT_PASS}) { $? = 0 } elsif ($? == ${CLIENT_FAIL}) { $? = 1 }`,
    '  else { exec { $gitmem_node } $gitmem_node, $gitmem_entry or exec "node", $gitmem_entry; $? = 1 }',
    '}',
    '@ARGV = ($gitmem_entry);',
    hookClientPerl(),
    '',
  ].join('\n');
}

/**
 * True for a pre-commit hook gitmem wrote (this form or an earlier one).
 * @example isGitmemHookText(preCommitScript([])) === true
 */
export function isGitmemHookText(text: string): boolean {
  return text.startsWith(`#!/bin/sh\n${HEADER}\n`);
}

const QUOTED = String.raw`'(?:[^']|'\\'')*'`;
const TRY_LINE = new RegExp(String.raw`^${TRY} (${QUOTED}) (${QUOTED})$`);

function unquote(s: string): string {
  return s.slice(1, -1).replace(/'\\''/g, "'");
}

/**
 * The installs a hook text names, in order; [] for any text gitmem did not write in this form.
 * @example parseHookInstalls(preCommitScript([a, b])) // [a, b]
 */
export function parseHookInstalls(text: string | null): HookInstall[] {
  if (text === null || !isGitmemHookText(text)) return [];
  const out: HookInstall[] = [];
  for (const line of text.split('\n')) {
    const m = TRY_LINE.exec(line);
    if (m?.[1] && m[2]) out.push({ node: unquote(m[1]), entry: unquote(m[2]) });
  }
  return out;
}

/**
 * Which installs the hook should name. A plain open keeps the recorded order (so two installs opening in turn
 * never rewrite it back and forth) and appends itself once; a confined writer's install goes first, since the
 * sandbox hides the others and the newest rules should judge its commits. Recorded installs that are gone
 * are dropped; a recorded Node that is gone is replaced by the current one for the same entry.
 * @example planHookInstalls([a], b, { preferSelf: false, usable: () => true }) // [a, b]
 */
export function planHookInstalls(
  recorded: readonly HookInstall[],
  self: HookInstall,
  o: { preferSelf: boolean; usable: (entry: string) => boolean; nodeExists?: (node: string) => boolean },
): HookInstall[] {
  const nodeExists = o.nodeExists ?? (() => true);
  const seen = new Set<string>();
  const kept: HookInstall[] = [];
  for (const r of recorded) {
    if (seen.has(r.entry) || !o.usable(r.entry)) continue;
    seen.add(r.entry);
    kept.push(r.entry === self.entry && !nodeExists(r.node) ? self : r);
  }
  const others = kept.filter((r) => r.entry !== self.entry);
  let list: HookInstall[];
  if (o.preferSelf) list = [self, ...others];
  else if (kept.length === 0) list = [self];
  else list = seen.has(self.entry) ? kept : [...kept, self];
  if (list.length <= MAX_HOOK_INSTALLS) return list;
  const [first, ...rest] = list as [HookInstall, ...HookInstall[]];
  return [first, ...rest.slice(-(MAX_HOOK_INSTALLS - 1))];
}
