import type { LLMProvider, ModelSpec } from '../contracts/llm-provider.js';
import { configError, LoushoError } from '../errors/lousho-error.js';
import { BUILT_IN_PROVIDERS } from './builtin.js';

/** Builds a provider for a model id of one vendor, e.g. 'gpt-4o' for 'openai'. */
export type ProviderFactory = (modelId: string) => LLMProvider;

const factories = new Map<string, ProviderFactory>();

/**
 * Makes `resolveProvider('<name>/<model>')` use `factory`. The built-in providers are
 * registered this way; use it to add your own vendor prefix.
 */
export function registerProvider(name: string, factory: ProviderFactory): void {
  if (typeof name !== 'string' || !/^[a-z0-9][a-z0-9._-]*$/i.test(name)) {
    throw configError(
      `registerProvider(): name must be a simple prefix such as 'myvendor', got ${JSON.stringify(name)}.`,
    );
  }
  if (typeof factory !== 'function')
    throw configError(`registerProvider('${name}'): factory must be a function (modelId) => LLMProvider.`);
  factories.set(name.toLowerCase(), factory);
}

/** True when `value` has the shape of an {@link LLMProvider}. */
export function isLLMProvider(value: unknown): value is LLMProvider {
  const v = value as Partial<LLMProvider> | null;
  return typeof v === 'object' && v !== null && typeof v.generate === 'function' && typeof v.stream === 'function';
}

/**
 * Turns a `"provider/model"` spec into an {@link LLMProvider} (a provider object is
 * returned as it is). The prefix chooses the vendor: 'openai/gpt-4o',
 * 'anthropic/claude-sonnet-4-5', 'openrouter/openai/gpt-4o-mini', 'ollama/qwen3:8b',
 * 'lmstudio/qwen2.5-7b-instruct'. Prefixes added with registerProvider() win over the
 * built-in ones. No request is made and no key is read until the first call.
 */
export function resolveProvider(spec: ModelSpec): LLMProvider {
  if (isLLMProvider(spec)) return spec;
  if (typeof spec !== 'string' || spec.trim() === '') {
    throw configError(
      'A model must be a "provider/model" string such as "openai/gpt-4o-mini", or an LLMProvider object.',
    );
  }
  const slash = spec.indexOf('/');
  if (slash <= 0 || slash === spec.length - 1) {
    throw configError(
      `Model "${spec}" has no provider prefix. Write it as "provider/model", e.g. "openai/${spec}" or "ollama/${spec}".`,
    );
  }
  const name = spec.slice(0, slash).toLowerCase();
  let factory = factories.get(name);
  const builtIn = BUILT_IN_PROVIDERS[name];
  // Built-in factories are made per call, so they read the environment (keys, base URLs) as it is now.
  if (factory === undefined && builtIn !== undefined) factory = builtIn();
  if (factory === undefined) {
    const known = [...new Set([...factories.keys(), ...Object.keys(BUILT_IN_PROVIDERS)])].sort().join(', ');
    throw new LoushoError(
      'LOUSHO_PROVIDER_NOT_FOUND',
      `No provider is registered for the prefix "${name}" in "${spec}" (known: ${known}). ` +
        'Pass an LLMProvider object instead, or add the prefix with registerProvider().',
      { details: { provider: name } },
    );
  }
  return factory(spec.slice(slash + 1));
}
