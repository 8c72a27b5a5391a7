import { describe, expect, it } from 'vitest';
import { frame, lineReader } from './protocol.js';

describe('daemon protocol lines', () => {
  it('keeps multi-byte characters whole when a read ends inside one', () => {
    const text = 'é€😀'.repeat(5000);
    const bytes = Buffer.from(frame({ t: 'out', d: text }) + frame({ t: 'exit', code: 0 }));
    const got: Array<Record<string, unknown>> = [];
    const feed = lineReader(
      (m) => got.push(m),
      () => got.push({ bad: true }),
    );
    for (let i = 0; i < bytes.length; i += 7) feed(bytes.subarray(i, i + 7)); // splits every character at some point
    expect(got).toEqual([
      { t: 'out', d: text },
      { t: 'exit', code: 0 },
    ]);
  });

  it('does not keep a reference to a buffer the caller reuses', () => {
    const got: Array<Record<string, unknown>> = [];
    const feed = lineReader(
      (m) => got.push(m),
      () => undefined,
    );
    const buf = Buffer.from('{"t":"o');
    feed(buf);
    buf.fill(0x20);
    feed(Buffer.from('ut","d":"x"}\n'));
    expect(got).toEqual([{ t: 'out', d: 'x' }]);
  });

  it('reports a line that is not a JSON object', () => {
    let bad = 0;
    lineReader(
      () => undefined,
      () => bad++,
    )(Buffer.from('[1]\nnot json\n'));
    expect(bad).toBe(2);
  });
});
