// The README's MCP-over-HTTP harness example, run as written: the block after its marker is saved as an
// ES module in a temp project whose `gitmem` is this package (so `gitmem` and `gitmem/mcp` resolve through
// package.json "exports" to the built dist/), and must print the tool list.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { initMemory } from '../../../src/memory.js';
import { cleanupTmp, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const REPO = resolve(import.meta.dirname, '..', '..', '..');

/** The fenced block that follows `<!-- example: <name> … -->` in the README. */
function readmeExample(name: string): string {
  const text = readFileSync(join(REPO, 'README.md'), 'utf8');
  const m = new RegExp(`<!-- example: ${name}\\b[^>]*-->\\n\`\`\`js\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(text);
  if (!m) throw new Error(`README has no example ${name}`);
  return m[1] as string;
}

afterAll(() => cleanupTmp());

it('the README MCP-over-HTTP example runs as written and lists the memory tools', async () => {
  const code = readmeExample('mcp-http');
  expect(code.split('\n').length).toBeLessThanOrEqual(14);
  const home = makeTmpDir('gitmem-readme-http-');
  const env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
  await initMemory({ home, agentId: 'ada', env });
  const project = makeTmpDir('gitmem-readme-project-');
  mkdirSync(join(project, 'node_modules', '@modelcontextprotocol'), { recursive: true });
  symlinkSync(REPO, join(project, 'node_modules', 'gitmem'));
  symlinkSync(
    join(REPO, 'node_modules', '@modelcontextprotocol', 'sdk'),
    join(project, 'node_modules', '@modelcontextprotocol', 'sdk'),
  );
  writeFileSync(join(project, 'example.mjs'), code);
  const r = spawnSync(process.execPath, ['example.mjs'], { cwd: project, env, encoding: 'utf8', timeout: 30_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout.trim().split(' ')).toEqual(
    expect.arrayContaining(['memory', 'memory_apply_patch', 'memory_view', 'memory_search']),
  );
});
