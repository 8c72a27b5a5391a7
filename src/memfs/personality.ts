/**
 * Applies a personality preset as one commit: the persona file gets the preset's persona; the human file
 * gets the preset's human text only while it still holds a starter or preset text — what the agent learned
 * about its human is never discarded silently (WOULD_DISCARD_EDITS unless forced). Frontmatter is kept;
 * refuses on a dirty repo like every automated write. Where the two files live is the repository's layout's
 * (blocks/layouts.ts `corePath`: `system/persona.md`, or `persona.md` in the root for the index layout).
 */
import { listPersonalities, getPersonality } from '../blocks/personalities.js';
import { normalizeText, splitFrontmatter } from '../blocks/frontmatter.js';
import { composeMemoryFile, replaceBodyPreservingFrontmatter } from '../blocks/replace-body.js';
import type { LayoutRow } from '../blocks/layouts.js';
import { MemoryError } from '../errors.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { readLayoutAt } from '../hooks/layout-config.js';
import type { CommandContext } from './commands/context.js';
import { readFile } from './commands/context.js';
import type { FileEdit } from './edits.js';
import { RepoFs } from './repo-fs.js';
import { writeUnderLease, type WriteDeps, type WriteResult } from './tool.js';

export interface PersonalityOptions {
  /** The commit message's first line (default `chore(personality): switch to <id>`). */
  reason?: string;
  /** Replace the human file (system/human.md, or human.md in the index layout) even when it holds learned text. */
  force?: boolean;
}

function bodyOf(file: string): string {
  const split = splitFrontmatter(file);
  return (split.kind === 'ok' ? split.body : normalizeText(file)).trim();
}

/** True when `file` is absent or its body is a starter/preset human text (nothing learned to lose). */
function holdsPresetHuman(file: string | null): boolean {
  if (file === null) return true;
  const body = bodyOf(file);
  return listPersonalities().some((p) => p.human.body.trim() === body);
}

/** A new core file carries the frontmatter the layout requires (the index layout's `name` too). */
function edit(
  ctx: CommandContext,
  layout: LayoutRow,
  name: string,
  text: { description: string; body: string },
): FileEdit {
  const file = layout.corePath(name);
  const before = readFile(ctx, file);
  const data = layout.requiredKeys.includes('name')
    ? { name, description: text.description }
    : { description: text.description };
  const after =
    before === null
      ? composeMemoryFile(data, text.body)
      : replaceBodyPreservingFrontmatter(before, text.body, { description: text.description });
  const same = before !== null && after.replace(/\s+$/, '') === before.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
  return { file, before, after: same ? before : after };
}

/**
 * Plans the persona/human edits for a personality (pure over the current files); `learned` is true when
 * human.md held learned text that `force` lets go. Throws WOULD_DISCARD_EDITS naming the file otherwise.
 */
function planPersonality(
  ctx: CommandContext,
  layout: LayoutRow,
  personalityId: string,
  force = false,
): { edits: FileEdit[]; learned: boolean; human: string } {
  const p = getPersonality(personalityId);
  const human = layout.corePath('human');
  const learned = !holdsPresetHuman(readFile(ctx, human));
  if (learned && !force) {
    throw new MemoryError(
      'WOULD_DISCARD_EDITS',
      `${human} holds text learned about the human (not a starter or preset text); applying "${p.id}" would replace it — edit it by hand, or pass --force to replace it anyway (persona.md is unchanged)`,
      { data: { path: human, personality: p.id } },
    );
  }
  return {
    edits: [edit(ctx, layout, 'persona', p.persona), edit(ctx, layout, 'human', p.human)],
    learned,
    human,
  };
}

/** The commit message: the reason, then which files were replaced (and what --force let go). */
function messageFor(id: string, plan: { edits: FileEdit[]; learned: boolean; human: string }, reason?: string): string {
  const replaced = plan.edits.filter((e) => e.after !== e.before).map((e) => e.file);
  const lines = [reason?.trim() || `chore(personality): switch to ${id}`, ''];
  lines.push(
    replaced.length > 0 ? `Replaced ${replaced.join(' and ')} with the "${id}" texts.` : 'Nothing to replace.',
  );
  if (plan.learned) lines.push(`The learned text of ${plan.human} was replaced on purpose (--force).`);
  return lines.join('\n');
}

/**
 * Switches the agent's personality in one commit whose message says what was replaced.
 * @example await applyPersonality(deps, 'stern')            // persona (and a still-preset human) replaced
 * @example await applyPersonality(deps, 'stern', { force: true }) // human replaced even if edited
 */
export async function applyPersonality(
  deps: WriteDeps,
  personalityId: string,
  options: PersonalityOptions = {},
): Promise<WriteResult> {
  const p = getPersonality(personalityId);
  const force = options.force === true;
  const ctxFor = (fs: RepoFs): CommandContext => ({ memoryDir: deps.memoryDir, tool: 'personality', fs });
  // Read again under the lease: a migration landing meanwhile moves the files to the other layout.
  const layout = (): LayoutRow => readLayoutAt(deps.gitDirs?.commonDir ?? resolveGitCommonDir(deps.memoryDir));
  // Planned once here for the message; planned again under the lease, where it counts and where its errors
  // are reported (after the clean check, like every write).
  let message: string;
  const probe = new RepoFs(deps.memoryDir);
  try {
    message = messageFor(p.id, planPersonality(ctxFor(probe), layout(), personalityId, force), options.reason);
  } catch {
    message = options.reason?.trim() || `chore(personality): switch to ${p.id}`;
  } finally {
    probe.close();
  }
  return writeUnderLease(
    deps,
    `personality ${p.id}`,
    message,
    (fs) => planPersonality(ctxFor(fs), layout(), personalityId, force).edits,
  );
}
