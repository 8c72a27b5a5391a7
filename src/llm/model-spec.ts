/**
 * Parses the `provider:model` strings users type (`--model`, `GITMEM_MODEL`, the config file) into a typed
 * value, so provider resolution never sees a bare model id that could route to a hosted gateway.
 */
import { MemoryError } from '../errors.js';

/** A parsed model choice. `openai-compatible` names a provider entry whose base URL lives in the config. */
export type ModelSpec =
  { provider: 'openai' | 'anthropic'; model: string } | { provider: 'openai-compatible'; name: string; model: string };

/** The three accepted forms, for error messages and help text. */
export const MODEL_SPEC_FORMS = ['openai:<model>', 'anthropic:<model>', 'openai-compatible:<name>:<model>'] as const;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function invalid(spec: string, why: string): never {
  throw new MemoryError(
    'INVALID_ARGUMENT',
    `invalid model ${JSON.stringify(spec)}: ${why}; use one of ${MODEL_SPEC_FORMS.join(', ')}`,
    { data: { spec } },
  );
}

/**
 * Parses a model spec. The model part may itself contain `:` (e.g. Ollama tags like `qwen3:8b`).
 * @example parseModelSpec('openai:gpt-4.1-mini') // { provider: 'openai', model: 'gpt-4.1-mini' }
 * @example parseModelSpec('openai-compatible:ollama:qwen3:8b') // { provider: 'openai-compatible', name: 'ollama', model: 'qwen3:8b' }
 */
export function parseModelSpec(spec: string): ModelSpec {
  const trimmed = typeof spec === 'string' ? spec.trim() : '';
  if (trimmed === '') invalid(String(spec), 'it is empty');
  const colon = trimmed.indexOf(':');
  if (colon < 0) invalid(trimmed, 'a bare model id is not accepted (it would route to a hosted gateway)');
  const provider = trimmed.slice(0, colon);
  const rest = trimmed.slice(colon + 1);
  if (provider === 'openai' || provider === 'anthropic') {
    if (rest.trim() === '') invalid(trimmed, 'the model name is missing');
    return { provider, model: rest };
  }
  if (provider === 'openai-compatible') {
    const second = rest.indexOf(':');
    const name = second < 0 ? rest : rest.slice(0, second);
    const model = second < 0 ? '' : rest.slice(second + 1);
    if (!NAME.test(name)) invalid(trimmed, 'the provider name after "openai-compatible:" is missing or malformed');
    if (model.trim() === '') invalid(trimmed, 'the model name is missing');
    return { provider, name, model };
  }
  return invalid(trimmed, `unknown provider ${JSON.stringify(provider)}`);
}

/**
 * Renders a spec back to its string form (for run logs and messages).
 * @example formatModelSpec({ provider: 'anthropic', model: 'claude-x' }) === 'anthropic:claude-x'
 */
export function formatModelSpec(spec: ModelSpec): string {
  return spec.provider === 'openai-compatible'
    ? `openai-compatible:${spec.name}:${spec.model}`
    : `${spec.provider}:${spec.model}`;
}
