import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { formatModelSpec, parseModelSpec } from './model-spec.js';

describe('parseModelSpec', () => {
  it('parses the three accepted forms, keeping colons inside the model name', () => {
    expect(parseModelSpec('openai:gpt-4.1-mini')).toEqual({ provider: 'openai', model: 'gpt-4.1-mini' });
    expect(parseModelSpec(' anthropic:claude-sonnet-4-5 ')).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
    });
    expect(parseModelSpec('openai-compatible:ollama:qwen3:8b')).toEqual({
      provider: 'openai-compatible',
      name: 'ollama',
      model: 'qwen3:8b',
    });
  });

  it('rejects a bare model id, unknown providers and missing parts with INVALID_ARGUMENT', () => {
    for (const bad of [
      'gpt-4o',
      '',
      'gateway:x',
      'openai:',
      'openai-compatible:local',
      'openai-compatible::m',
      'openai-compatible:lo cal:m',
    ]) {
      let caught: unknown;
      try {
        parseModelSpec(bad);
      } catch (err) {
        caught = err;
      }
      expect(isMemoryError(caught, 'INVALID_ARGUMENT'), bad).toBe(true);
      expect((caught as Error).message).toContain('openai-compatible:<name>:<model>');
    }
  });

  it('formats back to the same string', () => {
    for (const s of ['openai:o4-mini', 'anthropic:claude-x', 'openai-compatible:lm:qwen:7b'])
      expect(formatModelSpec(parseModelSpec(s))).toBe(s);
  });
});
