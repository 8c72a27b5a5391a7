/**
 * Turns a model spec into an AI SDK provider instance (OpenAI, Anthropic or any OpenAI-compatible local
 * server). Always an explicit provider object: a plain string model id would route to a hosted gateway.
 * The provider packages are imported lazily so the CLI starts fast.
 */
import type { LanguageModel } from 'ai';
import { MemoryError } from '../errors.js';
import type { GitmemConfigFile, ProviderConfig } from './config.js';
import { MODEL_SPEC_FORMS, parseModelSpec, type ModelSpec } from './model-spec.js';

/**
 * Inputs of {@link resolveModel}, all passed in by the composition root: `settings` are what config.ts read
 * from GITMEM_MODEL / GITMEM_OPENAI_BASE_URL; `env` is only where API keys are looked up, by name.
 */
export interface ResolveModelOptions {
  /** `--model` value, highest precedence. */
  spec?: string;
  /** The configured model and OpenAI base URL (config.ts `model`). */
  settings?: { spec?: string; openaiBaseUrl?: string };
  env: Record<string, string | undefined>;
  config: GitmemConfigFile;
}

type Env = Record<string, string | undefined>;

/**
 * Picks the spec string: `--model`, then the configured one (GITMEM_MODEL), then the config file's `model`.
 * @example pickModelSpec({ settings: { spec: 'openai:gpt-4.1' }, env: {}, config: {} }) === 'openai:gpt-4.1'
 */
function pickModelSpec(o: ResolveModelOptions): string {
  const candidates = [o.spec, o.settings?.spec, o.config.model];
  const found = candidates.find((c) => typeof c === 'string' && c.trim() !== '');
  if (found === undefined) {
    throw new MemoryError(
      'MODEL_NOT_CONFIGURED',
      'No model configured. Pass --model <provider:model>, set GITMEM_MODEL, or put "model" in $GITMEM_HOME/config. ' +
        `Accepted forms: ${MODEL_SPEC_FORMS.join(', ')} ` +
        '(openai-compatible covers local servers such as Ollama, vLLM, llama.cpp and LM Studio; their base URL ' +
        'goes in the config file under providers.<name>.baseURL or in GITMEM_OPENAI_BASE_URL).',
      { data: { forms: [...MODEL_SPEC_FORMS] } },
    );
  }
  return found.trim();
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}

function keyFrom(env: Env, entry: ProviderConfig | undefined, fallbackVar: string | undefined): string | undefined {
  if (entry?.apiKeyEnv !== undefined) return nonEmpty(env[entry.apiKeyEnv]);
  return fallbackVar === undefined ? undefined : nonEmpty(env[fallbackVar]);
}

function missingKey(spec: ModelSpec, variable: string): never {
  throw new MemoryError(
    'MODEL_NOT_CONFIGURED',
    `model ${spec.provider}:${spec.model} needs an API key: set ${variable} in the environment`,
    { data: { provider: spec.provider, variable } },
  );
}

async function openaiModel(
  spec: ModelSpec,
  env: Env,
  entry: ProviderConfig | undefined,
  configuredBase: string | undefined,
): Promise<LanguageModel> {
  const apiKey = keyFrom(env, entry, 'OPENAI_API_KEY') ?? missingKey(spec, entry?.apiKeyEnv ?? 'OPENAI_API_KEY');
  const baseURL = nonEmpty(configuredBase) ?? entry?.baseURL;
  const { createOpenAI } = await import('@ai-sdk/openai');
  const provider = createOpenAI({
    apiKey,
    ...(baseURL ? { baseURL } : {}),
    ...(entry?.headers ? { headers: entry.headers } : {}),
  });
  // OpenAI itself gets the Responses API; a custom base URL (a proxy, an OpenAI-compatible server) gets Chat
  // Completions, the one endpoint every compatible server has.
  return baseURL ? provider.chat(spec.model) : provider(spec.model);
}

async function anthropicModel(spec: ModelSpec, env: Env, entry: ProviderConfig | undefined): Promise<LanguageModel> {
  const variable = entry?.apiKeyEnv ?? 'ANTHROPIC_API_KEY';
  const apiKey = keyFrom(env, entry, 'ANTHROPIC_API_KEY') ?? missingKey(spec, variable);
  const { createAnthropic } = await import('@ai-sdk/anthropic');
  const provider = createAnthropic({
    apiKey,
    ...(entry?.baseURL ? { baseURL: entry.baseURL } : {}),
    ...(entry?.headers ? { headers: entry.headers } : {}),
  });
  return provider(spec.model);
}

async function compatibleModel(
  spec: Extract<ModelSpec, { provider: 'openai-compatible' }>,
  env: Env,
  entry: ProviderConfig | undefined,
  configuredBase: string | undefined,
): Promise<LanguageModel> {
  const baseURL = nonEmpty(configuredBase) ?? entry?.baseURL;
  if (baseURL === undefined) {
    throw new MemoryError(
      'MODEL_NOT_CONFIGURED',
      `model openai-compatible:${spec.name}:${spec.model} has no base URL: add providers.${spec.name}.baseURL ` +
        '(e.g. "http://127.0.0.1:11434/v1") to $GITMEM_HOME/config or set GITMEM_OPENAI_BASE_URL',
      { data: { provider: spec.name } },
    );
  }
  const apiKey = keyFrom(env, entry, undefined);
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  const provider = createOpenAICompatible({
    name: spec.name,
    baseURL,
    includeUsage: true,
    ...(apiKey ? { apiKey } : {}),
    ...(entry?.headers ? { headers: entry.headers } : {}),
  });
  return provider.chatModel(spec.model);
}

/**
 * Resolves the configured model into a provider instance. Throws MODEL_NOT_CONFIGURED when no model is
 * configured, a key is missing, or an openai-compatible provider has no base URL.
 * @example const model = await resolveModel({ spec: 'openai-compatible:local:qwen3', env: process.env, config })
 */
export async function resolveModel(o: ResolveModelOptions): Promise<LanguageModel> {
  const spec = parseModelSpec(pickModelSpec(o));
  const providers = o.config.providers ?? {};
  switch (spec.provider) {
    case 'openai':
      return openaiModel(spec, o.env, providers['openai'], o.settings?.openaiBaseUrl);
    case 'anthropic':
      return anthropicModel(spec, o.env, providers['anthropic']);
    case 'openai-compatible':
      return compatibleModel(spec, o.env, providers[spec.name], o.settings?.openaiBaseUrl);
  }
}

/**
 * A short label for logs: `provider:modelId` of a provider instance.
 * @example describeModel(model) // 'local.chat:qwen3'
 */
export function describeModel(model: LanguageModel): string {
  if (typeof model === 'string') return model;
  return `${model.provider}:${model.modelId}`;
}
