import { configError } from '../errors/lousho-error.js';
import { anthropicCachePrices } from './anthropic-models.js';
import type { ModelInfo } from './model-info.js';
import { BUILT_IN_MODELS, MODEL_ALIASES } from './model-table.js';

/** Provider prefixes that may stand before a model id ('openai/gpt-4o', 'openrouter/openai/gpt-4o'). */
const PROVIDER_PREFIXES = new Set([
  'openai',
  'anthropic',
  'google',
  'gemini',
  'vertex',
  'meta',
  'meta-llama',
  'mistral',
  'mistralai',
  'qwen',
  'alibaba',
  'deepseek',
  'ollama',
  'lmstudio',
  'groq',
  'together',
  'fireworks',
  'azure',
  'bedrock',
  'x-ai',
  'xai',
]);

/** OpenRouter's variant suffixes, which do not change the model. */
const VARIANT_SUFFIX = /:(free|beta|extended|nitro|floor|online|thinking|exacto)$/;
/** Dated snapshots: gpt-4o-2024-08-06, claude-3-5-sonnet-20241022, gpt-4-0613, mistral-large-2411. */
const DATE_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|latest|preview)$/;

const builtIn = new Map<string, ModelInfo>();
for (const info of BUILT_IN_MODELS) builtIn.set(info.id, info);
const registered = new Map<string, ModelInfo>();
/** The entries added with registerModel(), to tell them from the built-in table in O(1). */
const registeredInfos = new Set<ModelInfo>();

function candidates(id: string): string[] {
  const out: string[] = [];
  let current = id;
  for (let guard = 0; guard < 4; guard++) {
    out.push(current);
    const alias = MODEL_ALIASES[current];
    if (alias !== undefined) out.push(alias);
    const next = current.replace(VARIANT_SUFFIX, '').replace(DATE_SUFFIX, '');
    if (next === current || next === '') break;
    current = next;
  }
  return out;
}

/** Splits 'openrouter/openai/gpt-4o' into { provider: 'openai', id: 'gpt-4o' }. */
export function splitModelId(spec: string): { provider: string | undefined; id: string } {
  let rest = spec.trim();
  if (rest.toLowerCase().startsWith('openrouter/')) rest = rest.slice('openrouter/'.length);
  const slash = rest.indexOf('/');
  if (slash > 0) {
    const head = rest.slice(0, slash).toLowerCase();
    if (PROVIDER_PREFIXES.has(head) || rest.indexOf('/', slash + 1) < 0) {
      return { provider: head, id: rest.slice(slash + 1) };
    }
  }
  return { provider: undefined, id: rest };
}

/**
 * Looks up a model by id. Accepts 'gpt-4o', 'openai/gpt-4o', 'openrouter/openai/gpt-4o',
 * dated snapshots ('gpt-4o-2024-08-06') and OpenRouter spellings ('claude-3.5-sonnet').
 * Models added with {@link registerModel} win over the built-in table. Returns
 * undefined for a model nobody registered.
 *
 * @example
 * getModelInfo('openrouter/openai/gpt-4o')?.contextWindow; // 128000
 */
export function getModelInfo(model: string): ModelInfo | undefined {
  if (typeof model !== 'string' || model === '') return undefined;
  const { provider, id } = splitModelId(model);
  const lower = id.toLowerCase();
  if (provider !== undefined) {
    const scoped = registered.get(`${provider}/${lower}`);
    if (scoped !== undefined) return scoped;
  }
  for (const key of candidates(lower)) {
    const own = registered.get(key);
    // A local model registered for one server does not answer for another server's model of the same name.
    if (own !== undefined && (provider === undefined || own.provider === provider || !isLocal(own.provider)))
      return own;
    const known = builtIn.get(key);
    if (known !== undefined) return known;
  }
  return undefined;
}

/** True when `info` came from registerModel() rather than the built-in table. */
export function isRegisteredModel(info: ModelInfo): boolean {
  return registeredInfos.has(info);
}

function isLocal(provider: string): boolean {
  return provider === 'ollama' || provider === 'lmstudio';
}

function positive(value: unknown, name: string, integer: boolean): void {
  if (value === undefined) return;
  const ok = typeof value === 'number' && Number.isFinite(value) && value > 0 && (!integer || Number.isInteger(value));
  if (!ok)
    throw configError(
      `registerModel(): ${name} must be a positive ${integer ? 'integer' : 'number'}, got ${String(value)}.`,
    );
}

/**
 * Adds a model to the registry, or overrides a built-in entry, for every feature that
 * reads the context window (compaction, tool search) and for cost accounting. An Anthropic
 * model given only its input price is priced at Anthropic's usual cache rates (reads 0.1x,
 * 5-minute writes 1.25x, one-hour writes 2x).
 *
 * @example
 * registerModel({ id: 'qwen3:8b', provider: 'ollama', contextWindow: 8_192 });
 */
export function registerModel(info: ModelInfo): ModelInfo {
  if (typeof info !== 'object' || info === null)
    throw configError('registerModel() takes { id, provider, contextWindow, ... }.');
  if (typeof info.id !== 'string' || info.id.trim() === '')
    throw configError('registerModel(): id must be a non-empty string.');
  if (typeof info.provider !== 'string' || info.provider.trim() === '') {
    throw configError(`registerModel(): provider must be a non-empty string such as 'ollama' (model ${info.id}).`);
  }
  if (info.contextWindow === undefined)
    throw configError(`registerModel(): contextWindow is required (model ${info.id}).`);
  positive(info.contextWindow, 'contextWindow', true);
  positive(info.maxOutputTokens, 'maxOutputTokens', true);
  for (const key of [
    'inputPricePerMillion',
    'outputPricePerMillion',
    'cachedInputPricePerMillion',
    'cacheWriteInputPricePerMillion',
    'cacheWrite1hInputPricePerMillion',
    'requestOverheadTokens',
    'minCacheableTokens',
  ] as const) {
    const v = info[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0)) {
      throw configError(`registerModel(): ${key} must be a number >= 0, got ${String(v)}.`);
    }
  }
  if (info.tokenizer !== undefined && info.tokenizer !== 'o200k' && info.tokenizer !== 'cl100k') {
    throw configError(`registerModel(): tokenizer must be 'o200k' or 'cl100k', got ${String(info.tokenizer)}.`);
  }
  const split = splitModelId(info.id);
  const id = split.provider === info.provider ? split.id : info.id;
  const entry: ModelInfo = { ...withVendorCachePrices(info), id };
  registeredInfos.add(entry);
  registered.set(id.toLowerCase(), entry);
  registered.set(`${info.provider.toLowerCase()}/${id.toLowerCase()}`, entry);
  return entry;
}

/**
 * An Anthropic model registered with its input price but not its cache prices gets
 * Anthropic's usual ones: reads at 0.1x, 5-minute writes at 1.25x and one-hour writes at 2x
 * the input price (newer models read cheaper: give cachedInputPricePerMillion for those);
 * other vendors' cache prices are not guessed.
 */
function withVendorCachePrices(info: ModelInfo): ModelInfo {
  const input = info.inputPricePerMillion;
  if (info.provider.toLowerCase() !== 'anthropic' || input === undefined) return info;
  const vendor = anthropicCachePrices(input);
  return {
    ...info,
    cachedInputPricePerMillion: info.cachedInputPricePerMillion ?? vendor.cachedInputPricePerMillion,
    cacheWriteInputPricePerMillion: info.cacheWriteInputPricePerMillion ?? vendor.cacheWriteInputPricePerMillion,
    cacheWrite1hInputPricePerMillion: info.cacheWrite1hInputPricePerMillion ?? vendor.cacheWrite1hInputPricePerMillion,
  };
}

/** Removes every model added with {@link registerModel} (for tests). */
export function resetModelRegistry(): void {
  registered.clear();
  registeredInfos.clear();
}
