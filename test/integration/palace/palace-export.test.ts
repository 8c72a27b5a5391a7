// `gitmem palace --export FILE.html`: one self-contained page, written mode 0600 (a link at the target is
// replaced, never followed), with a CSP that allows only its own inline script and style by hash, the
// snapshot as inert JSON (memory text cannot close the script element), at most 500 commits and the
// diffs of the 50 newest within their size budget.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportSnapshot } from '../../../src/palace/api-types.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';
import { gitIn, palaceHome, type PalaceHome } from '../../helpers/palace-fixture.js';

let h: PalaceHome;
let out: string;

function snapshotOf(html: string): ExportSnapshot {
  const json = /<script type="application\/json" id="palace-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  return JSON.parse(json) as ExportSnapshot;
}

beforeAll(() => {
  h = palaceHome(['ada']);
  const dir = h.memoryDir('ada');
  // 560 commits by fast-import (one file each), then a large change: the limits must bite.
  const lines: string[] = [];
  for (let i = 0; i < 560; i++) {
    const body = `---\ndescription: note ${i}\n---\nnote ${i} </script><script>alert(1)</script>\n`;
    lines.push(
      'commit refs/heads/main',
      `committer T <t@example.com> ${1_700_000_000 + i} +0000`,
      `data ${Buffer.byteLength(`note ${i}`)}`,
      `note ${i}`,
    );
    if (i === 0) lines.push(`from ${gitIn(h, 'ada', ['rev-parse', 'HEAD'])}`);
    lines.push(`M 100644 inline notes/n${i}.md`, `data ${Buffer.byteLength(body)}`, body);
  }
  const r = spawnSync('git', ['fast-import', '--quiet'], { cwd: dir, env: h.env, input: `${lines.join('\n')}\n` });
  if (r.status !== 0) throw new Error(String(r.stderr));
  gitIn(h, 'ada', ['reset', '-q', '--hard', 'main']);
  writeFileSync(join(dir, 'notes', 'big.md'), `---\ndescription: big\n---\n${'x'.repeat(120)}\n`.repeat(2000));
  gitIn(h, 'ada', ['add', '-A']);
  gitIn(h, 'ada', ['commit', '-q', '-m', 'a big note']);
  out = join(makeTmpDir('gitmem-palace-export-'), 'ada.html');
});
afterAll(() => cleanupTmp());

describe('gitmem palace --export', () => {
  it('writes one private file with a hash-pinned CSP and the snapshot inside', () => {
    const printed = h.cli(['palace', '--export', out, '--agent', 'ada', '--json']);
    expect(JSON.parse(printed)).toMatchObject({ path: out, commits: 500, diffs: 50 });
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const html = readFileSync(out, 'utf8');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/unsafe|https?:|\*/);
    const script = /<script type="module">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(csp).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(html.match(/<script/g)).toHaveLength(2); // the page's and the inert snapshot, nothing from memory
    expect(html).not.toContain('<script>alert(1)');
    const snap = snapshotOf(html);
    expect(snap.agent).toBe('ada');
    expect(snap.files.find((f) => f.path === 'notes/n3.md')?.text).toContain('</script><script>alert(1)</script>');
  });

  it('keeps to its limits: 500 commits, diffs of the 50 newest, each at most 100 KB', () => {
    const snap = snapshotOf(readFileSync(out, 'utf8'));
    expect(snap.commits).toHaveLength(500);
    expect(snap.commits[0]?.reason).toBe('a big note');
    const diffs = Object.entries(snap.diffs);
    expect(diffs).toHaveLength(50);
    expect(Object.keys(snap.diffs)).toEqual(snap.commits.slice(0, 50).map((c) => c.sha));
    const big = snap.diffs[snap.commits[0]?.sha as string];
    expect(big?.truncated).toBe(true);
    for (const [, d] of diffs) expect(Buffer.byteLength(d.text)).toBeLessThanOrEqual(100 * 1024 + 64);
  });

  it('replaces a link at the target instead of writing through it', () => {
    const dir = makeTmpDir('gitmem-palace-export-link-');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    const target = join(dir, 'out.html');
    symlinkSync(victim, target);
    h.cli(['palace', '--export', target, '--agent', 'ada']);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(target).isFile()).toBe(true);
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });
});
