import { configError } from '../errors/lousho-error.js';

/**
 * Prompt caching of a provider: on by default; `{ ttl: '1h' }` asks Anthropic for the
 * one-hour cache (billed higher than the 5-minute writes the model table prices), `false`
 * turns it off.
 */
export type PromptCacheOption =
  | false
  | {
      /** How long a cache entry lives: Anthropic's '5m' (the default) or '1h'. */
      ttl?: '5m' | '1h';
    };

/** Checks a provider's promptCache option; throws LOUSHO_CONFIG_INVALID naming it and `where` ('createAnthropic()'). */
export function checkPromptCache(value: unknown, where: string): void {
  if (value === undefined || value === false) return;
  const ttl = (value as { ttl?: unknown } | null)?.ttl;
  const keys = typeof value === 'object' && value !== null ? Object.keys(value) : [];
  if (
    typeof value !== 'object' ||
    value === null ||
    keys.some((k) => k !== 'ttl') ||
    (ttl !== undefined && ttl !== '5m' && ttl !== '1h')
  )
    throw configError(`${where}: promptCache must be false or { ttl?: '5m' | '1h' }, got ${JSON.stringify(value)}.`, {
      option: 'promptCache',
    });
}

/** The `cache_control` value of a breakpoint under `cache` (on), with its TTL when one was asked for. */
export function cacheControlOf(cache: Exclude<PromptCacheOption, false>): { type: 'ephemeral'; ttl?: '5m' | '1h' } {
  return cache.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: cache.ttl };
}

/**
 * How long OpenAI keeps a prompt's cache (`prompt_cache_retention`): 'in_memory' (OpenAI's
 * default, minutes) or '24h' (extended retention, on the models that offer it). Not sent
 * unless given.
 */
export type PromptCacheRetention = 'in_memory' | '24h';

/** Checks a provider's promptCacheRetention option; throws LOUSHO_CONFIG_INVALID naming it. */
export function checkPromptCacheRetention(value: unknown, where: string): void {
  if (value === undefined || value === 'in_memory' || value === '24h') return;
  throw configError(`${where}: promptCacheRetention must be 'in_memory' or '24h', got ${JSON.stringify(value)}.`, {
    option: 'promptCacheRetention',
  });
}

/** The body field of a promptCacheRetention option: `prompt_cache_retention`, when one was given. */
export function promptCacheRetentionField(value: PromptCacheRetention | undefined) {
  return value === undefined ? {} : { prompt_cache_retention: value };
}
