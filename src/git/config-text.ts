/**
 * The one reader of a git config file's text (what `git config` writes: `.git/config`), so an open, a hook
 * or a check needs no git process. It follows git's syntax: section and key names case-insensitive,
 * `[remote "origin"]` subsections case-sensitive (the old `[remote.origin]` form lower-cased), quoted values
 * with `\"`, `\\`, `\n`, `\t`, `\b` escapes, `\` line continuations, `#`/`;` comments, a key without `=`
 * (an implicit true: the empty string here). `include`/`includeIf` sections are NOT followed: `includes` says
 * that the file has one, so a caller that must be certain asks git instead.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One `key = value` line, names as git compares them (section and key lower-cased). */
export interface ConfigEntry {
  section: string;
  /** `origin` of `[remote "origin"]`; undefined for a bare `[core]`. */
  subsection?: string;
  key: string;
  value: string;
}

export interface ParsedConfig {
  entries: ConfigEntry[];
  /** Every section header, in order (a section can be empty). */
  sections: Array<{ section: string; subsection?: string }>;
  /** An `[include]` or `[includeIf …]` section: values may come from another file. */
  includes: boolean;
  /** Something git would refuse (an unclosed quote, a bad escape or header): the text is no sure answer. */
  malformed: boolean;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', b: '\b', '"': '"', '\\': '\\' };
const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v';

/** A value from just after `=` to its end of line (continuations joined); returns it and where parsing resumes. */
function parseValue(text: string, from: number): { value: string; next: number; ok: boolean } {
  let value = '';
  let pending = 0;
  let quoted = false;
  let i = from;
  for (; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\n') return { value, next: i + 1, ok: !quoted };
    if (!quoted && (c === '#' || c === ';')) {
      const eol = text.indexOf('\n', i);
      return { value, next: eol < 0 ? text.length : eol + 1, ok: true };
    }
    if (!quoted && isBlank(c)) {
      if (value !== '') pending++;
      continue;
    }
    if (c === '\\') {
      const e = text[++i];
      if (e === '\n') continue;
      if (e === '\r' && text[i + 1] === '\n') {
        i++;
        continue;
      }
      const esc = e === undefined ? undefined : ESCAPES[e];
      if (esc === undefined) return { value, next: skipLine(text, i), ok: false };
      value += ' '.repeat(pending) + esc;
      pending = 0;
      continue;
    }
    value += ' '.repeat(pending);
    pending = 0;
    if (c === '"') quoted = !quoted;
    else value += c;
  }
  return { value, next: i, ok: !quoted };
}

function skipLine(text: string, from: number): number {
  const eol = text.indexOf('\n', from);
  return eol < 0 ? text.length : eol + 1;
}

/** A `[section]`, `[section "sub"]` or `[section.sub]` header at `from` (its `[`), or null when malformed. */
function parseHeader(text: string, from: number): { section: string; subsection?: string; next: number } | null {
  const m = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\\n]|\\[^\n])*)")?\s*\]/.exec(text.slice(from, skipLine(text, from)));
  if (!m) return null;
  const name = (m[1] ?? '').toLowerCase();
  const next = from + m[0].length;
  if (m[2] !== undefined) return { section: name, subsection: m[2].replace(/\\(.)/g, '$1'), next };
  const dot = name.indexOf('.');
  return dot < 0 ? { section: name, next } : { section: name.slice(0, dot), subsection: name.slice(dot + 1), next };
}

/**
 * Every entry and section of a git config text, in file order. Pure.
 * @example parseGitConfig('[remote "origin"]\n\turl = /x\n').entries[0] // { section: 'remote', subsection: 'origin', key: 'url', value: '/x' }
 */
export function parseGitConfig(text: string): ParsedConfig {
  const out: ParsedConfig = { entries: [], sections: [], includes: false, malformed: false };
  let current: { section: string; subsection?: string } | undefined;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '\n' || isBlank(c)) i++;
    else if (c === '#' || c === ';') i = skipLine(text, i);
    else if (c === '[') {
      const h = parseHeader(text, i);
      if (!h) {
        out.malformed = true;
        current = undefined;
        i = skipLine(text, i);
        continue;
      }
      current = h.subsection === undefined ? { section: h.section } : { section: h.section, subsection: h.subsection };
      out.sections.push(current);
      if (h.section === 'include' || h.section === 'includeif') out.includes = true;
      i = h.next;
    } else {
      const m = /^([A-Za-z][A-Za-z0-9-]*)[ \t]*(=?)/.exec(text.slice(i, skipLine(text, i)));
      if (!m || !current) {
        out.malformed = true;
        i = skipLine(text, i);
        continue;
      }
      const key = (m[1] ?? '').toLowerCase();
      let value = '';
      if (m[2] === '=') {
        const v = parseValue(text, i + m[0].length);
        if (!v.ok) out.malformed = true;
        value = v.value;
        i = v.next;
      } else {
        const rest = text.slice(i + m[0].length, skipLine(text, i)).trim();
        if (rest !== '' && !/^[#;]/.test(rest)) out.malformed = true;
        i = skipLine(text, i);
      }
      out.entries.push({ ...current, key, value });
    }
  }
  return out;
}

/**
 * Every value of `section[.subsection].key` in a config text or its parse, in file order (git's last one wins).
 * Section and key match case-insensitively, the subsection exactly. Pure.
 * @example configValues('[merge "gitmem"]\n\tdriver = a\n', 'merge', 'driver', 'gitmem') // ['a']
 */
export function configValues(
  config: string | ParsedConfig,
  section: string,
  key: string,
  subsection?: string,
): string[] {
  const parsed = typeof config === 'string' ? parseGitConfig(config) : config;
  const s = section.toLowerCase();
  const k = key.toLowerCase();
  return parsed.entries
    .filter((e) => e.section === s && e.key === k && e.subsection === subsection)
    .map((e) => e.value);
}

/** The value git uses (the last one) of `section[.subsection].key`, or undefined. Pure. */
export function configValue(
  config: string | ParsedConfig,
  section: string,
  key: string,
  subsection?: string,
): string | undefined {
  return configValues(config, section, key, subsection).at(-1);
}

/** The last `[gitmem] <key>` value of a git config file's text: the reader of every `[gitmem]` key (fsync, budgetSystem, agentId). Pure. */
export function gitmemConfigValue(config: string, key: string): string | undefined {
  return configValue(config, 'gitmem', key);
}

/** The text of `<gitDir>/config`, or undefined when it cannot be read. */
export function readGitConfigText(gitDir: string): string | undefined {
  try {
    return readFileSync(join(gitDir, 'config'), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The value git uses of `section[.subsection].key` in `<gitDir>/config` (includes not followed), or undefined.
 * @example readGitConfigValue('/mem/.git', 'remote', 'url', 'origin') // 'https://host/me/mem.git'
 */
export function readGitConfigValue(
  gitDir: string,
  section: string,
  key: string,
  subsection?: string,
): string | undefined {
  const text = readGitConfigText(gitDir);
  return text === undefined ? undefined : configValue(text, section, key, subsection);
}
