import { describe, expect, it } from 'vitest';
import { ARGS_CAP, buildTranscriptPayload, RESULT_CAP } from './transcripts-payload.js';
import type { TranscriptRow } from './transcripts.js';

const at = '2025-05-01T09:00:00Z';

describe('buildTranscriptPayload', () => {
  it('renders user, assistant and tool rows; drops errors and reasoning; bounds arguments and results', () => {
    const rows: TranscriptRow[] = [
      { kind: 'user', text: 'use tabs', captured_at: at },
      { kind: 'reasoning', text: 'hmm', captured_at: at },
      { kind: 'error', text: 'rate limited', captured_at: at },
      {
        kind: 'tool_call',
        name: 'edit',
        argsText: '{"path":"a.ts"}',
        resultText: 'ok',
        resultOk: true,
        captured_at: at,
        source_message_id: 't1',
      },
      {
        kind: 'tool_call',
        name: 'write',
        argsText: JSON.stringify({ content: 'x'.repeat(1000) }),
        resultText: 'y'.repeat(10_000),
        resultOk: false,
        captured_at: at,
        source_line_id: 'line-5',
      },
      { kind: 'assistant', text: 'done', captured_at: 'not a date' },
    ];
    const p = buildTranscriptPayload(rows);
    expect(p[0]).toEqual({ role: 'meta', source: 'gitmem' });
    expect(p[1]).toEqual({ role: 'user', content: 'use tabs', timestamp: '2025-05-01T09:00:00.000Z' });
    expect(p[2]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 't1', name: 'edit', args: { path: 'a.ts' } }] });
    expect(p[3]).toEqual({ role: 'tool', tool_call_id: 't1', content: 'ok', timestamp: '2025-05-01T09:00:00.000Z' });
    const big = p[4] as { tool_calls: { id: string; args: unknown }[] };
    expect(big.tool_calls[0]?.id).toBe('line-5');
    expect(JSON.stringify(big.tool_calls[0]?.args).length).toBeLessThanOrEqual(ARGS_CAP);
    const result = p[5] as { content: string };
    expect(result.content.length).toBeLessThanOrEqual(RESULT_CAP);
    expect(result.content.startsWith('[error] yyy')).toBe(true);
    expect(result.content.endsWith('yyy')).toBe(true);
    expect(result.content).toContain('characters omitted');
    expect(p[6]).toMatchObject({ role: 'assistant', content: 'done' });
    expect(p).toHaveLength(7);
  });
});

describe('bounded tool arguments', () => {
  const args = (argsText: string): unknown => {
    const p = buildTranscriptPayload([{ kind: 'tool_call', name: 'write', argsText, captured_at: at }]);
    return (p[1] as { tool_calls: { args: unknown }[] }).tool_calls[0]?.args;
  };

  it('a long JSON argument object is shortened field by field and stays the same JSON shape', () => {
    const long = args(JSON.stringify({ path: 'notes/a.md', content: `"quoted"\n${'x'.repeat(5000)}`, mode: 'w' }));
    expect(long).toMatchObject({ path: 'notes/a.md', mode: 'w' });
    expect(typeof (long as { content: unknown }).content).toBe('string');
    expect((long as { content: string }).content).toContain('[truncated');
    expect(JSON.stringify(long).length).toBeLessThanOrEqual(ARGS_CAP);
  });

  it('stays within the cap for every shape: deep nesting, many keys, huge keys, long arrays, non-JSON text, split surrogates', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 50; i++) deep = { [`k${i}`]: deep, pad: 'p'.repeat(40) };
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`key${i}`, i]));
    const shapes = [
      JSON.stringify(deep),
      JSON.stringify(many),
      JSON.stringify({ ['K'.repeat(2000)]: 1 }),
      JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ i, s: 'abc' }))),
      `not json ${'"\\'.repeat(400)}`,
      JSON.stringify({ text: '😀'.repeat(400) }),
      '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[',
      `${'['.repeat(1e6)}${']'.repeat(1e6)}`, // parses, but too deep for JSON.stringify
      `{"__proto__": "${'x'.repeat(400)}"}`,
    ];
    for (const text of shapes) {
      const v = args(text);
      const json = JSON.stringify(v);
      expect(json.length, text.slice(0, 40)).toBeLessThanOrEqual(ARGS_CAP);
      expect(JSON.parse(json)).toEqual(v);
      expect(json).not.toMatch(/\\ud83d(?!\\ude00)/); // never half of a surrogate pair
    }
    expect(Object.keys(args(`{"__proto__": "${'x'.repeat(400)}"}`) as object)).toEqual(['__proto__']);
  });
});
