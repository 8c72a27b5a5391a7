/**
 * The embedding model named by `"embeddings": "<provider:model>"` in `$GITMEM_HOME/config`, as an AI SDK
 * provider instance (never a plain string id, which would route to a hosted gateway). OpenAI and any
 * OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio) serve embeddings; Anthropic has none.
 * Without the setting there is no model, and search sends nothing anywhere.
 */
import type { EmbeddingModel } from 'ai';
import { MemoryError } from '../errors.js';
import type { GitmemConfigFile, ProviderConfig } from './config.js';
import { formatModelSpec, parseModelSpec } from './model-spec.js';

type Env = Record<string, string | undefined>;

/** A resolved embedding model and the label its vectors are cached under. */
export interface EmbeddingChoice {
  model: EmbeddingModel;
  /** `provider:model` as configured: vectors from another model are never compared with these. */
  label: string;
}

const nonEmpty = (v: string | undefined): string | undefined =>
  v !== undefined && v.trim() !== '' ? v.trim() : undefined;

function keyOf(env: Env, entry: ProviderConfig | undefined, fallback: string | undefined): string | undefined {
  if (entry?.apiKeyEnv !== undefined) return nonEmpty(env[entry.apiKeyEnv]);
  return fallback === undefined ? undefined : nonEmpty(env[fallback]);
}

/** The configured embeddings spec, or undefined when search is full-text only. */
function embeddingSpec(config: GitmemConfigFile): string | undefined {
  const spec = config['embeddings'];
  if (spec === undefined) return undefined;
  if (typeof spec !== 'string' || spec.trim() === '')
    throw new MemoryError(
      'INVALID_ARGUMENT',
      'invalid gitmem config: "embeddings" must be a "<provider:model>" string',
    );
  return spec.trim();
}

/**
 * Resolves the configured embedding model, or undefined when none is configured.
 * @example await resolveEmbeddingModel({ config: { embeddings: 'openai-compatible:local:nomic-embed-text' }, env })
 */
export async function resolveEmbeddingModel(o: {
  config: GitmemConfigFile;
  env: Env;
  openaiBaseUrl?: string | undefined;
}): Promise<EmbeddingChoice | undefined> {
  const raw = embeddingSpec(o.config);
  if (raw === undefined) return undefined;
  const spec = parseModelSpec(raw);
  const label = formatModelSpec(spec);
  if (spec.provider === 'anthropic')
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `embeddings ${label}: Anthropic has no embeddings API; use openai:… or openai-compatible:…`,
    );
  const providers = o.config.providers ?? {};
  const entry = providers[spec.provider === 'openai-compatible' ? spec.name : 'openai'];
  const baseURL = nonEmpty(o.openaiBaseUrl) ?? entry?.baseURL; // config.ts: GITMEM_OPENAI_BASE_URL
  const headers = entry?.headers ? { headers: entry.headers } : {};
  if (spec.provider !== 'openai-compatible') {
    const apiKey = keyOf(o.env, entry, 'OPENAI_API_KEY');
    if (apiKey === undefined)
      throw new MemoryError(
        'MODEL_NOT_CONFIGURED',
        `embeddings ${label} need an API key: set ${entry?.apiKeyEnv ?? 'OPENAI_API_KEY'}`,
      );
    const { createOpenAI } = await import('@ai-sdk/openai');
    return {
      label,
      model: createOpenAI({ apiKey, ...(baseURL ? { baseURL } : {}), ...headers }).embeddingModel(spec.model),
    };
  }
  if (baseURL === undefined) {
    throw new MemoryError(
      'MODEL_NOT_CONFIGURED',
      `embeddings ${label} have no base URL: add providers.${spec.name}.baseURL to $GITMEM_HOME/config or set GITMEM_OPENAI_BASE_URL`,
    );
  }
  const apiKey = keyOf(o.env, entry, undefined);
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  const provider = createOpenAICompatible({ name: spec.name, baseURL, ...(apiKey ? { apiKey } : {}), ...headers });
  return { label, model: provider.embeddingModel(spec.model) };
}
