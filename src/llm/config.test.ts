import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { readGitmemConfig } from './config.js';

const home = mkdtempSync(join(tmpdir(), 'gitmem-config-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('readGitmemConfig', () => {
  it('treats a missing or blank file as an empty config', () => {
    expect(readGitmemConfig(join(home, 'absent'))).toEqual({});
    writeFileSync(join(home, 'config'), '  \n');
    expect(readGitmemConfig(home)).toEqual({});
  });

  it('reads model, providers and reflection settings', () => {
    const cfg = {
      model: 'openai-compatible:local:qwen',
      providers: { local: { baseURL: 'http://127.0.0.1:11434/v1', apiKeyEnv: 'K' } },
      reflection: { trigger: 'off' },
    };
    writeFileSync(join(home, 'config'), JSON.stringify(cfg));
    expect(readGitmemConfig(home)).toEqual(cfg);
  });

  it('rejects invalid JSON and wrong shapes with INVALID_ARGUMENT naming the file', () => {
    for (const text of [
      '{ nope',
      '[1]',
      '{"model": 3}',
      '{"providers": {"x": {"baseURL": 1}}}',
      '{"reflection": "on"}',
    ]) {
      writeFileSync(join(home, 'config'), text);
      const err = errorOf(() => readGitmemConfig(home));
      expect(isMemoryError(err, 'INVALID_ARGUMENT'), text).toBe(true);
      expect((err as Error).message).toContain(join(home, 'config'));
    }
  });
});
