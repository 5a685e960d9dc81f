import { ANTHROPIC_MODELS } from './anthropic-models.js';
import type { LongContextPrice, ModelInfo } from './model-info.js';

type Row = [
  id: string,
  contextWindow: number,
  maxOutput: number,
  input?: number,
  output?: number,
  cached?: number,
  longContext?: LongContextPrice,
];

function rows(provider: string, tokenizer: ModelInfo['tokenizer'], list: Row[], readOn?: string): ModelInfo[] {
  return list.map(([id, contextWindow, maxOutputTokens, input, output, cached, longContext]) => ({
    id,
    provider,
    contextWindow,
    maxOutputTokens,
    ...(input === undefined ? {} : { inputPricePerMillion: input }),
    ...(output === undefined ? {} : { outputPricePerMillion: output }),
    ...(cached === undefined ? {} : { cachedInputPricePerMillion: cached }),
    ...(longContext === undefined ? {} : { longContext }),
    ...(tokenizer === undefined ? {} : { tokenizer }),
    ...(readOn === undefined || input === undefined ? {} : { pricesReadOn: readOn }),
  }));
}

/** A long-context tier (see LongContextPrice) with a cached-input price and no cache writes. */
const above = (tokens: number, input: number, output: number, cached: number): LongContextPrice => ({
  aboveInputTokens: tokens,
  inputPricePerMillion: input,
  outputPricePerMillion: output,
  cachedInputPricePerMillion: cached,
});

/*
 * OpenAI's GPT-5.x models, read on the date below. gpt-5-codex: its model page
 * (developers.openai.com/api/docs/models/gpt-5-codex: 400,000 window, 128,000 output, $1.25 /
 * $0.125 / $10). gpt-5.5 and gpt-5.4: $5 / $0.50 / $30 and $2.50 / $0.25 / $15 with a 1,050,000
 * window (the price table of morphllm.com/openai-api-pricing, June 2026, quoted from the
 * pricing page; the window and 128K output from docs.apiyi.com's gpt-5.5-pro page); a prompt
 * over 272K input tokens is priced at 2x input and 1.5x output for the whole request (the note
 * of docs.oxen.ai's GPT 5.5 Pro page). gpt-5.1, gpt-5.1-codex, gpt-5.2, gpt-5.2-codex and
 * gpt-5.3-codex: the May 2026 snapshot of OpenAI's pricing page in
 * fernando-nog.netlify.app/gpt-coding-model-costs-2026 ($1.25 / $0.125 / $10 and $1.75 /
 * $0.175 / $14), with the GPT-5 family's 400K window and 128K output. Cached input is 0.1x
 * the input price on all of them.
 */
export const OPENAI_PRICES_READ_ON = '2026-12-04';
/*
 * Google's: ai.google.dev/gemini-api/docs/pricing was not found in the stored pages this table
 * was checked against; the figures are the ones that page published for Gemini 3 Pro and 2.5
 * Pro (a prompt over 200K tokens priced at the higher rates: $4 / $18 and $2.50 / $15), as the
 * gemini-cost crate's docs (docs.rs/crate/gemini-cost) describe the tier.
 */
export const GOOGLE_PRICES_READ_ON = '2026-12-04';

/**
 * What OpenAI's API adds to every GPT-5 request beyond the messages, the tool definitions
 * and the framing the estimator counts. Measured, not guessed: on 582 real gpt-5-mini
 * calls (gpt-5-mini-2025-08-07 through the Chat Completions API, 30 trajectories, every
 * request with one function tool; ../shared/corpus), the provider's prompt_tokens were
 * exactly estimateTokens + 67 on every call once an assistant text beside tool calls is
 * framed as its own message (scripts/fit-framing.ts). Applied to gpt-5 and gpt-5-nano as
 * the same family and chat format, which was not measured. Whether the 67 changes for a
 * request without tools was not measured either.
 */
export const GPT5_REQUEST_OVERHEAD_TOKENS = 67;

/** The GPT-5 reasoning models, which share that request overhead. */
const gpt5 = (list: ModelInfo[]): ModelInfo[] =>
  list.map((info) => ({ ...info, requestOverheadTokens: GPT5_REQUEST_OVERHEAD_TOKENS }));

/**
 * The built-in model table: context window, max output tokens and list prices in USD
 * per million tokens (input, output, cached input), from the vendors' published pages.
 * Register your own or override an entry with `registerModel()`.
 */
export const BUILT_IN_MODELS: readonly ModelInfo[] = [
  ...gpt5(
    rows('openai', 'o200k', [
      ['gpt-5', 400_000, 128_000, 1.25, 10, 0.125],
      ['gpt-5-mini', 400_000, 128_000, 0.25, 2, 0.025],
      ['gpt-5-nano', 400_000, 128_000, 0.05, 0.4, 0.005],
    ]),
  ),
  ...rows(
    'openai',
    'o200k',
    [
      ['gpt-5.5', 1_050_000, 128_000, 5, 30, 0.5, above(272_000, 10, 45, 1)],
      ['gpt-5.4', 1_050_000, 128_000, 2.5, 15, 0.25, above(272_000, 5, 22.5, 0.5)],
      ['gpt-5.3-codex', 400_000, 128_000, 1.75, 14, 0.175],
      ['gpt-5.2', 400_000, 128_000, 1.75, 14, 0.175],
      ['gpt-5.2-codex', 400_000, 128_000, 1.75, 14, 0.175],
      ['gpt-5.1', 400_000, 128_000, 1.25, 10, 0.125],
      ['gpt-5.1-codex', 400_000, 128_000, 1.25, 10, 0.125],
      ['gpt-5-codex', 400_000, 128_000, 1.25, 10, 0.125],
    ],
    OPENAI_PRICES_READ_ON,
  ),
  ...rows('openai', 'o200k', [
    ['gpt-5-chat-latest', 128_000, 16_384, 1.25, 10, 0.125],
    ['gpt-4.1', 1_047_576, 32_768, 2, 8, 0.5],
    ['gpt-4.1-mini', 1_047_576, 32_768, 0.4, 1.6, 0.1],
    ['gpt-4.1-nano', 1_047_576, 32_768, 0.1, 0.4, 0.025],
    ['gpt-4o', 128_000, 16_384, 2.5, 10, 1.25],
    ['gpt-4o-mini', 128_000, 16_384, 0.15, 0.6, 0.075],
    ['o1', 200_000, 100_000, 15, 60, 7.5],
    ['o1-mini', 128_000, 65_536, 1.1, 4.4, 0.55],
    ['o3', 200_000, 100_000, 2, 8, 0.5],
    ['o3-mini', 200_000, 100_000, 1.1, 4.4, 0.55],
    ['o3-pro', 200_000, 100_000, 20, 80],
    ['o4-mini', 200_000, 100_000, 1.1, 4.4, 0.275],
    ['gpt-oss-120b', 131_072, 131_072],
    ['gpt-oss-20b', 131_072, 131_072],
  ]),
  ...rows('openai', 'cl100k', [
    ['gpt-4-turbo', 128_000, 4_096, 10, 30],
    ['gpt-4', 8_192, 8_192, 30, 60],
    ['gpt-3.5-turbo', 16_385, 4_096, 0.5, 1.5],
  ]),
  ...ANTHROPIC_MODELS,
  ...rows(
    'google',
    undefined,
    [
      ['gemini-3-pro-preview', 1_048_576, 65_536, 2, 12, 0.2, above(200_000, 4, 18, 0.4)],
      ['gemini-2.5-pro', 1_048_576, 65_536, 1.25, 10, 0.125, above(200_000, 2.5, 15, 0.25)],
    ],
    GOOGLE_PRICES_READ_ON,
  ),
  ...rows('google', undefined, [
    ['gemini-2.5-flash', 1_048_576, 65_536, 0.3, 2.5, 0.075],
    ['gemini-2.5-flash-lite', 1_048_576, 65_536, 0.1, 0.4, 0.025],
    ['gemini-2.0-flash', 1_048_576, 8_192, 0.1, 0.4, 0.025],
    ['gemini-2.0-flash-lite', 1_048_576, 8_192, 0.075, 0.3],
    ['gemini-1.5-pro', 2_097_152, 8_192, 1.25, 5],
    ['gemini-1.5-flash', 1_048_576, 8_192, 0.075, 0.3],
    ['gemma-3-27b-it', 131_072, 8_192],
  ]),
  ...rows('meta-llama', undefined, [
    ['llama-4-maverick', 1_048_576, 16_384, 0.15, 0.6],
    ['llama-4-scout', 327_680, 16_384, 0.08, 0.3],
    ['llama-3.3-70b-instruct', 131_072, 16_384, 0.13, 0.4],
    ['llama-3.1-405b-instruct', 131_072, 16_384, 0.8, 0.8],
    ['llama-3.1-70b-instruct', 131_072, 16_384, 0.4, 0.4],
    ['llama-3.1-8b-instruct', 131_072, 16_384, 0.02, 0.05],
  ]),
  ...rows('mistral', undefined, [
    ['mistral-large', 131_072, 131_072, 2, 6],
    ['mistral-medium-3', 131_072, 131_072, 0.4, 2],
    ['mistral-small', 131_072, 131_072, 0.1, 0.3],
    ['codestral', 262_144, 262_144, 0.3, 0.9],
    ['devstral-medium', 131_072, 131_072, 0.4, 2],
    ['devstral-small', 131_072, 131_072, 0.1, 0.3],
    ['ministral-8b', 131_072, 131_072, 0.1, 0.1],
    ['ministral-3b', 131_072, 131_072, 0.04, 0.04],
    ['pixtral-large', 131_072, 131_072, 2, 6],
  ]),
  ...rows('qwen', undefined, [
    ['qwen3-235b-a22b', 131_072, 32_768, 0.13, 0.6],
    ['qwen3-coder', 262_144, 65_536, 0.22, 0.95],
    ['qwen3-32b', 131_072, 32_768, 0.1, 0.3],
    ['qwen3-30b-a3b', 131_072, 32_768, 0.08, 0.3],
    ['qwen-max', 32_768, 8_192, 1.6, 6.4],
    ['qwen-plus', 131_072, 8_192, 0.4, 1.2],
    ['qwen-turbo', 1_000_000, 8_192, 0.05, 0.2],
    ['qwen2.5-72b-instruct', 131_072, 8_192, 0.12, 0.39],
    ['qwen2.5-coder-32b-instruct', 131_072, 8_192, 0.06, 0.15],
  ]),
  // xAI: cached input at 25%; reasoning billed as output. Both prices are the ones xAI's own
  // cost_in_usd_ticks and OpenRouter's cost match in the recorded replies (model-prices.test.ts).
  ...rows('xai', undefined, [
    ['grok-4', 256_000, 256_000, 3, 15, 0.75],
    ['grok-3-mini', 131_072, 131_072, 0.3, 0.5, 0.075],
  ]),
  ...rows('deepseek', undefined, [
    ['deepseek-chat', 131_072, 8_192, 0.28, 0.42, 0.028],
    ['deepseek-reasoner', 131_072, 65_536, 0.28, 0.42, 0.028],
    ['deepseek-v3', 131_072, 8_192, 0.28, 0.42],
    ['deepseek-r1', 131_072, 65_536, 0.55, 2.19],
  ]),
];

/** Other spellings of built-in ids, as OpenRouter and older snapshots write them. */
export const MODEL_ALIASES: Readonly<Record<string, string>> = {
  'claude-3.5-sonnet': 'claude-3-5-sonnet',
  'claude-3.5-haiku': 'claude-3-5-haiku',
  'claude-3.7-sonnet': 'claude-3-7-sonnet',
  'claude-sonnet-4.5': 'claude-sonnet-4-5',
  'claude-opus-4.1': 'claude-opus-4-1',
  'claude-opus-4.5': 'claude-opus-4-5',
  'claude-haiku-4.5': 'claude-haiku-4-5',
  'claude-opus-4.6': 'claude-opus-4-6',
  'claude-sonnet-4.6': 'claude-sonnet-4-6',
  'claude-opus-4.7': 'claude-opus-4-7',
  'claude-opus-4.8': 'claude-opus-4-8',
  'claude-opus-5.5': 'claude-opus-5-5',
  'claude-sonnet-5.5': 'claude-sonnet-5-5',
  'claude-haiku-5.5': 'claude-haiku-5-5',
  'claude-fable-5.1': 'claude-fable-5-1',
  'claude-opus-4-0': 'claude-opus-4',
  'claude-sonnet-4-0': 'claude-sonnet-4',
  'claude-3-5-sonnet-v2': 'claude-3-5-sonnet',
  'chatgpt-4o-latest': 'gpt-4o',
  'mistral-large-latest': 'mistral-large',
  'mistral-small-latest': 'mistral-small',
  'mistral-medium-latest': 'mistral-medium-3',
  'codestral-latest': 'codestral',
  'deepseek-chat-v3': 'deepseek-v3',
  'deepseek-chat-v3-0324': 'deepseek-v3',
  'llama-3.3-70b-versatile': 'llama-3.3-70b-instruct',
  'llama-4-maverick-17b-128e-instruct': 'llama-4-maverick',
  'llama-4-scout-17b-16e-instruct': 'llama-4-scout',
};
