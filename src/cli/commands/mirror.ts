/** `gitmem mirror set <url> | push | status | unset`: a push-only mirror of main, pushed after each commit. */
import { createGitRunner, MemoryError, mirrorStatus, pushMirror, setMirror, unsetMirror } from '../../index.js';
import type { MirrorLastPush, MirrorPushResult } from '../../index.js';
import { openMemoryDir } from '../../memory.js';
import type { CliCommand, CliContext } from '../types.js';

const USAGE = `Usage:
  gitmem mirror set <url>   store the mirror URL and push main to it now (exit 1 if that push fails)
  gitmem mirror push        push main to the mirror now (exit 1 if it fails)
  gitmem mirror status      the URL, the last push's result and the recent push log
  gitmem mirror unset       forget the mirror URL
After each commit on main the post-commit hook pushes to the mirror in the background.
Global: --agent ID, --home DIR, --json.`;

/** A failed push as the one error of the call: the git output follows the first line. */
function pushFailed(first: string, r: MirrorPushResult, extra: Record<string, unknown> = {}): MemoryError {
  return new MemoryError('PUSH_FAILED', r.output ? `${first}\n${r.output}` : first, { data: { ...extra, push: r } });
}

async function set(ctx: CliContext, memoryDir: string, url: string): Promise<number> {
  if (!url) throw new MemoryError('INVALID_ARGUMENT', 'mirror set: the <url> is empty');
  const r = await setMirror({ git: createGitRunner({ env: ctx.env }), memoryDir, url, baseDir: ctx.cwd });
  if (r.initialPush && !r.initialPush.ok) {
    const first = `mirror URL set to ${r.url}, but the first push failed; fix it and run \`gitmem mirror push\` (or wait for the next commit)`;
    throw pushFailed(first, r.initialPush, { url: r.url });
  }
  const tail = r.initialPush ? 'Initial push succeeded.' : 'Nothing to push yet; the first commit on main will push.';
  ctx.print(r, `Mirror URL set to ${r.url}.\n${tail}`);
  return 0;
}

function describeLast(p: MirrorLastPush | null): string {
  if (p === null) return 'last push: none yet (no commit has triggered the hook)';
  return `last push: ${p.ok ? 'ok' : `failed (exit ${p.exitCode})`} at ${p.at}, ${p.sha} on ${p.branch}`;
}

export const command: CliCommand = {
  name: 'mirror',
  summary: 'manage a push-only mirror of main (pushed in the background after each commit)',
  usage: USAGE,
  async run(ctx) {
    const [sub, first] = ctx.args;
    const memoryDir = openMemoryDir({ home: ctx.home, agentId: ctx.agent, env: ctx.env }).memoryDir;
    const git = createGitRunner({ env: ctx.env });
    if (sub === 'set') return set(ctx, memoryDir, (first ?? '').trim());
    if (sub === 'push') {
      const r = await pushMirror({ git, memoryDir });
      if (!r.ok) throw pushFailed(`push to the mirror ${r.url ?? ''} failed`, r);
      ctx.print(r, `Pushed ${r.branch} to ${r.url}.\n${r.output || 'Pushed (no output).'}`);
      return 0;
    }
    if (sub === 'status') {
      const s = await mirrorStatus({ git, memoryDir });
      const text =
        s.url === null
          ? 'No mirror URL configured.\nUse `gitmem mirror set <url>` to configure one.'
          : `Mirror URL: ${s.url}\n${describeLast(s.lastPush)}\nRecent push log:\n${s.log.length > 0 ? s.log.join('\n') : '(empty)'}`;
      ctx.print(s, text);
      return 0;
    }
    const r = await unsetMirror({ git, memoryDir });
    ctx.print(r, r.removed === null ? 'No mirror URL was configured.' : `Mirror URL removed (was ${r.removed}).`);
    return 0;
  },
};
