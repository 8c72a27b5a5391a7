// The registry is the one list of commands: every place that names commands follows it (issue: CLI names
// lived in five places and the docs had drifted).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isServed, servedCall } from './daemon/eligible.js';
import { loadCommand } from './load-command.js';
import { COMMANDS, type CommandEntry } from './registry.js';
import { globalHelp } from './usage.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const NAMES = Object.keys(COMMANDS);
const ENTRIES = COMMANDS as Readonly<Record<string, CommandEntry>>;
const read = (path: string): string => readFileSync(`${ROOT}${path}`, 'utf8');

describe('the CLI registry', () => {
  it('every entry has a module exporting its command, and every command module has an entry', async () => {
    for (const name of NAMES) {
      const command = await loadCommand(name);
      expect(command.name).toBe(name);
      expect(typeof command.run).toBe('function');
      expect(command.usage.trim()).not.toBe('');
    }
    const modules = readdirSync(`${ROOT}src/cli/commands`).filter(
      (f) => f.endsWith('.ts') && /^export const command\b/m.test(read(`src/cli/commands/${f}`)),
    );
    expect(modules.map((f) => f.slice(0, -3)).sort()).toEqual([...NAMES].sort());
  });

  it('help lists every command exactly once, with its summary, in registry order', () => {
    const lines = globalHelp().split('\n');
    const listed = lines.slice(lines.indexOf('Commands:') + 1, lines.indexOf('', lines.indexOf('Commands:')));
    expect(listed).toEqual(NAMES.map((name) => `  ${name.padEnd(12)} ${ENTRIES[name]?.summary}`));
  });

  it("the daemon serves exactly the registry's served commands", () => {
    for (const name of NAMES) {
      expect(servedCall([name], {}) !== undefined, name).toBe(ENTRIES[name]?.served === true);
    }
    expect(isServed('hook', ['claude-code', 'turn-end'])).toBe(true);
    expect(isServed('hook', ['codex', 'reflect'])).toBe(false);
    // Claude Code's auto-memory hooks run on every session start and every Write/Edit: the fast path too.
    for (const event of ['auto-memory-start', 'pre-write', 'post-write'])
      expect(isServed('hook', ['claude-code', event]), event).toBe(true);
  });

  it("the bundle splits out exactly the registry's heavy commands", () => {
    const dir = `${ROOT}dist/bin/esm/cli/commands`;
    if (!existsSync(dir)) return; // no build here; `npm test` builds first
    const heavy = NAMES.filter((name) => ENTRIES[name]?.heavy === true).sort();
    expect(
      readdirSync(dir)
        .filter((f) => f.endsWith('.js'))
        .map((f) => f.slice(0, -3))
        .sort(),
    ).toEqual(heavy);
  });

  it('docs/cli.md lists every command, and the daemon section its served ones', () => {
    const doc = read('docs/cli.md');
    for (const name of NAMES) expect(doc, name).toMatch(new RegExp(`\\| [^\\n]*\`gitmem ${name}[\\s\`]`));
    for (const [, name] of doc.matchAll(/^\| `gitmem ([\w-]+)/gm)) expect(NAMES).toContain(name);
    const quick = /the quick commands \(([^)]*)\)/.exec(doc)?.[1] ?? '';
    const documented = [...new Set([...quick.matchAll(/`([\w-]+)/g)].map((m) => m[1]))].sort();
    expect(documented).toEqual(NAMES.filter((name) => ENTRIES[name]?.served !== undefined).sort());
  });

  it("README's CLI at a glance has each command's summary", () => {
    const block = /## CLI at a glance\n\n```text\n([\s\S]*?)```/.exec(read('README.md'))?.[1] ?? '';
    const lines = block
      .trim()
      .split('\n')
      .map((l) => /^gitmem (\S+)\s+(.*)$/.exec(l))
      .map((m) => [m?.[1], m?.[2]]);
    expect(Object.fromEntries(lines)).toEqual(Object.fromEntries(NAMES.map((name) => [name, ENTRIES[name]?.summary])));
  });
});
