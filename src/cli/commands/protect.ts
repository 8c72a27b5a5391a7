/**
 * `gitmem protect [list] | add <path>… | remove <path>… | write <path>`: the protected list — paths gitmem saw
 * committed as read_only, which no tool write, plain commit or merge may change even after the key is gone —
 * and the operator's write of such a file. All are operator actions; the agent's tools can do none of them.
 */
import { MemoryError } from '../../index.js';
import type { CliCommand, CliContext } from '../types.js';

const SUBS = ['list', 'add', 'remove', 'write'];

/** `protect write <path> --text-file F --reason R`: every input read and checked before the memory opens. */
async function write(ctx: CliContext, paths: string[]): Promise<void> {
  const [path, ...extra] = paths;
  if (path === undefined || extra.length > 0)
    throw new MemoryError('INVALID_ARGUMENT', 'usage: gitmem protect write <path> --text-file F --reason R');
  const source = ctx.option('text-file');
  if (source === undefined)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      "protect write: give the file's whole new text with --text-file F (- reads standard input)",
      { data: { field: 'text-file' } },
    );
  const reason = ctx.option('reason');
  if (reason === undefined || reason.trim() === '')
    throw new MemoryError('INVALID_ARGUMENT', 'protect write: --reason R is required (it becomes the commit message)', {
      data: { field: 'reason' },
    });
  const text = await ctx.readText(source);
  const { protection } = await ctx.openMemory();
  const result = await protection.write(path, text, { reason });
  const after = result.protected
    ? 'on the protected list (`gitmem protect remove` lifts it)'
    : 'not on the protected list';
  ctx.print(result, `${result.message} ${result.paths.join(', ')}\n${result.paths.join(', ')} is ${after}.`);
}

export const command: CliCommand = {
  name: 'protect',
  usage: `Usage: gitmem protect [list] | add <path>... | remove <path>... | write <path> --text-file F --reason R [--agent ID] [--json]
  list    the protected paths (gitmem first records the read_only files committed since it last looked)
  add     protect paths (files need not exist yet)
  remove  lift protection; a file whose frontmatter still says read_only stays protected by it
  write   create or replace a file, read_only or protected included, with the whole text of F (- is stdin;
          UTF-8, or UTF-16 with a byte-order mark): one commit whose message is R, authored by you — your git
          identity (GIT_AUTHOR_NAME/EMAIL, else user.name/user.email of your git configuration, not the
          memory's own), else "gitmem operator <operator@gitmem.local>" — never by the agent. Every other rule
          still holds (paths, links, frontmatter, secrets, budgets). A read_only text puts the path on the
          protected list; a path already on it stays there until remove.`,
  async run(ctx) {
    const [sub = 'list', ...paths] = ctx.args;
    if (!SUBS.includes(sub))
      throw new MemoryError('UNKNOWN_COMMAND', `unknown sub-command '${sub}' (use list, add, remove or write)`);
    if (sub !== 'write' && (ctx.option('reason') !== undefined || ctx.option('text-file') !== undefined)) {
      throw new MemoryError('INVALID_ARGUMENT', `protect ${sub}: --reason and --text-file belong to protect write`);
    }
    if (sub === 'write') return void (await write(ctx, paths));
    const { protection } = await ctx.openMemory();
    if (sub === 'list') {
      const list = await protection.list();
      ctx.print(list, list.length > 0 ? list.join('\n') : 'No protected paths.');
      return 0;
    }
    if (paths.length === 0) throw new MemoryError('INVALID_ARGUMENT', `usage: gitmem protect ${sub} <path>...`);
    const list = sub === 'add' ? await protection.add(paths) : await protection.remove(paths);
    ctx.print(
      list,
      `${sub === 'add' ? 'Protected' : 'Unprotected'}: ${paths.join(', ')}\nProtected paths now: ${list.length > 0 ? list.join(', ') : '(none)'}`,
    );
    return 0;
  },
};
