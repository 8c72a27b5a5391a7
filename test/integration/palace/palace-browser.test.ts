// The Memory Palace in real Chromium (Debian's, through playwright-core): open it, walk the tree, open a
// file (its description and token estimate in the tree), see its history and a diff between two versions,
// search (also at an older commit), revert a change with a typed reason (a
// commit lands with it), see a live update after another process writes, move the timeline, follow a
// Reviewed-Transcript trailer to the lines it reviewed, see a memory worker's merge in the log, switch agents, drop a kept branch and take
// another's side. Screenshots go to a temp dir, or GITMEM_PALACE_SHOTS=<dir> to look at them;
// GITMEM_PALACE_SCREENSHOT=<file> keeps the overview (docs/palace.png).
import { copyFileSync, writeFileSync } from 'node:fs';
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
let shots: string;
const errors: string[] = [];

async function openPalace(): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(p.url);
  await page.locator('.tree-row').first().waitFor();
  return page;
}

async function openFile(page: Page, path: string): Promise<void> {
  const dir = path.split('/')[0] as string;
  if (!(await page.locator(`button.tree-file[data-path="${path}"]`).isVisible()))
    await page.click(`button.tree-dir[data-path="${dir}"]`);
  await page.click(`button.tree-file[data-path="${path}"]`);
  await page.locator('.file-head h2', { hasText: path }).waitFor();
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `${name}.png`) });

describe('the Memory Palace in Chromium', { tags: ['browser'] }, () => {
  beforeAll(async () => {
    shots = process.env['GITMEM_PALACE_SHOTS'] ?? makeTmpDir('gitmem-palace-shots-');
    h = palaceHome(['ada', 'bob']);
    const a = (args: string[]) => h.cli([...args, '--agent', 'ada']);
    a([
      'memory',
      'create',
      'notes/tea.md',
      '--description',
      'Tea habits',
      '--text',
      '# Tea\n\nAda likes **green tea**, see [the persona](../system/persona.md).\n\n- morning: sencha\n- evening: none\n',
      '--reason',
      'Ada told me about her tea',
    ]);
    a([
      'memory',
      'str-replace',
      'notes/tea.md',
      '--old',
      'sencha',
      '--new',
      'gyokuro',
      '--reason',
      'She switched to gyokuro in the morning',
    ]);
    a([
      'memory',
      'create',
      'projects/palace.md',
      '--description',
      'The Memory Palace project',
      '--text',
      'A web view of memory.\n',
      '--reason',
      'New project note',
    ]);
    const agentDir = join(h.home, 'agents', 'ada');
    appendTranscript(agentDir, 'conv-7', [
      { kind: 'user', text: 'I moved to Lisbon last month' },
      { kind: 'assistant', text: 'Noted, Lisbon.' },
      { kind: 'user', text: 'and I work remotely' },
    ]);
    const dir = h.memoryDir('ada');
    writeFileSync(join(dir, 'notes', 'home.md'), '---\ndescription: Where Ada lives\n---\nLisbon, works remotely.\n');
    gitIn(h, 'ada', ['add', 'notes/home.md']);
    gitIn(h, 'ada', [
      'commit',
      '-q',
      '--author=gitmem reflection <ada+reflection@gitmem.local>',
      '-m',
      'Ada lives in Lisbon now\n\nReviewed-Transcript: conv-7 lines 1-3',
    ]);
    appendRunLog(agentDir, {
      kind: 'reflection',
      startedAt: new Date().toISOString(),
      durationMs: 2300,
      steps: 5,
      inputTokens: 6100,
      outputTokens: 420,
      outcome: 'merged',
      model: 'local:qwen3',
    });
    h.cli([
      'memory',
      'create',
      'notes/bob.md',
      '--description',
      'Bob only',
      '--text',
      'bob things\n',
      '--reason',
      'bob note',
      '--agent',
      'bob',
    ]);
    p = await startPalaceProcess(h, ['--agent', 'ada']);
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await p?.stop();
    expect(errors).toEqual([]);
    cleanupTmp();
  });

  it('walks the tree, opens a file, shows its history and the diff between two versions', async () => {
    const page = await openPalace();
    await expect.poll(() => page.locator('.budget').innerText()).toMatch(/of 8000 tokens/);
    await openFile(page, 'notes/tea.md');
    const row = page.locator('button.tree-file[data-path="notes/tea.md"]');
    expect(await row.locator('.desc').innerText()).toBe('Tea habits');
    expect(await row.locator('.meta').innerText()).toMatch(/^\d+ tok$/);
    await expect.poll(() => page.locator('article.markdown strong').innerText()).toBe('green tea');
    await page.locator('.history li.commit').nth(1).waitFor();
    expect(await page.locator('.history li.commit .reason').allInnerTexts()).toEqual([
      'She switched to gyokuro in the morning',
      'Ada told me about her tea',
    ]);
    expect(await page.locator('.history .badge').first().innerText()).toBe('primary agent');
    await page.locator('.history li.commit').nth(0).locator('.show-diff').click();
    await expect.poll(() => page.locator('.history tr.d-add').first().innerText()).toContain('gyokuro');
    const commits = page.locator('.history li.commit');
    await commits.nth(1).locator('input[name="ver-a"]').check();
    await commits.nth(0).locator('input[name="ver-b"]').check();
    await page.click('.compare-btn');
    await expect.poll(() => page.locator('.compare-result tr.d-del').first().innerText()).toContain('sencha');
    await page.click('.tabs.small button:has-text("raw")');
    await expect.poll(() => page.locator('pre.raw').innerText()).toContain('description: Tea habits');
    await page.click('.tabs.small button:has-text("rendered")');
    await page.click('article.markdown a:has-text("the persona")');
    await page.locator('.file-head h2', { hasText: 'system/persona.md' }).waitFor();
    await openFile(page, 'notes/tea.md');
    await shot(page, 'file-history');
    if (process.env['GITMEM_PALACE_SCREENSHOT'])
      copyFileSync(join(shots, 'file-history.png'), process.env['GITMEM_PALACE_SCREENSHOT']);
    await page.close();
  });

  it('searches memory and opens a hit', async () => {
    const page = await openPalace();
    await page.fill('.search-form input', 'gyokuro');
    await page.press('.search-form input', 'Enter');
    await page.locator('button.hit').first().waitFor();
    expect(await page.locator('button.hit').first().innerText()).toBe('notes/tea.md');
    await shot(page, 'search');
    await page.locator('button.hit').first().click();
    await page.locator('.file-head h2', { hasText: 'notes/tea.md' }).waitFor();
    await page.close();
  });

  it('searches at a chosen commit: what memory said then, not now', async () => {
    const created = gitIn(h, 'ada', ['log', '-1', '--format=%H', '--diff-filter=A', '--', 'notes/tea.md']);
    const page = await openPalace();
    await page.fill('.search-form input', 'sencha');
    await page.press('.search-form input', 'Enter');
    await expect.poll(() => page.locator('.search p.muted').innerText()).toMatch(/^0 hit\(s\) at /);
    await page.fill('.search input[name="at"]', created);
    await page.click('.search button:has-text("Search there")');
    await expect.poll(() => page.locator('.search p.muted').innerText()).toBe(`1 hit(s) at ${created.slice(0, 7)}`);
    expect(await page.locator('button.hit').allInnerTexts()).toEqual(['notes/tea.md']);
    await page.close();
  });

  it('reverts a change: a commit lands with the reason typed in', async () => {
    const page = await openPalace();
    await openFile(page, 'notes/tea.md');
    const newest = page.locator('.history li.commit').first();
    const sha = await newest.getAttribute('data-sha');
    await newest.locator('button.revert').click();
    await newest.locator('textarea[name="reason"]').fill('Back to sencha: gyokuro was a one-off');
    await newest.locator('button[type="submit"]').click();
    await page.locator('.toast', { hasText: 'Reverted' }).waitFor();
    expect(gitIn(h, 'ada', ['log', '-1', '--format=%s'])).toBe('Back to sencha: gyokuro was a one-off');
    expect(gitIn(h, 'ada', ['show', 'HEAD:notes/tea.md'])).toContain('sencha');
    expect(sha).not.toBe(gitIn(h, 'ada', ['rev-parse', 'HEAD']));
    await expect
      .poll(() => page.locator('.history li.commit .reason').first().innerText())
      .toBe('Back to sencha: gyokuro was a one-off');
    await page.close();
  });

  it('updates live when another process writes: the open file says it changed, the tree shows a new file', async () => {
    const page = await openPalace();
    await openFile(page, 'notes/tea.md');
    await page.locator('.live.on').waitFor();
    h.cli([
      'memory',
      'str-replace',
      'notes/tea.md',
      '--old',
      'evening: none',
      '--new',
      'evening: rooibos',
      '--reason',
      'Evening tea noted from another process',
      '--agent',
      'ada',
    ]);
    h.cli([
      'memory',
      'create',
      'notes/live.md',
      '--description',
      'Written while the palace watched',
      '--text',
      'hi\n',
      '--reason',
      'live test',
      '--agent',
      'ada',
    ]);
    await page.locator('.changed').waitFor();
    expect(await page.locator('.changed').innerText()).toMatch(/This file changed: primary agent moved main/);
    await expect.poll(() => page.locator('article.markdown').innerText()).toContain('evening: rooibos');
    await page.locator('button.tree-file[data-path="notes/live.md"]').waitFor();
    await expect
      .poll(() => page.locator('code.head').innerText())
      .toBe(gitIn(h, 'ada', ['rev-parse', '--short=7', 'HEAD']));
    await shot(page, 'live');
    await page.close();
  });

  it('the timeline shows the tree as of an older commit', async () => {
    const page = await openPalace();
    await page.locator('.timeline input[type=range]').fill('1');
    await page.locator('.as-of-note').waitFor();
    await expect
      .poll(async () => page.locator('.tree button.tree-dir').allInnerTexts())
      .toEqual([expect.stringContaining('notes/'), expect.stringContaining('system/')]);
    await page.click('button.tree-dir[data-path="notes"]');
    await expect.poll(() => page.locator('.tree button.tree-file[data-path^="notes/"]').count()).toBe(1);
    await shot(page, 'timeline');
    await page.click('.as-of button:has-text("Back to HEAD")');
    await expect.poll(() => page.locator('.as-of-note').count()).toBe(0);
    await page.close();
  });

  it("the log links a Reviewed-Transcript trailer to the lines it reviewed, marks a memory worker's merge; reflection runs and cursors show", async () => {
    // A background writer's merge, as a memory worker lands one: its branch merged into main with the merge message.
    makeKeptBranch(
      h,
      'ada',
      'gitmem/worker/m1',
      'HEAD',
      { 'notes/merged.md': '---\ndescription: From a merged worker\n---\nmerged\n' },
      'worker: merged note',
    );
    gitIn(h, 'ada', [
      '-c',
      'user.name=gitmem',
      '-c',
      'user.email=gitmem@gitmem.local',
      'merge',
      '--no-ff',
      '--no-verify',
      '-q',
      '-m',
      'merge(memory): gitmem/worker/m1/1: a merged note',
      'gitmem/worker/m1',
    ]);
    gitIn(h, 'ada', ['branch', '-D', 'gitmem/worker/m1']);
    const page = await openPalace();
    await page.click('button[data-tab="log"]');
    const merged = page.locator('.log li.commit', { hasText: 'merge(memory): gitmem/worker/m1/1' });
    await merged.waitFor();
    expect(await merged.locator('.badge').allInnerTexts()).toEqual(['memory worker', 'merge']);
    const link = page.locator('button.transcript-link').first();
    await link.waitFor();
    expect(await link.innerText()).toBe('reviewed conv-7 lines 1–3');
    expect(
      await page
        .locator('.log li.commit', { hasText: 'Ada lives in Lisbon now' })
        .locator('.badge')
        .first()
        .innerText(),
    ).toBe('reflection');
    await link.click();
    await page.locator('.modal ol.transcript li.reviewed').nth(2).waitFor();
    expect(await page.locator('.modal li.reviewed .text').allInnerTexts()).toEqual([
      'I moved to Lisbon last month',
      'Noted, Lisbon.',
      'and I work remotely',
    ]);
    await shot(page, 'transcript');
    await page.click('.modal button:has-text("Close")');
    await page.click('button[data-tab="reflection"]');
    await page.locator('table.runs tbody tr').first().waitFor();
    expect(await page.locator('table.runs tbody tr').first().innerText()).toMatch(/reflection\s+merged\s+5/);
    expect(await page.locator('table.cursors').innerText()).toContain('line 0 of 3');
    await page.click('button[data-tab="sync"]');
    await expect.poll(() => page.locator('.sync').innerText()).toContain('none (local memory)');
    await page.close();
  });

  it('switches agents in the page', async () => {
    const page = await openPalace();
    await page.selectOption('select[aria-label="agent"]', 'bob');
    await page.click('button.tree-dir[data-path="notes"]');
    await page.locator('button.tree-file[data-path="notes/bob.md"]').waitFor();
    expect(await page.locator('button.tree-file[data-path="notes/tea.md"]').count()).toBe(0);
    await page.close();
  });

  it("drops one kept branch and takes another's side, each from the page", async () => {
    const base = gitIn(h, 'ada', ['rev-parse', 'HEAD~2']);
    const dropHead = makeKeptBranch(
      h,
      'ada',
      'gitmem/conflict/20260102T000000.000Z',
      base,
      { 'notes/tea.md': '---\ndescription: Tea habits\n---\nlaptop said matcha\n' },
      'laptop: matcha',
    );
    makeKeptBranch(
      h,
      'ada',
      'gitmem/worker/w1',
      base,
      { 'notes/worker.md': '---\ndescription: From a worker\n---\nworker text\n' },
      'worker: a note',
    );
    const page = await openPalace();
    await page.click('button[data-tab="conflicts"]');
    await page.click('button.branch[data-branch="gitmem/conflict/20260102T000000.000Z"]');
    await page.locator('.conflict-detail tr.d-add', { hasText: 'laptop said matcha' }).waitFor();
    await shot(page, 'conflict');
    await page.click('.conflict-detail button.drop');
    await page.click('.conflict-detail button.confirm-drop');
    await page.locator('.toast', { hasText: 'Dropped gitmem/conflict/20260102T000000.000Z' }).waitFor();
    expect(gitIn(h, 'ada', ['for-each-ref', '--format=%(objectname)', 'refs/gitmem/backup/'])).toContain(dropHead);
    expect(gitIn(h, 'ada', ['branch', '--list', 'gitmem/conflict/*'])).toBe('');
    await page.click('button.branch[data-branch="gitmem/worker/w1"]');
    await page.click('.conflict-detail button.take');
    await page.locator('.conflict-detail textarea[name="reason"]').fill('The worker note is right');
    await page.click('.conflict-detail button[type="submit"]');
    await page.locator('.toast', { hasText: 'Took gitmem/worker/w1' }).waitFor();
    expect(gitIn(h, 'ada', ['log', '-1', '--format=%s'])).toBe('The worker note is right');
    expect(gitIn(h, 'ada', ['show', 'HEAD:notes/worker.md'])).toBe('---\ndescription: From a worker\n---\nworker text');
    await expect.poll(() => page.locator('.conflicts').innerText()).toContain('No kept branches');
    await page.close();
  });

  it('a wrong token gets 401 and no page', async () => {
    const page = await browser.newPage();
    const r = await page.goto(p.url.replace(p.token, p.token.slice(0, -2)));
    expect(r?.status()).toBe(401);
    expect(await page.locator('#app').count()).toBe(0);
    await page.close();
  });
});
