/**
 * The secret allow list: fingerprints (see blocks/secrets.ts) of matched values an operator declared not to be
 * credentials, kept in the common git dir (`gitmem-secrets-allowed`), outside the repository's history. The
 * validator skips a finding whose fingerprint is listed, on every write path. Background writers cannot touch
 * it (their sandbox makes the common git dir read-only) and the memory tool never writes it: adding to it is
 * an operator action (`gitmem secrets allow`).
 *
 * Format: one fingerprint (16 hex digits) per line, optionally followed by `# note`; other lines are ignored.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../errors.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { withMemoryOperation } from '../git/lease.js';

/** File name inside the common git dir. */
export const SECRETS_ALLOWED_FILE = 'gitmem-secrets-allowed';

const FINGERPRINT = /^[0-9a-f]{16}$/;
const LINE = /^\s*([0-9a-f]{16})\b\s*(?:#\s?(.*))?$/;

interface Entry {
  fingerprint: string;
  note: string;
}

function readEntries(repoDir: string, commonDir?: string): Entry[] {
  let text: string;
  try {
    text = readFileSync(join(commonDir ?? resolveGitCommonDir(repoDir), SECRETS_ALLOWED_FILE), 'utf8');
  } catch {
    return [];
  }
  const out: Entry[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (m?.[1]) out.push({ fingerprint: m[1], note: (m[2] ?? '').trim() });
  }
  return out;
}

/**
 * The allowed fingerprints of the repository containing `repoDir` (validator input; a plain file read).
 * @example findProblems(changes, { secrets: { allowed: readAllowedSecrets(memoryDir) } })
 */
export function readAllowedSecrets(repoDir: string, commonDir?: string): ReadonlySet<string> {
  return new Set(readEntries(repoDir, commonDir).map((e) => e.fingerprint));
}

/**
 * The allow list as `{ fingerprint, note }` entries.
 * @example listAllowedSecrets(memoryDir) // [{ fingerprint: '3f9a0c…', note: 'docs example' }]
 */
export function listAllowedSecrets(repoDir: string): Entry[] {
  return readEntries(repoDir);
}

async function editList(repoDir: string, edit: (m: Map<string, string>) => void, purpose: string): Promise<Entry[]> {
  return withMemoryOperation(
    repoDir,
    () => {
      const entries = new Map(readEntries(repoDir).map((e) => [e.fingerprint, e.note]));
      edit(entries);
      const file = join(resolveGitCommonDir(repoDir), SECRETS_ALLOWED_FILE);
      const tmp = `${file}.${process.pid}.tmp`;
      const lines = [...entries].map(([fp, note]) => (note ? `${fp} # ${note}` : fp));
      writeFileSync(
        tmp,
        `# fingerprints gitmem's secret scan allows (gitmem secrets allow|remove)\n${lines.map((l) => `${l}\n`).join('')}`,
      );
      renameSync(tmp, file);
      return [...entries].map(([fingerprint, note]) => ({ fingerprint, note }));
    },
    { purpose },
  );
}

/**
 * Operator action: allows the values with these fingerprints (as a refusal names them). Returns the list.
 * @example await allowSecrets(memoryDir, ['3f9a0c1d2e4b5a69'], 'AWS docs example')
 */
export async function allowSecrets(repoDir: string, fingerprints: readonly string[], note = ''): Promise<Entry[]> {
  for (const fp of fingerprints) {
    if (!FINGERPRINT.test(fp))
      throw new MemoryError(
        'INVALID_ARGUMENT',
        `not a secret fingerprint: ${JSON.stringify(fp.slice(0, 40))} (16 hex digits, as a SECRET_DETECTED refusal names it)`,
      );
  }
  const clean = note.replace(/[\r\n]+/g, ' ').trim();
  return editList(
    repoDir,
    (m) => fingerprints.forEach((fp) => m.set(fp, clean || (m.get(fp) ?? ''))),
    'gitmem secrets allow',
  );
}

/**
 * Operator action: removes fingerprints from the allow list. Returns the list.
 * @example await disallowSecrets(memoryDir, ['3f9a0c1d2e4b5a69'])
 */
export async function disallowSecrets(repoDir: string, fingerprints: readonly string[]): Promise<Entry[]> {
  return editList(repoDir, (m) => fingerprints.forEach((fp) => m.delete(fp)), 'gitmem secrets remove');
}
