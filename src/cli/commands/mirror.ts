/** `gitmem mirror set <url> | push | status | unset`: a push-only mirror of main, pushed after each commit. */
import { MemoryError } from '../../index.js';
import type { Memory, MirrorPushResult, MirrorStatus } from '../../index.js';
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

async function set(ctx: CliContext, mirror: Memory['mirror'], url: string): Promise<number> {
  if (!url) throw new MemoryError('INVALID_ARGUMENT', 'mirror set: the <url> is empty');
  // An HTTP(S) mirror uses the sync credentials too (scoped to the mirror's origin).
  const r = await mirror.set(url, { baseDir: ctx.cwd });
  if (r.initialPush && !r.initialPush.ok) {
    const first = `mirror URL set to ${r.url}, but the first push failed; fix it and run \`gitmem mirror push\` (or wait for the next commit)`;
    throw pushFailed(first, r.initialPush, { url: r.url });
  }
  const tail = r.initialPush ? 'Initial push succeeded.' : 'Nothing to push yet; the first commit on main will push.';
  ctx.print(r, `Mirror URL set to ${r.url}.\n${tail}`);
  return 0;
}

function lastText(last: MirrorStatus['last']): string {
  if (!last) return 'Last push: none yet (no commit has triggered the hook)\n';
  const what = last.ok ? 'succeeded' : `failed: ${last.output.split('\n').at(-1) ?? ''}`;
  return `Last push (${last.trigger}, ${last.at}, ${last.commit}) ${what}\n`;
}

export const command: CliCommand = {
  name: 'mirror',
  usage: USAGE,
  async run(ctx) {
    const [sub, first] = ctx.args;
    const { mirror } = await ctx.openMemory();
    if (sub === 'set') return set(ctx, mirror, (first ?? '').trim());
    if (sub === 'push') {
      const r = await mirror.push();
      if (!r.ok) throw pushFailed(`push to the mirror ${r.url ?? ''} failed`, r);
      ctx.print(r, `Pushed ${r.branch} to ${r.url}.\n${r.output || 'Pushed (no output).'}`);
      return 0;
    }
    if (sub === 'status') {
      const s = await mirror.status();
      const text =
        s.url === null
          ? 'No mirror URL configured.\nUse `gitmem mirror set <url>` to configure one.'
          : `Mirror URL: ${s.url}\n${lastText(s.last)}Recent push log:\n${s.log.length > 0 ? s.log.join('\n') : '(no commits have triggered the hook yet)'}`;
      ctx.print(s, text);
      return 0;
    }
    const r = await mirror.unset();
    ctx.print(r, r.removed === null ? 'No mirror URL was configured.' : `Mirror URL removed (was ${r.removed}).`);
    return 0;
  },
};
