/**
 * The files outside the work tree whose content changes what `git status` reports (ignore rules,
 * attributes, the configuration that names them). Their stat signatures are the check's fingerprint: when
 * one changes, files nobody touched may turn visible, so the clean check walks everything again.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';

/** The default locations git reads, for this git dir and environment. */
export function defaultRuleFiles(gitDir: string, env: Record<string, string | undefined>): string[] {
  const home = env['HOME'];
  const xdg = env['XDG_CONFIG_HOME'] || (home ? join(home, '.config') : undefined);
  const files = ['config', 'info/exclude', 'info/attributes', 'info/sparse-checkout'].map((f) => join(gitDir, f));
  const global = env['GIT_CONFIG_GLOBAL'] ?? (home ? join(home, '.gitconfig') : undefined);
  if (global) files.push(global);
  if (xdg) files.push(...['config', 'ignore', 'attributes'].map((f) => join(xdg, 'git', f)));
  if (!env['GIT_CONFIG_NOSYSTEM']) files.push(env['GIT_CONFIG_SYSTEM'] ?? '/etc/gitconfig', '/etc/gitattributes');
  return files;
}

/** One string naming each file's identity and last change (absent files included, as absent). */
export function fingerprint(files: readonly string[]): string {
  return files
    .map((f) => {
      const s = statSync(f, { bigint: true, throwIfNoEntry: false });
      return s === undefined ? `${f}:-` : `${f}:${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
    })
    .join('\n');
}

/** Names in the work tree whose change affects other paths' status: such a change forces the full walk. */
export function isRuleFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base === '.gitignore' || base === '.gitattributes' || base === '.gitmodules';
}
