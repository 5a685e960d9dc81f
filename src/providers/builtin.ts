import type { LLMProvider } from '../contracts/llm-provider.js';
import { createAnthropic } from './anthropic.js';
import { lmStudioContextWindow, ollamaContextWindow, ollamaOrigin } from './local-context.js';
import { createOpenAICompatible, type OpenAICompatibleOptions } from './openai-compatible.js';
import { createOpenAIResponses } from './openai-responses.js';

type Factory = (modelId: string) => LLMProvider;
type Overrides = Omit<OpenAICompatibleOptions, 'name'>;

/**
 * OpenAI: OPENAI_API_KEY, and OPENAI_BASE_URL to point it elsewhere. Sends the run's (or
 * session's) cache key as `prompt_cache_key` and reasoning effort as `reasoning_effort`.
 */
export function createOpenAI(options: Overrides = {}): Factory {
  return createOpenAICompatible({
    name: 'openai',
    apiKeyEnv: 'OPENAI_API_KEY',
    maxTokensField: 'max_completion_tokens',
    cacheKeyField: 'prompt_cache_key',
    ...(process.env.OPENAI_BASE_URL ? { baseURL: process.env.OPENAI_BASE_URL } : {}),
    ...options,
  });
}

/** True for the OpenRouter models that take Anthropic's cache_control breakpoints: anthropic/*. */
export const isOpenRouterAnthropic = (modelId: string): boolean => modelId.toLowerCase().startsWith('anthropic/');

/**
 * OpenRouter ('openrouter/<vendor>/<model>'): OPENROUTER_API_KEY, and OPENROUTER_BASE_URL.
 * `anthropic/*` models get prompt-cache breakpoints on content parts; the cache key goes as
 * `session_id` (OpenRouter's sticky routing); reasoning options as its `reasoning` object.
 */
export function createOpenRouter(options: Overrides = {}): Factory {
  return createOpenAICompatible({
    name: 'openrouter',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    baseURL: process.env.OPENROUTER_BASE_URL || 'https://openrouter.ai/api/v1',
    headers: { 'X-Title': '@lousho/build-ai-agent' },
    reasoningParameter: 'reasoning',
    reasoningField: 'reasoning',
    cacheKeyField: 'session_id',
    cacheControl: isOpenRouterAnthropic,
    ...options,
  });
}

/** Ollama's OpenAI-compatible API: OLLAMA_HOST (default http://127.0.0.1:11434); no key. */
export function createOllama(options: Overrides & { host?: string } = {}): Factory {
  const { host, ...rest } = options;
  const origin = ollamaOrigin(host);
  return createOpenAICompatible({
    name: 'ollama',
    baseURL: `${origin}/v1`,
    requireApiKey: false,
    contextWindow: (model) => ollamaContextWindow(origin, model),
    ...rest,
  });
}

/** LM Studio's OpenAI-compatible API: LMSTUDIO_BASE_URL (default http://127.0.0.1:1234/v1); no key. */
export function createLMStudio(options: Overrides = {}): Factory {
  const baseURL = (options.baseURL ?? process.env.LMSTUDIO_BASE_URL ?? 'http://127.0.0.1:1234/v1').replace(/\/+$/, '');
  const origin = new URL(baseURL).origin;
  return createOpenAICompatible({
    name: 'lmstudio',
    requireApiKey: false,
    contextWindow: (model) => lmStudioContextWindow(origin, model),
    ...options,
    baseURL,
  });
}

/** The prefixes resolveProvider() knows without registration, each created on first use. */
export const BUILT_IN_PROVIDERS: Readonly<Record<string, () => Factory>> = {
  openai: () => createOpenAI(),
  'openai-responses': () => createOpenAIResponses(),
  anthropic: () => createAnthropic(),
  openrouter: () => createOpenRouter(),
  ollama: () => createOllama(),
  lmstudio: () => createLMStudio(),
};
