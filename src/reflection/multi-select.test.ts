// The selector's answer is model output: every accepted form, an unknown id refused by name, duplicates
// dropped, the cap, defaults for reason and priority; and the catalogue's filter and order.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, makeTmpDir } from '../../test/helpers/tmp.js';
import { advanceCursor } from './cursor.js';
import { buildCandidates, parseSelection } from './multi-select.js';
import { appendTranscript } from './transcripts.js';

afterAll(cleanupTmp);
const KNOWN = ['c1', 'c2', 'c3'];
const BODY = '{"selected_conversations":[{"conversation_id":"c2","reason":"tabs","priority":"high"}]}';

describe('parseSelection', () => {
  it.each([
    ['raw JSON', BODY],
    ['a fenced json block', `Here you go:\n\`\`\`json\n${BODY}\n\`\`\`\nThanks.`],
    ['the outermost object in prose', `I pick this one: ${BODY} — that is all.`],
  ])('accepts %s', (_form, text) => {
    expect(parseSelection(text, KNOWN)).toEqual([{ conversation_id: 'c2', reason: 'tabs', priority: 'high' }]);
  });

  it('refuses an unknown id, naming it', () => {
    expect(() => parseSelection('{"selected_conversations":[{"conversation_id":"../../etc"}]}', KNOWN)).toThrowError(
      'Reflection selector chose unknown conversation: ../../etc',
    );
  });

  it('drops duplicates, defaults the reason, keeps only known priorities, and caps', () => {
    const text = JSON.stringify({
      selected_conversations: [
        { conversation_id: 'c1', priority: 'urgent' },
        { conversation_id: 'c1', reason: 'again' },
        { conversation_id: 'c3', reason: ' r ', priority: 'low' },
        { conversation_id: 'c2' },
      ],
    });
    expect(parseSelection(text, KNOWN, 2)).toEqual([
      { conversation_id: 'c1', reason: 'Selected by automatic reflection.' },
      { conversation_id: 'c3', reason: 'r', priority: 'low' },
    ]);
  });

  it('refuses an answer with no JSON object or no list', () => {
    expect(() => parseSelection('I would pick c1.', KNOWN)).toThrowError(/did not answer with a JSON object/);
    expect(() => parseSelection('{"pick":["c1"]}', KNOWN)).toThrowError(/no selected_conversations list/);
  });
});

describe('buildCandidates', () => {
  it('keeps conversations with new content or a search hit, drops one-liners, and ranks the current one up', () => {
    const agentDir = join(makeTmpDir('gitmem-cand-'), 'agents', 'a1');
    const turn = (text: string) => [
      { kind: 'user' as const, text },
      { kind: 'assistant' as const, text: 'ok' },
    ];
    appendTranscript(agentDir, 'fresh', turn('hello there'));
    appendTranscript(agentDir, 'seen', turn('zzz'));
    advanceCursor(agentDir, 'seen', 2); // reflected, and no hit: nothing to learn
    appendTranscript(agentDir, 'seen-hit', turn('Actually, I prefer tabs: that is our style convention.'));
    advanceCursor(agentDir, 'seen-hit', 2);
    appendTranscript(agentDir, 'tiny', [{ kind: 'user', text: 'hi' }]);
    appendTranscript(agentDir, 'current', turn('hello again'));
    const cat = buildCandidates(agentDir, { current: 'current' });
    expect(cat).toMatchObject({ type: 'auto_transcript_reflection_candidates', schema: 1, max_selected: 5 });
    const ids = cat.candidates.map((c) => c.conversation_id);
    expect(ids.sort()).toEqual(['current', 'fresh', 'seen-hit']);
    const byId = Object.fromEntries(cat.candidates.map((c) => [c.conversation_id, c]));
    expect(byId['current']?.score).toBeGreaterThan(byId['fresh']?.score ?? 0);
    expect(byId['seen-hit']?.reasons.some((r) => r.startsWith('search:'))).toBe(true);
  });
});
