/**
 * Reading gitmem's own settings from a repository's git config as plain text (what `git config` writes), so
 * an open or a check needs no git process. One reader for every `[gitmem]` key (fsync, budgetSystem).
 */

/** The last `[gitmem] <key>` value of a git config file's text (plain text, as `git config` writes it). Pure. */
export function gitmemConfigValue(config: string, key: string): string | undefined {
  let section = '';
  let value: string | undefined;
  const pattern = new RegExp(`^\\s*${key}\\s*=\\s*(.*?)\\s*$`, 'i');
  for (const line of config.split('\n')) {
    const head = /^\s*\[([^\]]*)\]/.exec(line);
    if (head) section = (head[1] ?? '').trim().toLowerCase();
    const m = section === 'gitmem' ? pattern.exec(head ? line.slice(head[0].length) : line) : null;
    if (m) value = (m[1] ?? '').replace(/^"(.*)"$/, '$1');
  }
  return value;
}
