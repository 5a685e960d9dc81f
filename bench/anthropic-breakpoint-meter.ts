/**
 * Billing under Anthropic's prompt cache as the Anthropic provider drives it: each request
 * is built by the provider's own code (toAnthropicRequest, with the cache_control
 * breakpoints it places by default), and only what those breakpoints make cached is read at
 * the cache price. Anthropic's rules, from its documentation: a request writes the prefix up
 * to each breakpoint (prefixes under 1,024 tokens are not cached); it reads the longest
 * cached prefix that ends at one of its breakpoints or up to 20 blocks before one. Tokens
 * are the estimator's, per message, as in the rest of the replay.
 */
import type { ToolDefinition } from '../src/contracts/tool-definition.js';
import type { Message } from '../src/messages/types.js';
import { toAnthropicRequest } from '../src/providers/anthropic-request.js';
import { commonPrefixLength, type PriceModel, type RequestBill } from './replay-metrics.js';

/** Blocks the API looks back over from a breakpoint for an earlier cached prefix. */
const LOOKBACK_BLOCKS = 20;
/** The shortest prefix the API caches (Sonnet and Opus). */
const MIN_CACHEABLE_TOKENS = 1_024;

/** A prefix in the cache: it ends after message `message` (-1: the tools and framing), at block `block`. */
interface Entry {
  message: number;
  block: number;
  tokens: number;
}

interface Breakpoint {
  block: number;
  message: number;
}

/** The blocks of a request that carry cache_control, each with the last message it covers. */
function breakpointsOf(messages: readonly Message[], tools: readonly ToolDefinition[]): Breakpoint[] {
  const { body, sources } = toAnthropicRequest(
    { model: 'replay', messages: [...messages], tools: [...tools] },
    'replay',
    {
      defaultMaxTokens: 4_096,
      promptCache: {},
    },
  );
  const out: Breakpoint[] = [];
  let block = 0;
  for (const tool of body.tools ?? []) {
    if (tool.cache_control !== undefined) out.push({ block, message: -1 });
    block++;
  }
  const leadingSystem = messages.findIndex((m) => m.role !== 'system');
  const lastSystem = (leadingSystem < 0 ? messages.length : leadingSystem) - 1;
  for (const part of typeof body.system === 'string' ? [] : (body.system ?? [])) {
    if (part.cache_control !== undefined) out.push({ block, message: lastSystem });
    block++;
  }
  let covered = lastSystem;
  body.messages.forEach((wire, w) => {
    (wire.content as { cache_control?: unknown }[]).forEach((b, j) => {
      covered = Math.max(covered, sources[w]?.[j] ?? covered);
      if (b.cache_control !== undefined) out.push({ block, message: covered });
      block++;
    });
  });
  return out;
}

/** Sums the bills of one run's requests under the provider's breakpoints: feed it every request in order. */
export class AnthropicBreakpointMeter {
  #previous: readonly Message[] | undefined;
  #previousTools: string | undefined;
  #cached: Entry[] = [];
  tokens = 0;
  cachedTokens = 0;
  writtenTokens = 0;
  billedTokens = 0;

  constructor(
    readonly countMessage: (message: Message) => number,
    readonly prices: PriceModel,
  ) {}

  /** Bills `request`, sent with `tools` (the fixed part's tokens, a key naming the definitions, the definitions). */
  add(
    request: readonly Message[],
    tools: { tokens: number; key: string; definitions: readonly ToolDefinition[] },
  ): RequestBill {
    // A prefix stays cached while every message it covers is sent unchanged (and the tools, which come first).
    if (tools.key !== this.#previousTools) this.#cached = [];
    else {
      const shared = commonPrefixLength(this.#previous, request);
      this.#cached = this.#cached.filter((e) => e.message < shared);
    }
    const prefix: number[] = [];
    let total = tools.tokens;
    for (const message of request) {
      total += this.countMessage(message);
      prefix.push(total);
    }
    const upTo = (message: number) => (message < 0 ? tools.tokens : (prefix[message] ?? total));
    const breakpoints = breakpointsOf(request, tools.definitions);
    let read = 0;
    for (const bp of breakpoints) {
      for (const entry of this.#cached) {
        if (entry.block <= bp.block && entry.block >= bp.block - LOOKBACK_BLOCKS) read = Math.max(read, entry.tokens);
      }
    }
    let written = 0;
    for (const bp of breakpoints) {
      const tokens = upTo(bp.message);
      if (tokens < MIN_CACHEABLE_TOKENS) continue;
      if (!this.#cached.some((e) => e.block === bp.block)) this.#cached.push({ ...bp, tokens });
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
