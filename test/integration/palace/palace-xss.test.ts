// Hostile memory executes nothing in the palace, live or exported: a corpus of script tags, event-handler
// attributes, javascript:/data:/vbscript: links, SVG and iframe payloads, CSS url(javascript:) and remote
// loads, markdown link and image tricks — in file bodies, file names, descriptions, frontmatter keys,
// commit messages, trailers, branch names, transcripts and the run log. Detected three ways: a
// `window.__pwned` trap, a dialog handler, and a canary HTTP server on loopback that no page may reach.
import { createServer, type Server } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendRunLog, appendTranscript } from '../../../src/internals.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';
import {
  gitIn,
  launchBrowser,
  makeKeptBranch,
  palaceHome,
  startPalaceProcess,
  type PalaceHome,
  type RunningPalace,
} from '../../helpers/palace-fixture.js';

let h: PalaceHome;
let p: RunningPalace;
let browser: BrowserContext;
let canary: Server;
let canaryUrl = '';
const canaryHits: string[] = [];
const dialogs: string[] = [];
const strayRequests: string[] = [];

/** Every payload sets window.__pwned, alerts, or loads from the canary if it ever runs or renders. */
function corpus(c: string): string {
  const pwn = (tag: string) => `window.__pwned='${tag}';alert('${tag}')`;
  return [
    '# Hostile note',
    `<script>${pwn('script')}</script>`,
    `<img src=x onerror="${pwn('img')}">`,
    `<img src="${c}/raw-img">`,
    `<svg onload="${pwn('svg')}"><script>${pwn('svg-script')}</script><image href="${c}/svg-image"/></svg>`,
    `<iframe src="${c}/iframe"></iframe><iframe srcdoc="<script>parent.${pwn('srcdoc')}</script>"></iframe>`,
    `<object data="${c}/object"></object><embed src="${c}/embed">`,
    `<style>body{background:url(${c}/css)}</style><div style="background:url(javascript:${pwn('cssjs')})">styled</div>`,
    `<link rel="stylesheet" href="${c}/link"><meta http-equiv="refresh" content="0;url=${c}/meta"><base href="${c}/base/">`,
    `<form action="${c}/form"><button formaction="javascript:${pwn('formaction')}">go</button></form>`,
    `<a href="javascript:${pwn('rawlink')}">raw link</a> <details open ontoggle="${pwn('toggle')}">x</details>`,
    `[md js link](javascript:${pwn('mdlink')}) [mixed case](JaVaScRiPt:${pwn('case')}) [entity](&#106;avascript:${pwn('entity')})`,
    `[vb](vbscript:msgbox) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [spaced]( javascript:${pwn('spaced')})`,
    `![remote image](${c}/md-img) ![quote trick](x" onerror="${pwn('attr')}) ![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)`,
    `[ref link][r] <javascript:${pwn('autolink')}> <${c}/autolink>`,
    '',
    `[r]: javascript:${pwn('ref')}`,
    '',
    '```html',
    `<script>${pwn('fence')}</script>`,
    '```',
    '',
  ].join('\n');
}

function seed(): void {
  const dir = h.memoryDir('ada');
  mkdirSync(join(dir, 'notes'), { recursive: true });
  const fm = (desc: string) =>
    `---\ndescription: "${desc.replace(/"/g, '\\"')}"\n"<img src=x onerror=window.__pwned='key'>": "<svg onload=window.__pwned='value'>"\n---\n`;
  writeFileSync(join(dir, 'notes', 'xss.md'), `${fm("<img src=x onerror=window.__pwned='desc'>")}${corpus(canaryUrl)}`);
  writeFileSync(
    join(dir, 'notes', "<img src=x onerror=window.__pwned='name'>.md"),
    `${fm('<script>window.__pwned="desc2"</script>')}named\n`,
  );
  writeFileSync(join(dir, 'notes', '"><svg onload=alert(1)>.txt'), `plain <script>window.__pwned='plain'</script>\n`);
  gitIn(h, 'ada', ['add', '-A']);
  gitIn(h, 'ada', [
    'commit',
    '--no-verify',
    '-q',
    '-m',
    `<script>window.__pwned='subject'</script><img src=x onerror=alert(1)>\n\n<iframe src="${canaryUrl}/msg"></iframe>\nReviewed-Transcript: <img src=x onerror=window.__pwned='trailer'> lines 1-2\nReviewed-Transcript: conv-x lines 1-2`,
  ]);
  const base = gitIn(h, 'ada', ['rev-parse', 'HEAD~1']);
  makeKeptBranch(
    h,
    'ada',
    "gitmem/conflict/<svg/onload=window.__pwned='branch'>",
    base,
    { 'notes/xss.md': `${fm('<b onmouseover=alert(1)>b</b>')}${corpus(canaryUrl)}branch side\n` },
    `<img src=x onerror=window.__pwned='branch-subject'>`,
  );
  const agentDir = join(h.home, 'agents', 'ada');
  appendTranscript(agentDir, 'conv-x', [
    { kind: 'user', text: `<script>window.__pwned='transcript'</script><img src="${canaryUrl}/transcript">` },
    { kind: 'assistant', text: '[x](javascript:alert(1))' },
  ]);
  appendRunLog(agentDir, {
    kind: '<img src=x onerror=alert(1)>',
    startedAt: '<script>alert(1)</script>',
    durationMs: 1,
    steps: 1,
    inputTokens: 1,
    outputTokens: 1,
    outcome: "<svg onload=window.__pwned='outcome'>",
    model: `<img src="${canaryUrl}/model">`,
  });
}

/** The little of the DOM the in-page probe below uses (this project compiles without the DOM library). */
interface ProbeElement {
  tagName: string;
  type?: string;
  attributes: Iterable<{ name: string; value: string }>;
  children: Iterable<ProbeElement>;
  querySelectorAll(selector: string): ArrayLike<ProbeElement> & Iterable<ProbeElement>;
}
declare const window: unknown;
declare const document: {
  head: ProbeElement;
  getElementById(id: string): ProbeElement | null;
  querySelectorAll(selector: string): ArrayLike<ProbeElement> & Iterable<ProbeElement>;
};

/** What the page must never contain, whatever memory holds. */
async function assertInert(page: Page, where: string): Promise<void> {
  const found = await page.evaluate(() => {
    const bad: string[] = [];
    const w = window as unknown as { __pwned?: string };
    if (w.__pwned !== undefined) bad.push(`__pwned=${w.__pwned}`);
    const scripts = [...document.querySelectorAll('script')].filter((s) => s.type !== 'application/json');
    if (scripts.length !== 1) bad.push(`${scripts.length} executable scripts`);
    const app = document.getElementById('app') as ProbeElement;
    for (const sel of [
      'iframe',
      'object',
      'embed',
      'svg',
      'img',
      'style',
      'link',
      'meta',
      'base',
      'form:not(.reason-form):not(.row):not(.search-form)',
      'details',
    ]) {
      const n = app.querySelectorAll(sel).length;
      if (n > 0) bad.push(`${n} × ${sel}`);
    }
    // The head holds only what the page itself put there.
    const head = [...document.head.children]
      .map((e) => e.tagName.toLowerCase())
      .filter((t) => !['meta', 'title', 'link', 'style', 'script'].includes(t));
    if (head.length > 0) bad.push(`head: ${head.join(', ')}`);
    if (document.querySelectorAll('iframe, object, embed, base, meta[http-equiv=refresh]').length > 0)
      bad.push('frame, object, base or refresh outside the app');
    for (const el of app.querySelectorAll('*')) {
      for (const a of el.attributes) {
        if (/^on/i.test(a.name)) bad.push(`${el.tagName} ${a.name}`);
        if (
          /^(href|src|action|formaction|data|srcdoc)$/i.test(a.name) &&
          /^\s*(javascript|vbscript|data):/i.test(a.value)
        )
          bad.push(`${el.tagName} ${a.name}=${a.value}`);
        if (a.name === 'style' && /url\(/i.test(a.value)) bad.push(`${el.tagName} style url()`);
      }
    }
    return bad;
  });
  expect(found, where).toEqual([]);
  expect(dialogs, where).toEqual([]);
  expect(canaryHits, where).toEqual([]);
  expect(strayRequests, where).toEqual([]);
}

async function visitEverything(page: Page, live: boolean): Promise<void> {
  await page.locator('.tree-row').first().waitFor();
  await page.click('button.tree-dir[data-path="notes"]');
  for (const path of [
    'notes/xss.md',
    "notes/<img src=x onerror=window.__pwned='name'>.md",
    'notes/"><svg onload=alert(1)>.txt',
  ]) {
    await page.locator(`button.tree-file[data-path="${path.replace(/"/g, '\\"')}"]`).click();
    await page.locator('.file-head h2', { hasText: path }).waitFor();
    for (const tab of ['rendered', 'raw', 'frontmatter']) {
      await page.click(`.tabs.small button:has-text("${tab}")`);
      await assertInert(page, `${path} ${tab}`);
    }
  }
  await page.click('button.tree-file[data-path="notes/xss.md"]');
  await page.click('.tabs.small button:has-text("rendered")');
  await page.locator('article.markdown').waitFor();
  // Click every link that stays in the page (a real http(s) link would open a new tab by the user's choice).
  for (const a of await page.locator('article.markdown a').all()) {
    if (/^https?:/i.test((await a.getAttribute('href')) ?? '')) continue;
    await a.click().catch(() => undefined);
  }
  expect(
    await page
      .locator('article.markdown a[href^="http"]')
      .evaluateAll((as) =>
        as.every((a) => a.getAttribute('rel')?.includes('noopener') && a.getAttribute('target') === '_blank'),
      ),
  ).toBe(true);
  await page.locator('.history .show-diff').first().click();
  await assertInert(page, 'file history and diff');
  await page.click('button[data-tab="log"]');
  await page.locator('.log li.commit').first().waitFor();
  await page.locator('.log li.commit button:has-text("Diff")').first().click();
  if (live) {
    for (const link of await page.locator('button.transcript-link').all()) {
      await link.click();
      await page.locator('.modal').waitFor();
      await assertInert(page, 'transcript');
      await page.click('.modal button:has-text("Close")');
    }
  }
  await assertInert(page, 'log');
  await page.click('button[data-tab="conflicts"]');
  if (live) {
    await page.locator('button.branch').first().click();
    await page.locator('.conflict-detail tr.d-add').first().waitFor();
  }
  await assertInert(page, 'conflicts');
  await page.click('button[data-tab="reflection"]');
  await page.locator('table.runs').waitFor();
  await page.click('button[data-tab="sync"]');
  await page.fill('.search-form input', 'pwned');
  await page.press('.search-form input', 'Enter');
  await page.locator('button.hit').first().waitFor();
  await page.waitForTimeout(300); // let anything that would load, load
  await assertInert(page, 'reflection, sync and search');
}

async function newPage(allowed: (url: string) => boolean): Promise<Page> {
  const page = await browser.newPage();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (!allowed(r.url())) strayRequests.push(r.url());
  });
  return page;
}

describe('hostile memory in the palace', { tags: ['browser'] }, () => {
  beforeAll(async () => {
    canary = createServer((req, res) => {
      canaryHits.push(req.url ?? '');
      res.end('canary');
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', () => resolve()));
    canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
    h = palaceHome(['ada']);
    seed();
    p = await startPalaceProcess(h, ['--agent', 'ada']);
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await p?.stop();
    await new Promise<void>((resolve) => canary?.close(() => resolve()));
    cleanupTmp();
  });

  it('the live page renders every view of it and executes nothing, loads nothing from elsewhere', async () => {
    const page = await newPage((url) => url.startsWith(p.origin) || url.startsWith('data:'));
    await page.goto(p.url);
    await visitEverything(page, true);
    expect(await page.locator('article.markdown').count()).toBe(0); // on the search view now
    await page.close();
  });

  it('memory text stays visible as text (nothing was silently dropped from the raw view)', async () => {
    const page = await newPage((url) => url.startsWith(p.origin) || url.startsWith('data:'));
    await page.goto(p.url);
    await page.locator('.tree-row').first().waitFor();
    await page.click('button.tree-dir[data-path="notes"]');
    await page.click('button.tree-file[data-path="notes/xss.md"]');
    await page.click('.tabs.small button:has-text("raw")');
    expect(await page.locator('pre.raw').innerText()).toContain("<script>window.__pwned='script'");
    await page.click('.tabs.small button:has-text("rendered")');
    expect(await page.locator('article.markdown').innerText()).toContain('<iframe src=');
    await assertInert(page, 'raw and rendered text');
    await page.close();
  });

  it('the exported page (a file, no server) executes nothing either', async () => {
    const file = join(makeTmpDir('gitmem-palace-xss-export-'), 'export.html');
    h.cli(['palace', '--export', file, '--agent', 'ada']);
    const page = await newPage((url) => url.startsWith('file://') || url.startsWith('data:'));
    await page.goto(`file://${file}`);
    await visitEverything(page, false);
    await page.close();
  });
});
