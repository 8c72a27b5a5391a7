import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, makeTmpDir } from '../../test/helpers/tmp.js';
import { appendRunLog, readRunLog, runLogPath } from './run-log.js';

afterAll(cleanupTmp);

describe('the run log', () => {
  it('writes every string of an entry through the redaction, and stays one JSON object per line', () => {
    const agentDir = makeTmpDir('gitmem-runlog-');
    const error =
      'sub-agent model call failed: POST https://llm.example/v1/models/m:generate?key=AIzaSecret123 (HTTP 400) "quoted"';
    appendRunLog(agentDir, {
      kind: 'reflection',
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      steps: 0,
      inputTokens: 0,
      outputTokens: 0,
      outcome: 'failed',
      model: 'openai-compatible:x:y',
      error,
      details: { header: 'Authorization: Bearer sk-abcdefghijklmnop', n: 3 },
    });
    const text = readFileSync(runLogPath(agentDir), 'utf8');
    expect(text).not.toMatch(/AIzaSecret123|abcdefghijklmnop/);
    const [entry] = readRunLog(agentDir);
    expect(entry).toMatchObject({
      error: expect.stringContaining('?key=<redacted> (HTTP 400) "quoted"'),
      details: { header: 'Authorization: Bearer <redacted>', n: 3 },
    });
  });
});
