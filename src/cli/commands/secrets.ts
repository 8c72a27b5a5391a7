/**
 * `gitmem secrets [list] | allow <fingerprint>… [--note N] | remove <fingerprint>…`: the secret allow list —
 * fingerprints (as a SECRET_DETECTED refusal names them) of values that are not credentials. An operator
 * action: the agent's tools and background writers cannot change it.
 */
import { MemoryError } from '../../index.js';
import { allowSecrets, disallowSecrets, listAllowedSecrets, openMemoryDir } from '../../internals.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'secrets',
  usage: `Usage: gitmem secrets [list] | allow <fingerprint>... [--note TEXT] | remove <fingerprint>... [--agent ID] [--json]
  list    the allowed fingerprints (with their notes)
  allow   let the values with these fingerprints through every write path (a refusal names the fingerprint)
  remove  scan for them again`,
  async run(ctx) {
    const [sub = 'list', ...fingerprints] = ctx.args;
    const { memoryDir } = openMemoryDir({ home: ctx.home, agentId: ctx.agent, env: ctx.env });
    const show = (list: Array<{ fingerprint: string; note: string }>): string =>
      list.length > 0
        ? list.map((e) => (e.note ? `${e.fingerprint}  ${e.note}` : e.fingerprint)).join('\n')
        : 'No allowed fingerprints.';
    if (sub === 'list') {
      const list = listAllowedSecrets(memoryDir);
      ctx.print(list, show(list));
      return 0;
    }
    if (sub !== 'allow' && sub !== 'remove')
      throw new MemoryError('UNKNOWN_COMMAND', `unknown sub-command '${sub}' (use list, allow or remove)`);
    if (fingerprints.length === 0)
      throw new MemoryError('INVALID_ARGUMENT', `usage: gitmem secrets ${sub} <fingerprint>...`);
    const list =
      sub === 'allow'
        ? await allowSecrets(memoryDir, fingerprints, typeof ctx.values['note'] === 'string' ? ctx.values['note'] : '')
        : await disallowSecrets(memoryDir, fingerprints);
    ctx.print(list, `${sub === 'allow' ? 'Allowed' : 'Removed'}: ${fingerprints.join(', ')}\n${show(list)}`);
    return 0;
  },
};
