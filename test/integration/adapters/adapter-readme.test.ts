// The README's harness examples (library, Anthropic, AI SDK, MCP) as a harness author meets them: the packed
// tarball installed into a fresh project that depends itself on `ai`, `@ai-sdk/anthropic`, `@anthropic-ai/sdk`
// and `@modelcontextprotocol/sdk` at the newest versions this repository pins (the newest ai@6), each block
// type-checked by tsc against the installed package's declarations, then compiled and run as written. The
// model calls go to a fake Anthropic Messages API on loopback; each memory tool call lands as a commit.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../../helpers/fake-anthropic.js';
import { installTarball, lockedVersion, npmEnv, packTarball } from '../../helpers/packed-install.js';
import { readmeExample } from '../../helpers/readme-examples.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const run = promisify(execFile);

/** What the consumer installs beside gitmem, as its own dependencies (the compiler included). */
const HARNESS = [
  'ai',
  '@ai-sdk/anthropic',
  '@anthropic-ai/sdk',
  '@modelcontextprotocol/sdk',
  'typescript',
  '@types/node',
];
const EXAMPLES = ['library', 'anthropic', 'ai-sdk', 'mcp-http'];

/**
 * A harness's strict configuration, with the libraries' declarations checked too so that gitmem's own are:
 * errors inside other libraries (e.g. @ai-sdk/provider's untyped `json-schema` import) are theirs and left out.
 */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    types: ['node'],
    rootDir: 'src',
    outDir: 'out',
    skipLibCheck: false,
  },
  include: ['src'],
};

let project: string;
let env: Record<string, string>;
let libraryHome: string;
let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
/** tsc's diagnostics about the examples or gitmem (it still emits the examples' JavaScript). */
let tsc: string;

beforeAll(async () => {
  const root = makeTmpDir('gitmem-harness-');
  project = join(root, 'project');
  installTarball(packTarball(join(root, 'tarball')), project, { with: HARNESS, nativeFromCheckout: true });
  libraryHome = join(root, 'library-home');
  mkdirSync(join(project, 'src'));
  for (const name of EXAMPLES) {
    // The library example names its own throwaway home; it gets a temp one instead of /tmp/gm.
    const code = readmeExample(name).replaceAll("'/tmp/gm'", JSON.stringify(libraryHome));
    writeFileSync(join(project, 'src', `${name}.ts`), code);
  }
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  fake = await startFakeAnthropic();
  env = {
    ...hermeticGitEnv(root),
    GITMEM_HOME: join(root, 'home'),
    GITMEM_DAEMON: '0',
    ANTHROPIC_BASE_URL: fake.baseURL,
    ANTHROPIC_API_KEY: 'test-key',
  };
  execFileSync(join(project, 'node_modules', '.bin', 'gitmem'), ['init', '--agent', 'ada'], {
    cwd: project,
    env,
    stdio: 'pipe',
  });
  const tscBin = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
  const output = await run(process.execPath, [tscBin, '-p', '.'], { cwd: project, env: npmEnv() })
    .then((r) => r.stdout + r.stderr)
    .catch((e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}`);
  tsc = oursOnly(output);
}, 300_000);

/** tsc's diagnostics in the examples or in gitmem's declarations (each with its continuation lines). */
function oursOnly(output: string): string {
  const blocks = output.split(/\n(?=\S)/).filter((b) => b.trim() !== '');
  return blocks.filter((b) => !b.startsWith('node_modules/') || b.startsWith('node_modules/gitmem/')).join('\n');
}

afterAll(async () => {
  await fake?.close();
  cleanupTmp();
});

/** Runs a compiled example in the consumer project; resolves to its stdout. */
async function runExample(name: string): Promise<string> {
  expect(tsc).toBe('');
  const { stdout, stderr } = await run(process.execPath, [join('out', `${name}.js`)], {
    cwd: project,
    env,
    timeout: 60_000,
  });
  expect(stderr).toBe('');
  return stdout;
}

const adaDir = (): string => join(env['GITMEM_HOME'] as string, 'agents', 'ada', 'memory');

describe('README harness examples, installed from the packed tarball', () => {
  it('the consumer has one copy of each SDK it shares with gitmem, at the newest version the lockfile pins', () => {
    for (const name of ['ai', '@anthropic-ai/sdk', '@modelcontextprotocol/sdk']) {
      const installed = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
      };
      expect(installed.version, name).toBe(lockedVersion(name));
      expect(
        existsSync(join(project, 'node_modules', 'gitmem', 'node_modules', name)),
        `a second ${name} under gitmem`,
      ).toBe(false);
    }
  });

  it("every example type-checks against the installed package and the newest ai@6 (tsc, strict, gitmem's declarations checked)", () => {
    expect(lockedVersion('ai')).toMatch(/^6\./);
    expect(tsc).toBe('');
  });

  it('library: a write, the prompt, a search and the post-turn sync', async () => {
    expect((await runExample('library')).trim()).toBe('system/human/preferences.md no_remote true');
  });

  it('Anthropic: the memory tool call becomes a commit, with the prompt worded for that tool', async () => {
    fake.systems.length = 0;
    await runExample('anthropic');
    expect(fake.systems[0]).toContain('<projection>/memories/system/persona.md</projection>');
    expect(git(adaDir(), ['log', '-1', '--format=%s'], env).trim()).toBe('create drinks.md');
    expect(readFileSync(join(adaDir(), 'drinks.md'), 'utf8')).toContain('green tea');
  });

  it('AI SDK: the memory tool call becomes a commit, and the turn reaches the transcript', async () => {
    fake.systems.length = 0;
    await runExample('ai-sdk');
    expect(fake.systems[0]).toContain('<projection>system/persona.md</projection>');
    expect(git(adaDir(), ['log', '-1', '--format=%s'], env).trim()).toBe('the user likes green tea');
    const transcript = join(env['GITMEM_HOME'] as string, 'agents', 'ada', 'transcripts', 'chat-1.jsonl');
    expect(readFileSync(transcript, 'utf8')).toContain('Noted.');
  });

  it('MCP: a harness client lists the memory tools over HTTP', async () => {
    const tools = (await runExample('mcp-http')).trim().split(' ');
    expect(tools).toEqual(expect.arrayContaining(['memory', 'memory_apply_patch', 'memory_view', 'memory_search']));
  });
});
