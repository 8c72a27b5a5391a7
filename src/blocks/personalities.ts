/**
 * Personality presets: named pairs of persona + human texts that `gitmem personality apply`
 * writes into system/persona.md and system/human.md. The table is data; the texts live in prompts/.
 */
import { MemoryError } from '../errors.js';
import { blockTextFromAsset, type BlockText } from './defaults.js';
import { normalizeText, splitFrontmatter } from './frontmatter.js';

/** A personality: what `apply` writes into the persona and human files. */
export interface Personality {
  id: string;
  label: string;
  summary: string;
  persona: BlockText;
  human: BlockText;
}

interface PersonalityRow {
  id: string;
  label: string;
  summary: string;
  persona: string;
  human: string;
}

const ROWS: readonly PersonalityRow[] = [
  {
    id: 'memo',
    label: 'Memo',
    summary: 'The memory-first default: a blank slate that learns who to be',
    persona: 'persona.md',
    human: 'human.md',
  },
  {
    id: 'blank',
    label: 'Blank',
    summary: 'No personality at all: you write it',
    persona: 'personalities/blank-persona.md',
    human: 'human.md',
  },
  {
    id: 'tutor',
    label: 'Tutor',
    summary: 'Teaches while it works: explains the why and checks understanding',
    persona: 'personalities/tutor-persona.md',
    human: 'personalities/tutor-human.md',
  },
  {
    id: 'stern',
    label: 'Stern',
    summary: 'An exacting senior engineer: terse, direct, high standards',
    persona: 'personalities/stern-persona.md',
    human: 'personalities/stern-human.md',
  },
  {
    id: 'cheerful',
    label: 'Cheerful',
    summary: 'Warm and upbeat: celebrates progress, stays careful',
    persona: 'personalities/cheerful-persona.md',
    human: 'personalities/cheerful-human.md',
  },
];

// Other names people may type for the default.
const ALIASES: Readonly<Record<string, string>> = { default: 'memo', gitmem: 'memo' };

function load(row: PersonalityRow): Personality {
  return {
    id: row.id,
    label: row.label,
    summary: row.summary,
    persona: blockTextFromAsset(row.persona),
    human: blockTextFromAsset(row.human),
  };
}

/**
 * Every personality preset, in display order.
 * @example listPersonalities().map((p) => p.id) // ['memo', 'blank', 'tutor', 'stern', 'cheerful']
 */
export function listPersonalities(): Personality[] {
  return ROWS.map(load);
}

/**
 * One preset by id (case-insensitive; `default` and `gitmem` mean `memo`). Unknown ⇒ UNKNOWN_PERSONALITY.
 * @example getPersonality('Tutor').id === 'tutor'
 */
export function getPersonality(id: string): Personality {
  const key = id.trim().toLowerCase();
  const row = ROWS.find((r) => r.id === (ALIASES[key] ?? key));
  if (row === undefined) {
    const ids = ROWS.map((r) => r.id);
    throw new MemoryError('UNKNOWN_PERSONALITY', `Unknown personality "${id}". Available: ${ids.join(', ')}`, {
      data: { personality: id, known: ids },
    });
  }
  return load(row);
}

/**
 * Which preset a persona file currently holds (body compared after trimming), or null when it is custom.
 * @example detectPersonality(defaultMemoryFiles()[0].content) === 'memo'
 */
export function detectPersonality(personaFile: string): string | null {
  const split = splitFrontmatter(personaFile);
  const body = (split.kind === 'ok' ? split.body : normalizeText(personaFile)).trim();
  return ROWS.find((r) => blockTextFromAsset(r.persona).body === body)?.id ?? null;
}
