/**
 * Billing under Anthropic's prompt cache as the Anthropic provider drives it: each request
 * is built by the provider's own code (toAnthropicRequest, with the cache_control
 * breakpoints it places by default and its PromptCacheMemory of the run's earlier requests),
 * and only what those breakpoints make cached is read at the cache price. Anthropic's rules,
 * from its documentation: at most four breakpoints a request; a request writes the prefix up
 * to each breakpoint, unless it is shorter than the model's minimum cacheable length
 * (1,024 tokens for Sonnet 4.5; 2,048 or 4,096 for others); it reads the longest cached
 * prefix that ends at one of its breakpoints or up to 20 blocks before one; an entry lives for
 * its TTL (5 minutes) from its last use. Tokens are the estimator's, per message, as in the
 * rest of the replay; times are the caller's (the replay, which has none, sends every request
 * within the TTL).
 */
import type { ToolDefinition } from '../src/contracts/tool-definition.js';
import type { Message } from '../src/messages/types.js';
import { breakpointMessages } from '../src/providers/anthropic-cache-control.js';
import { toAnthropicRequest } from '../src/providers/anthropic-request.js';
import { CACHE_TTL_MS, PromptCacheMemory } from '../src/providers/prompt-cache-memory.js';
import { commonPrefixLength, type PriceModel, type RequestBill } from './replay-metrics.js';

/** Blocks the API looks back over from a breakpoint for an earlier cached prefix. */
export const LOOKBACK_BLOCKS = 20;
/** The API's most breakpoints a request may carry. */
export const MAX_BREAKPOINTS = 4;

/** A prefix in the cache: it ends after message `message` (-1: the tools and framing), at block `block`. */
interface Entry {
  message: number;
  block: number;
  tokens: number;
  /** When it was last written or read. */
  used: number;
}

interface Breakpoint {
  block: number;
  message: number;
}

/** The rules a meter applies: the model's minimum cacheable prefix and the entries' TTL. */
export interface CacheRules {
  /** Shorter prefixes are not cached (Sonnet 4.5: 1,024). */
  minCacheableTokens: number;
  /** How long an entry lives from its last use, in ms. */
  ttlMs: number;
}

/** Claude Sonnet 4.5's rules, whose prices the replay's Anthropic bill uses. */
export const SONNET_RULES: CacheRules = { minCacheableTokens: 1_024, ttlMs: CACHE_TTL_MS['5m'] };

/** The blocks of a request that carry cache_control, each with the last message it covers. */
function breakpointsOf(
  messages: readonly Message[],
  tools: readonly ToolDefinition[],
  memory: PromptCacheMemory,
  now: number,
): Breakpoint[] {
  const { body, sources } = toAnthropicRequest(
    { model: 'replay', messages: messages as Message[], tools: [...tools] },
    'replay',
    {
      defaultMaxTokens: 4_096,
      promptCache: {},
      cacheMemory: memory,
      now,
    },
  );
  const out: Breakpoint[] = [];
  let block = 0;
  for (const tool of body.tools ?? []) {
    if (tool.cache_control !== undefined) out.push({ block, message: -1 });
    block++;
  }
  const leading = messages.findIndex((m) => m.role !== 'system');
  const lastSystem = (leading < 0 ? messages.length : leading) - 1;
  const systemBlocks = typeof body.system === 'string' ? [] : (body.system ?? []);
  const covered = breakpointMessages(body, sources, lastSystem);
  for (const part of systemBlocks) {
    if (part.cache_control !== undefined) out.push({ block, message: lastSystem });
    block++;
  }
  let k = systemBlocks.some((p) => p.cache_control !== undefined) ? 1 : 0;
  for (const wire of body.messages) {
    for (const b of wire.content as { cache_control?: unknown }[]) {
      if (b.cache_control !== undefined) out.push({ block, message: covered[k++] as number });
      block++;
    }
  }
  if (out.length > MAX_BREAKPOINTS) throw new Error(`the provider placed ${out.length} breakpoints; the API takes 4`);
  return out;
}

/** Sums the bills of one run's requests under the provider's breakpoints: feed it every request in order. */
export class AnthropicBreakpointMeter {
  #previous: readonly Message[] | undefined;
  #previousTools: string | undefined;
  #cached: Entry[] = [];
  readonly #memory: PromptCacheMemory;
  tokens = 0;
  cachedTokens = 0;
  writtenTokens = 0;
  billedTokens = 0;

  constructor(
    readonly countMessage: (message: Message) => number,
    readonly prices: PriceModel,
    readonly rules: CacheRules = SONNET_RULES,
  ) {
    this.#memory = new PromptCacheMemory(rules.ttlMs);
  }

  /** Bills `request`, sent at `now` (ms) with `tools` (the fixed part's tokens, a key naming the definitions, the definitions). */
  add(
    request: readonly Message[],
    tools: { tokens: number; key: string; definitions: readonly ToolDefinition[] },
    now = 0,
  ): RequestBill {
    // A prefix stays cached while every message it covers is sent unchanged (and the tools, which come first), for its TTL.
    if (tools.key !== this.#previousTools) this.#cached = [];
    else {
      const shared = commonPrefixLength(this.#previous, request);
      this.#cached = this.#cached.filter((e) => e.message < shared && now - e.used <= this.rules.ttlMs);
    }
    const prefix: number[] = [];
    let total = tools.tokens;
    for (const message of request) {
      total += this.countMessage(message);
      prefix.push(total);
    }
    const upTo = (message: number) => (message < 0 ? tools.tokens : (prefix[message] ?? total));
    const breakpoints = breakpointsOf(request, tools.definitions, this.#memory, now);
    let read = 0;
    for (const bp of breakpoints) {
      for (const entry of this.#cached) {
        if (entry.block > bp.block || entry.block < bp.block - LOOKBACK_BLOCKS) continue;
        read = Math.max(read, entry.tokens);
        entry.used = now;
      }
    }
    let written = 0;
    for (const bp of breakpoints) {
      const tokens = upTo(bp.message);
      if (tokens < this.rules.minCacheableTokens) continue;
      const entry = this.#cached.find((e) => e.block === bp.block);
      if (entry === undefined) this.#cached.push({ ...bp, tokens, used: now });
      else entry.used = now;
      written = Math.max(written, tokens - read);
    }
    this.#previous = request.slice();
    this.#previousTools = tools.key;
    const rest = total - read - written;
    const billed = read * this.prices.read + written * this.prices.write + rest;
    this.tokens += total;
    this.cachedTokens += read;
    this.writtenTokens += written;
    this.billedTokens += billed;
    return { tokens: total, cachedTokens: read, billedTokens: billed };
  }
}
