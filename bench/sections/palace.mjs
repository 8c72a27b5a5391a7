// The Memory Palace at 10,000 files and 5,000 commits: time to the first interactive view in headless
// Chromium (tree rows and the system/ budget on screen), from a cold server (no cached tree) and a warm one,
// and the API's first answers alone (what the page asks for first, in parallel). The floor is
// `git ls-tree -r -l HEAD`, the listing the tree is built from. Target: the first view within 1 s.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { initMemory } from '../../dist/index.js';
import { startPalace } from '../../dist/palace/server.js';
import { newToken } from '../../dist/palace/security.js';
import { benchEnv, execFileP, round, stats, timeIt, tmpDir } from '../lib.mjs';

const FILES = 10_000;
const COMMITS = 5_000;
const CHROMIUM = '/usr/bin/chromium';

/** One fast-import stream: the first commit adds every file, each later one edits one. */
function buildRepo(dir, env) {
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, env, encoding: 'utf8' }).trim();
  const parts = [];
  for (let c = 0; c < COMMITS; c++) {
    const msg = c === 0 ? 'bulk import' : `edit note ${c}`;
    parts.push(
      `commit refs/heads/main\ncommitter bench <bench@example.com> ${1_700_000_000 + c} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}\n`,
    );
    if (c === 0) {
      parts.push(`from ${head}\n`);
      for (let i = 0; i < FILES; i++) {
        const body = `---\ndescription: note ${i} about topic ${i % 97}\n---\ncontent of note ${i}\n`;
        parts.push(
          `M 100644 inline notes/d${Math.floor(i / 100)}/n${i}.md\ndata ${Buffer.byteLength(body)}\n${body}\n`,
        );
      }
    } else {
      const i = (c * 37) % FILES;
      const body = `---\ndescription: note ${i} about topic ${i % 97}\n---\ncontent of note ${i}, edit ${c}\n`;
      parts.push(`M 100644 inline notes/d${Math.floor(i / 100)}/n${i}.md\ndata ${Buffer.byteLength(body)}\n${body}\n`);
    }
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, env, input: parts.join(''), maxBuffer: 1 << 28 });
  execFileSync('git', ['read-tree', '-m', '-u', head, 'main'], { cwd: dir, env });
}

async function firstApi(palace) {
  const get = async (route) => {
    const r = await fetch(`${palace.url}api/${route}`);
    if (!r.ok) throw new Error(`${route}: ${r.status}`);
    return r.json();
  };
  await Promise.all([
    get('agents'),
    get('summary?agent=bench'),
    get('tree?agent=bench'),
    get('tree?agent=bench&dir=system'),
  ]);
}

async function browserRows(home, env, iterations) {
  if (!existsSync(CHROMIUM)) return [];
  const { chromium } = await import('playwright-core');
  const ctx = await chromium.launchPersistentContext(tmpDir('gitmem-bench-chromium-'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const view = async (palace) => {
    const page = await ctx.newPage();
    const t0 = performance.now();
    await page.goto(palace.url);
    await page.locator('.tree-row').first().waitFor();
    await page.locator('.budget').waitFor();
    const ms = performance.now() - t0;
    await page.close();
    return ms;
  };
  const cold = [];
  for (let i = -1; i < iterations; i++) {
    const palace = await startPalace({ home, env, token: newToken(), host: '127.0.0.1', port: 0, agent: 'bench' });
    const ms = await view(palace);
    if (i >= 0) cold.push(ms);
    await palace.close();
  }
  const palace = await startPalace({ home, env, token: newToken(), host: '127.0.0.1', port: 0, agent: 'bench' });
  await view(palace);
  const warm = [];
  for (let i = 0; i < iterations; i++) warm.push(await view(palace));
  await palace.close();
  await ctx.close();
  return [
    ['first interactive view in Chromium, cold server', stats(cold)],
    ['first interactive view in Chromium, warm server', stats(warm)],
  ];
}

export async function bench({ iterations = 30 } = {}) {
  const home = tmpDir('gitmem-bench-palace-');
  const env = { ...benchEnv(home), GITMEM_HOME: join(home, 'home') };
  const { memoryDir } = await initMemory({ home: env.GITMEM_HOME, agentId: 'bench', env });
  buildRepo(memoryDir, env);
  const n = Math.max(5, Math.floor(iterations / 3));
  const floor = await timeIt(
    n,
    () => execFileP('git', ['ls-tree', '-r', '-l', 'HEAD'], { cwd: memoryDir, env, maxBuffer: 1 << 26 }),
    1,
  );
  const apiCold = [];
  for (let i = -1; i < n; i++) {
    const palace = await startPalace({
      home: env.GITMEM_HOME,
      env,
      token: newToken(),
      host: '127.0.0.1',
      port: 0,
      agent: 'bench',
    });
    const t0 = performance.now();
    await firstApi(palace);
    if (i >= 0) apiCold.push(performance.now() - t0);
    await palace.close();
  }
  const rows = [
    ['first API answers (agents, summary, tree root and system/), cold server', stats(apiCold)],
    ...(await browserRows(env.GITMEM_HOME, env, n)),
  ];
  return rows.map(([name, s]) => ({
    section: 'palace',
    name: `${name} @ ${FILES} files, ${COMMITS} commits`,
    median_ms: round(s.median),
    p95_ms: round(s.p95),
    floor_name: 'git ls-tree -r -l HEAD',
    floor_median_ms: round(floor.median),
    ratio: round(s.median / floor.median),
    target: '<= 1000 ms',
  }));
}
