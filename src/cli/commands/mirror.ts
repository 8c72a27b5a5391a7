/** `gitmem mirror set <url> | push | status | unset`: a push-only mirror of main, pushed after each commit. */
import { createGitRunner, MemoryError, mirrorStatus, pushMirror, resolveCredentials, resolveMemoryDir, setMirror, unsetMirror } from '../../index.js';
import type { MirrorPushResult } from '../../index.js';
import type { CliCommand, CliContext } from '../types.js';

function pushText(r: MirrorPushResult): string {
  return r.ok ? `Pushed ${r.branch} to ${r.url}.\n${r.output || 'Pushed (no output).'}` : `Push failed:\n${r.output}`;
}

/** The sync credentials, which an HTTP(S) mirror uses too (scoped to the mirror's origin). */
function credentialsOf(ctx: CliContext): { credentials?: NonNullable<ReturnType<typeof resolveCredentials>> } {
  const credentials = resolveCredentials({ env: ctx.env, home: ctx.home });
  return credentials ? { credentials } : {};
}

async function set(ctx: CliContext, memoryDir: string, url: string): Promise<number> {
  if (!url) throw new MemoryError('INVALID_ARGUMENT', 'usage: gitmem mirror set <url>');
  const r = await setMirror({ git: createGitRunner({ env: ctx.env }), memoryDir, url, baseDir: ctx.cwd, home: ctx.home, ...credentialsOf(ctx) });
  let tail = 'Nothing to push yet; the first commit on main will push.';
  if (r.initialPush?.ok) tail = 'Initial push succeeded.';
  else if (r.initialPush) tail = `Initial push failed:\n${r.initialPush.output}\n\nFix it and run \`gitmem mirror push\`, or wait for the next commit.`;
  ctx.print(r, `Mirror URL set to ${r.url}.\n${tail}`);
  return 0;
}

function lastText(last: Awaited<ReturnType<typeof mirrorStatus>>['last']): string {
  if (!last) return '';
  const what = last.ok ? 'succeeded' : `failed: ${last.output.split('\n').at(-1) ?? ''}`;
  return `Last push (${last.trigger}, ${last.at}, ${last.commit}) ${what}\n`;
}

export const command: CliCommand = {
  name: 'mirror',
  summary: 'manage a push-only mirror of main (pushed in the background after each commit)',
  usage: 'Usage: gitmem mirror set <url> | push | status | unset [--agent ID] [--json]',
  async run(ctx) {
    const [sub = 'status', ...rest] = ctx.args;
    const memoryDir = resolveMemoryDir({ home: ctx.home, agentId: ctx.agent, env: ctx.env });
    const git = createGitRunner({ env: ctx.env });
    if (sub === 'set') return set(ctx, memoryDir, rest.join(' ').trim());
    if (sub === 'push') {
      const r = await pushMirror({ git, memoryDir, ...credentialsOf(ctx) });
      ctx.print(r, pushText(r));
      return r.ok ? 0 : 1;
    }
    if (sub === 'status') {
      const s = await mirrorStatus({ git, memoryDir });
      const text =
        s.url === null
          ? 'No mirror URL configured.\nUse `gitmem mirror set <url>` to configure one.'
          : `Mirror URL: ${s.url}\n${lastText(s.last)}Recent push log:\n${s.log.length > 0 ? s.log.join('\n') : '(no commits have triggered the hook yet)'}`;
      ctx.print(s, text);
      return 0;
    }
    if (sub === 'unset' || sub === 'remove' || sub === 'rm') {
      const r = await unsetMirror({ git, memoryDir });
      ctx.print(r, r.removed === null ? 'No mirror URL was configured.' : `Mirror URL removed (was ${r.removed}).`);
      return 0;
    }
    throw new MemoryError('UNKNOWN_COMMAND', `unknown sub-command '${sub}' (use set, push, status or unset)`);
  },
};
