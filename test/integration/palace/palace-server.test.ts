// The palace's server without a browser: the token on every route (401, also for the API and the change
// stream), the Host check against DNS rebinding (403), the security headers and no CORS, same-origin
// JSON-only writes, the budget from the config, paged tree and history, revert, kept branches (drop, take
// the branch's side), reflection runs and cursors, sync state, the change stream after another process
// writes, and the CLI's refusals (non-loopback host without a token file, a token file others can read).
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendRunLog, appendTranscript } from '../../../src/internals.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';
import { GITMEM_BIN } from '../../helpers/cli.js';
import { spawnSync } from 'node:child_process';
import {
  gitIn,
  makeKeptBranch,
  palaceHome,
  rawRequest,
  startPalaceProcess,
  type PalaceHome,
  type RunningPalace,
} from '../../helpers/palace-fixture.js';

let h: PalaceHome;
let p: RunningPalace;
const api = async <T>(
  route: string,
  init?: { method?: string; body?: unknown; headers?: Record<string, string> },
): Promise<{ status: number; body: T }> => {
  const r = await fetch(`${p.url}api/${route}`, {
    method: init?.method ?? 'GET',
    headers: init?.body !== undefined ? { 'Content-Type': 'application/json', ...init.headers } : init?.headers,
    ...(init?.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: r.status, body: (await r.json()) as T };
};

beforeAll(async () => {
  h = palaceHome(['ada', 'bob']);
  h.cli([
    'memory',
    'create',
    'notes/tea.md',
    '--description',
    'Tea habits',
    '--text',
    'green tea\n',
    '--reason',
    'Ada likes green tea',
    '--agent',
    'ada',
  ]);
  h.cli([
    'memory',
    'str-replace',
    'notes/tea.md',
    '--old',
    'green',
    '--new',
    'black',
    '--reason',
    'Ada switched to black tea',
    '--agent',
    'ada',
  ]);
  p = await startPalaceProcess(h, ['--agent', 'ada']);
}, 60_000);
afterAll(async () => {
  await p?.stop();
  cleanupTmp();
});

describe('the token and the Host header', () => {
  it('a wrong or missing token gets 401 on every route: page, assets, API and change stream', async () => {
    const wrong = `${p.token.slice(0, -1)}${p.token.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [
      '/',
      '/favicon.ico',
      `/${wrong}/`,
      `/${wrong}/palace.js`,
      `/${wrong}/api/summary?agent=ada`,
      `/${wrong}/api/agents`,
      `/${wrong}/events?agent=ada`,
      `/${p.token}x/api/summary`,
      `/${p.token.slice(1)}/`,
    ]) {
      const r = await rawRequest(p.port, path);
      expect(r.status, path).toBe(401);
      expect(r.body).not.toContain('ada');
    }
    const post = await rawRequest(p.port, `/${wrong}/api/revert?agent=ada`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"sha":"HEAD","reason":"x"}',
    });
    expect(post.status).toBe(401);
  });

  it('the right token opens the page, its assets, the API and the stream', async () => {
    for (const path of ['', 'palace.js', 'palace.css', 'api/agents'])
      expect((await rawRequest(p.port, `/${p.token}/${path}`)).status, path).toBe(200);
    const sse = await rawRequest(p.port, `/${p.token}/events?agent=ada`, { firstChunkOnly: true });
    expect(sse.status).toBe(200);
    expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
  });

  it('a Host header naming another site (DNS rebinding) is refused with 403, even with the token', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${p.port}`,
      `127.0.0.1.nip.io:${p.port}`,
      `127.0.0.1:${p.port + 1}`,
      `[::1]:${p.port + 1}`,
    ]) {
      expect((await rawRequest(p.port, `/${p.token}/api/agents`, { headers: { Host: host } })).status, host).toBe(403);
    }
    expect(
      (await rawRequest(p.port, `/${p.token}/api/agents`, { headers: { Host: `localhost:${p.port}` } })).status,
    ).toBe(200);
  });

  it('every answer carries a strict CSP, nosniff, no-referrer and no CORS header', async () => {
    for (const path of [`/${p.token}/`, `/${p.token}/api/summary?agent=ada`, '/nope']) {
      const r = await rawRequest(p.port, path, { headers: { Origin: 'http://evil.example' } });
      expect(r.headers['content-security-policy']).toContain("default-src 'self'");
      expect(r.headers['content-security-policy']).toContain("script-src 'self'");
      expect(r.headers['content-security-policy']).not.toContain('unsafe-inline');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('no-referrer');
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('a write from another origin, or not JSON, is refused and changes nothing', async () => {
    const before = gitIn(h, 'ada', ['rev-parse', 'HEAD']);
    const body = JSON.stringify({ sha: before, reason: 'csrf' });
    const cross = await rawRequest(p.port, `/${p.token}/api/revert?agent=ada`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'http://evil.example' },
      body,
    });
    expect(cross.status).toBe(403);
    const site = await rawRequest(p.port, `/${p.token}/api/revert?agent=ada`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' },
      body,
    });
    expect(site.status).toBe(403);
    const form = await rawRequest(p.port, `/${p.token}/api/revert?agent=ada`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body,
    });
    expect(form.status).toBe(400);
    expect(gitIn(h, 'ada', ['rev-parse', 'HEAD'])).toBe(before);
  });
});

describe('reading through the API', () => {
  it('lists the home agents and the one it opened with', async () => {
    expect((await api('agents')).body).toEqual({ agents: ['ada', 'bob'], current: 'ada' });
    expect((await api('summary?agent=nobody')).status).toBe(404);
    expect((await api('summary?agent=../../etc')).status).toBe(404);
  });

  it('system/ against its budget: 8,000 by default, budgets.system when the config sets it, 8,000 again for a broken config', async () => {
    const s = await api<{ system: { tokens: number; budget: number; files: unknown[] } }>('summary?agent=ada');
    expect(s.body.system.budget).toBe(8000);
    const counted = JSON.parse(h.cli(['tokens', '--json', '--agent', 'ada'])) as {
      total_tokens: number;
      files: unknown[];
    };
    expect(counted.total_tokens).toBeGreaterThan(0);
    expect(s.body.system).toMatchObject({ tokens: counted.total_tokens, files: counted.files }); // what `gitmem tokens` counts
    writeFileSync(join(h.home, 'config'), JSON.stringify({ budgets: { system: 1234 } }));
    expect((await api<{ system: { budget: number } }>('summary?agent=ada')).body.system.budget).toBe(1234);
    writeFileSync(join(h.home, 'config'), '{ not json');
    expect((await api<{ system: { budget: number } }>('summary?agent=ada')).body.system.budget).toBe(8000);
    writeFileSync(join(h.home, 'config'), JSON.stringify({ budgets: { system: 'lots' } }));
    expect((await api<{ system: { budget: number } }>('summary?agent=ada')).body.system.budget).toBe(8000);
  });

  it("system/'s budget is the tool's: the repository's gitmem.budgetSystem wins over the home's budgets.system", async () => {
    writeFileSync(join(h.home, 'config'), JSON.stringify({ budgets: { system: 1234 } }));
    gitIn(h, 'ada', ['config', 'gitmem.budgetSystem', '4321']);
    try {
      const counted = JSON.parse(h.cli(['tokens', '--json', '--agent', 'ada'])) as { budget_tokens: number };
      expect(counted.budget_tokens).toBe(4321);
      expect((await api<{ system: { budget: number } }>('summary?agent=ada')).body.system.budget).toBe(4321);
      expect((await api<{ system: { budget: number } }>('summary?agent=bob')).body.system.budget).toBe(1234); // bob's repository sets none
    } finally {
      gitIn(h, 'ada', ['config', '--unset', 'gitmem.budgetSystem']);
      writeFileSync(join(h.home, 'config'), '{}');
    }
  });

  it('the tree comes one directory at a time, 500 entries a page', async () => {
    const dir = h.memoryDir('bob');
    mkdirSync(join(dir, 'many'));
    for (let i = 0; i < 620; i++)
      writeFileSync(
        join(dir, 'many', `n${String(i).padStart(4, '0')}.md`),
        `---\ndescription: note ${i}\n---\nbody ${i}\n`,
      );
    gitIn(h, 'bob', ['add', '-A']);
    gitIn(h, 'bob', ['commit', '-q', '-m', 'many notes']);
    const root = await api<{ entries: Array<{ path: string; files?: number }> }>('tree?agent=bob');
    expect(root.body.entries.find((e) => e.path === 'many')).toMatchObject({ type: 'dir', files: 620 });
    const first = await api<{ entries: Array<{ path: string; description?: string }>; total: number }>(
      'tree?agent=bob&dir=many',
    );
    expect(first.body.total).toBe(620);
    expect(first.body.entries).toHaveLength(500);
    expect(first.body.entries[0]).toMatchObject({ path: 'many/n0000.md', description: 'note 0' });
    const rest = await api<{ entries: Array<{ path: string }> }>('tree?agent=bob&dir=many&offset=500');
    expect(rest.body.entries.map((e) => e.path)).toEqual(
      Array.from({ length: 120 }, (_, i) => `many/n${String(500 + i).padStart(4, '0')}.md`),
    );
  });

  it('history pages follow git log order without gaps or repeats (skip)', async () => {
    for (let i = 0; i < 7; i++)
      h.cli([
        'memory',
        'create',
        `notes/p${i}.md`,
        '--description',
        `p${i}`,
        '--text',
        'x\n',
        '--reason',
        `page note ${i}`,
        '--agent',
        'ada',
      ]);
    const all = gitIn(h, 'ada', ['log', '--format=%H']).split('\n');
    const seen: string[] = [];
    for (let skip = 0; ; skip += 3) {
      const r = await api<{ entries: Array<{ sha: string }>; more: boolean }>(`history?agent=ada&limit=3&skip=${skip}`);
      seen.push(...r.body.entries.map((e) => e.sha));
      if (!r.body.more) break;
    }
    expect(seen).toEqual(all);
    expect((await api('history?agent=ada&skip=-1')).status).toBe(400);
  });

  it('a file, its history with writers and reasons, and a diff between two versions', async () => {
    const f = await api<{ text: string; frontmatter: Record<string, unknown>; body: string }>(
      'file?agent=ada&path=notes/tea.md',
    );
    expect(f.body).toMatchObject({ frontmatter: { description: 'Tea habits' }, body: 'black tea\n' });
    const hist = await api<{ entries: Array<{ sha: string; writer: string; reason: string }> }>(
      'history?agent=ada&path=notes/tea.md',
    );
    expect(hist.body.entries.map((e) => [e.writer, e.reason])).toEqual([
      ['agent', 'Ada switched to black tea'],
      ['agent', 'Ada likes green tea'],
    ]);
    const [newer, older] = hist.body.entries;
    const d = await api<{ text: string }>(`diff?agent=ada&from=${older?.sha}&to=${newer?.sha}&path=notes/tea.md`);
    expect(d.body.text).toContain('-green tea');
    expect(d.body.text).toContain('+black tea');
    expect((await api('file?agent=ada&path=notes/none.md')).status).toBe(404);
    expect((await api('file?agent=ada&path=../../../etc/passwd')).status).toBe(400);
  });

  it('the timeline names the commit at each position, oldest first', async () => {
    const all = gitIn(h, 'ada', ['log', '--format=%H']).split('\n');
    const t0 = await api<{ total: number; commit: { sha: string } }>('timeline?agent=ada&position=0');
    expect(t0.body.total).toBe(all.length);
    expect(t0.body.commit.sha).toBe(all.at(-1));
    const top = await api<{ commit: { sha: string } }>(`timeline?agent=ada&position=${all.length - 1}`);
    expect(top.body.commit.sha).toBe(all[0]);
    const tree = await api<{ entries: Array<{ path: string }> }>(`tree?agent=ada&at=${all.at(-1)}`);
    expect(tree.body.entries.map((e) => e.path)).toEqual(['system']);
  });
});

describe('writes through the API', () => {
  it('revert: one commit undoing the change, with the reason typed in', async () => {
    const [last] = (await api<{ entries: Array<{ sha: string }> }>('history?agent=ada&path=notes/tea.md')).body.entries;
    const r = await api<{ commit: string }>('revert?agent=ada', {
      method: 'POST',
      body: { sha: last?.sha, reason: 'green was right after all' },
    });
    expect(r.status).toBe(200);
    expect(gitIn(h, 'ada', ['log', '-1', '--format=%s'])).toBe('green was right after all');
    expect(readFileSync(join(h.memoryDir('ada'), 'notes/tea.md'), 'utf8')).toContain('green tea');
    const again = await api<{ error: { code: string } }>('revert?agent=ada', {
      method: 'POST',
      body: { sha: last?.sha },
    });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('INVALID_ARGUMENT');
  });

  it('a kept branch: shown with its diff, dropped only at the head the page saw (its tip kept under refs/gitmem/backup/)', async () => {
    const base = gitIn(h, 'ada', ['rev-parse', 'HEAD~1']);
    const head = makeKeptBranch(
      h,
      'ada',
      'gitmem/conflict/20260101T000000.000Z',
      base,
      { 'notes/tea.md': '---\ndescription: Tea habits\n---\noolong tea\n' },
      'laptop: oolong',
    );
    const list = await api<{ branches: Array<{ branch: string }> }>('conflicts?agent=ada');
    expect(list.body.branches.map((b) => b.branch)).toEqual(['gitmem/conflict/20260101T000000.000Z']);
    const d = await api<{ diff: { text: string }; take: Array<{ path: string; action: string }> }>(
      'conflict?agent=ada&branch=gitmem/conflict/20260101T000000.000Z',
    );
    expect(d.body.diff.text).toContain('+oolong tea');
    expect(d.body.take).toEqual([{ path: 'notes/tea.md', action: 'write' }]);
    const stale = await api('conflicts/drop?agent=ada', {
      method: 'POST',
      body: { branch: 'gitmem/conflict/20260101T000000.000Z', head: base },
    });
    expect(stale.status).toBe(400);
    const ok = await api<{ backupRef: string }>('conflicts/drop?agent=ada', {
      method: 'POST',
      body: { branch: 'gitmem/conflict/20260101T000000.000Z', head },
    });
    expect(ok.status).toBe(200);
    expect(gitIn(h, 'ada', ['rev-parse', ok.body.backupRef])).toBe(head);
    expect((await api<{ branches: unknown[] }>('conflicts?agent=ada')).body.branches).toEqual([]);
  });

  it("taking a kept branch's side: one commit with the reason writes the branch's exact files, then the branch goes", async () => {
    const main = gitIn(h, 'ada', ['rev-parse', 'HEAD']);
    const text = '---\ndescription: Tea habits\n---\nrooibos, no sugar\n';
    const head = makeKeptBranch(
      h,
      'ada',
      'gitmem/reflection/r1',
      gitIn(h, 'ada', ['rev-parse', 'HEAD~2']),
      { 'notes/tea.md': text, 'notes/new.md': '---\ndescription: New\n---\nnew\n' },
      'reflection: rooibos',
    );
    const stale = await api('conflicts/take?agent=ada', {
      method: 'POST',
      body: { branch: 'gitmem/reflection/r1', head, main: head, reason: 'x' },
    });
    expect(stale.status).toBe(400);
    expect(gitIn(h, 'ada', ['rev-parse', 'HEAD'])).toBe(main);
    const r = await api<{ commit: string; paths: string[] }>('conflicts/take?agent=ada', {
      method: 'POST',
      body: { branch: 'gitmem/reflection/r1', head, main, reason: 'the reflection got it right' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(gitIn(h, 'ada', ['log', '-1', '--format=%s'])).toBe('the reflection got it right');
    expect(gitIn(h, 'ada', ['show', 'HEAD:notes/tea.md'])).toBe(text.trimEnd());
    expect(readFileSync(join(h.memoryDir('ada'), 'notes/tea.md'), 'utf8')).toBe(text);
    expect(readFileSync(join(h.memoryDir('ada'), 'notes/new.md'), 'utf8')).toBe('---\ndescription: New\n---\nnew\n');
    expect(gitIn(h, 'ada', ['branch', '--list', 'gitmem/reflection/r1'])).toBe('');
    expect(gitIn(h, 'ada', ['status', '--porcelain'])).toBe('');
  });

  it('refuses to take a side it cannot write exactly (no guess), leaving everything as it was', async () => {
    const main = gitIn(h, 'ada', ['rev-parse', 'HEAD']);
    const head = makeKeptBranch(
      h,
      'ada',
      'gitmem/conflict/crlf',
      main,
      { 'notes/tea.md': '---\r\ndescription: Tea\r\n---\r\nwindows\r\n', 'notes/bare.md': 'no frontmatter\n' },
      'crlf',
    );
    const d = await api<{ take: Array<{ path: string; problem?: string }> }>(
      'conflict?agent=ada&branch=gitmem/conflict/crlf',
    );
    expect(d.body.take.map((f) => [f.path, f.problem])).toEqual([
      ['notes/bare.md', 'has no frontmatter description of its own'],
      ['notes/tea.md', 'has carriage returns'],
    ]);
    const r = await api<{ error: { message: string } }>('conflicts/take?agent=ada', {
      method: 'POST',
      body: { branch: 'gitmem/conflict/crlf', head, main, reason: 'try' },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/cannot take gitmem\/conflict\/crlf exactly/);
    expect(gitIn(h, 'ada', ['rev-parse', 'HEAD'])).toBe(main);
    expect(gitIn(h, 'ada', ['rev-parse', 'refs/heads/gitmem/conflict/crlf'])).toBe(head);
  });
});

describe('the background side', () => {
  it('reflection runs (newest first), transcript cursors and the reviewed lines of a transcript', async () => {
    const agentDir = join(h.home, 'agents', 'ada');
    appendRunLog(agentDir, {
      kind: 'reflection',
      startedAt: '2026-01-01T10:00:00.000Z',
      durationMs: 1500,
      steps: 4,
      inputTokens: 5120,
      outputTokens: 410,
      outcome: 'merged',
      model: 'local:qwen',
    });
    appendRunLog(agentDir, {
      kind: 'dream',
      startedAt: '2026-01-02T10:00:00.000Z',
      durationMs: 900,
      steps: 2,
      inputTokens: 100,
      outputTokens: 10,
      outcome: 'no_changes',
      model: 'local:qwen',
    });
    appendTranscript(agentDir, 'conv-1', [
      { kind: 'user', text: 'I drink rooibos now' },
      { kind: 'assistant', text: 'Noted.' },
      { kind: 'user', text: 'and no sugar' },
    ]);
    const r = await api<{
      runs: Array<{ kind: string; outcome: string; steps: number }>;
      cursors: Array<{ conversation: string; lines: number; reflectedThroughLine: number }>;
    }>('reflection?agent=ada');
    expect(r.body.runs.map((x) => [x.kind, x.outcome, x.steps])).toEqual([
      ['dream', 'no_changes', 2],
      ['reflection', 'merged', 4],
    ]);
    expect(r.body.cursors).toEqual([
      expect.objectContaining({ conversation: 'conv-1', lines: 3, reflectedThroughLine: 0 }),
    ]);
    const t = await api<{ rows: Array<{ line: number; text: string }> }>(
      'transcript?agent=ada&conversation=conv-1&from=2&to=3',
    );
    expect(t.body.rows).toEqual([
      { line: 2, kind: 'assistant', text: 'Noted.' },
      { line: 3, kind: 'user', text: 'and no sugar' },
    ]);
  });

  it('sync state: remote, ahead/behind, the tracking ref moves and the mirror', async () => {
    const bare = join(makeTmpDir('gitmem-palace-remote-'), 'r.git');
    spawnSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    h.cli(['remote', 'set', bare, '--agent', 'ada']);
    h.cli(['sync', '--agent', 'ada']);
    const s = await api<{
      remote: { url: string; upstream: string; ahead: number };
      tracking: Array<{ what: string }>;
      mirror: { url: null };
    }>('sync?agent=ada');
    expect(s.body.remote).toMatchObject({ url: bare, upstream: 'origin/main', ahead: 0, behind: 0 });
    expect(s.body.tracking.length).toBeGreaterThan(0);
    expect(s.body.mirror.url).toBeNull();
  });
});

describe('the change stream', () => {
  it('sends memory_updated within the watch delay after another process writes', async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${p.url}events?agent=ada`, { signal: ctrl.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const until = async (pattern: RegExp): Promise<void> => {
      while (!pattern.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    };
    await until(/event: ready/);
    h.cli([
      'memory',
      'create',
      'notes/live.md',
      '--description',
      'Live',
      '--text',
      'hello\n',
      '--reason',
      'written elsewhere',
      '--agent',
      'ada',
    ]);
    await until(/event: memory_updated\ndata: .*\n\n/);
    ctrl.abort();
    const data = JSON.parse(/event: memory_updated\ndata: (.*)\n/.exec(text)?.[1] ?? '{}') as {
      affected_paths: string[];
      writer: string;
      agent: string;
    };
    expect(data).toMatchObject({ agent: 'ada', writer: 'agent', affected_paths: ['notes/live.md'] });
  });
});

describe('gitmem palace refuses', () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, [GITMEM_BIN, 'palace', ...args], { env: h.env, encoding: 'utf8', timeout: 10_000 });

  it('a non-loopback --host without --token-file', () => {
    const r = run(['--host', '0.0.0.0']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--token-file/);
  });

  it('a token file others can read, or a malformed one; a missing one is created 0600 and used', async () => {
    const dir = makeTmpDir('gitmem-palace-token-');
    const loose = join(dir, 'loose');
    writeFileSync(loose, `${'a'.repeat(43)}\n`);
    chmodSync(loose, 0o644);
    expect(run(['--token-file', loose]).stderr).toMatch(/CREDENTIALS_INSECURE|readable by others/);
    const short = join(dir, 'short');
    writeFileSync(short, 'abc\n', { mode: 0o600 });
    expect(run(['--token-file', short]).status).toBe(1);
    const fresh = join(dir, 'fresh');
    const q = await startPalaceProcess(h, ['--token-file', fresh]);
    try {
      expect(statSync(fresh).mode & 0o777).toBe(0o600);
      expect(readFileSync(fresh, 'utf8').trim()).toBe(q.token);
      expect(q.token.length).toBeGreaterThanOrEqual(43);
    } finally {
      await q.stop();
    }
  });
});

describe('gitmem palace --open', () => {
  /** A fake browser opener on PATH that records its arguments and what the file it was given holds. */
  function fakeOpener(): { env: PalaceHome; record: string } {
    const bin = makeTmpDir('gitmem-fake-opener-');
    const record = join(bin, 'record');
    writeFileSync(
      join(bin, 'xdg-open'),
      `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}.argv'\nf="\${1#file://}"\nstat -c %a "$f" > '${record}.mode'\ncat "$f" > '${record}.page'\n`,
      { mode: 0o755 },
    );
    return { env: { ...h, env: { ...h.env, PATH: `${bin}:${h.env['PATH'] ?? ''}` } }, record };
  }

  it('opens the page through a private redirect file: the token never sits on a command line', async () => {
    const { env, record } = fakeOpener();
    const q = await startPalaceProcess(env, ['--open']);
    try {
      await expect
        .poll(() => existsSync(`${record}.page`) && readFileSync(`${record}.page`, 'utf8').length > 0, {
          timeout: 10_000,
        })
        .toBe(true);
      const argv = readFileSync(`${record}.argv`, 'utf8');
      expect(argv).toMatch(/^file:\/\/\S+\.html\n$/);
      expect(argv).not.toContain(q.token);
      expect(readFileSync(`${record}.mode`, 'utf8').trim()).toBe('600');
      expect(readFileSync(`${record}.page`, 'utf8')).toContain(`content="0;url=${q.url}"`);
    } finally {
      await q.stop();
    }
  });

  it('does not start a browser under SSH, and says so', async () => {
    const { env, record } = fakeOpener();
    const q = await startPalaceProcess({ ...env, env: { ...env.env, SSH_CONNECTION: '10.0.0.1 5000 10.0.0.2 22' } }, [
      '--open',
    ]);
    try {
      await expect.poll(() => q.stderr(), { timeout: 10_000 }).toMatch(/not opening a browser under SSH/);
      expect(existsSync(`${record}.argv`)).toBe(false);
    } finally {
      await q.stop();
    }
  });
});
