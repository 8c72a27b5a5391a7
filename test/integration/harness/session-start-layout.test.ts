// `gitmem hook claude-code|codex session-start` through the built CLI follows the repository's layout: for the
// index layout the context is Claude Code's rule — the root MEMORY.md first, its first 200 lines (the budget
// as configured), cut with Claude Code's own warning — plus the root core files and the deferred directories,
// as compilePrompt renders them; the system layout keeps system/ blocks and no deferred section.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliHome, type CliHome } from '../../helpers/cli.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

afterAll(() => cleanupTmp());

function context(h: CliHome, harness: 'claude-code' | 'codex'): string {
  const r = h.run(['hook', harness, 'session-start', '--agent', 'a1'], { input: '{}' });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout.trim().length).toBeLessThanOrEqual(10_000);
  const out = JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } };
  return out.hookSpecificOutput.additionalContext;
}

const entry = (i: number): string => `- [t${i}](lang/t${i}.md): topic ${i}`;

/** An index-layout agent whose root MEMORY.md has `lines` entry lines, committed through the hook. */
function indexAgent(lines: number): { h: CliHome; dir: string } {
  const h = cliHome('local');
  expect(h.run(['init', '--agent', 'a1', '--layout', 'index']).code).toBe(0);
  const dir = h.memoryDir('a1');
  git(dir, ['config', 'gitmem.budgetIndexLines', String(Math.max(200, lines + 10))]);
  writeFileSync(join(dir, 'MEMORY.md'), `${Array.from({ length: lines }, (_, i) => entry(i)).join('\n')}\n`);
  writeFileSync(join(dir, 'facts.md'), '---\nname: facts\ndescription: project facts\n---\nROOT-CORE-MARKER\n');
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'index and a root file']);
  const topic = h.run([
    ...['memory', 'create', 'lang/t0.md', '--agent', 'a1', '--description', 'topic zero'],
    ...['--text', 'DEFERRED-BODY-MARKER', '--reason', 'a topic'],
  ]);
  expect(topic.code, topic.stderr).toBe(0);
  return { h, dir };
}

describe('session-start per layout (CLI hook)', () => {
  it('index layout: MEMORY.md first, the root files, the deferred directories; the same for codex', () => {
    const { h } = indexAgent(3);
    const text = context(h, 'claude-code');
    expect(text).toContain('The root MEMORY.md index');
    expect(text).toContain('<MEMORY>\n    <projection>MEMORY.md</projection>');
    expect(text).toContain(entry(2));
    expect(text).toContain('ROOT-CORE-MARKER');
    expect(text).toContain('<self>\n<projection>persona.md</projection>');
    expect(text).toMatch(/<deferred-memory>\n.*\n<directory path="lang"( index="lang\/MEMORY\.md")?\/>/);
    expect(text).not.toContain('DEFERRED-BODY-MARKER');
    expect(text).not.toContain('system/');
    expect(context(h, 'codex')).toBe(context(h, 'claude-code'));
  });

  it("index layout: a MEMORY.md of 250 lines is cut at 200 with Claude Code's warning; the budget is configurable", () => {
    const { h, dir } = indexAgent(250);
    git(dir, ['config', 'gitmem.budgetIndexLines', '200']);
    const text = context(h, 'claude-code');
    expect(text).toContain(
      `${entry(199)}\n\n> WARNING: MEMORY.md is 250 lines (limit: 200). Only part of it was loaded:`,
    );
    expect(text).toContain(`50 of 250 lines were cut off, starting at line 201 ("${entry(200)}")`);
    expect(text).not.toContain(`${entry(200)}\n`);
    git(dir, ['config', 'gitmem.budgetIndexLines', '20']);
    expect(context(h, 'claude-code')).toContain(`${entry(19)}\n\n> WARNING: MEMORY.md is 250 lines (limit: 20).`);
  });

  it('system layout: system/ blocks, no deferred section and no index', () => {
    const h = cliHome('local', ['a1']);
    const text = context(h, 'claude-code');
    expect(text).toContain('Files under system/ are shown in full below');
    expect(text).toContain('<projection>system/persona.md</projection>');
    expect(text).not.toContain('<deferred-memory>');
    expect(text).not.toContain('MEMORY.md');
  });
});
