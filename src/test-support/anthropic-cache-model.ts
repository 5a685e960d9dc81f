import { createHash } from 'node:crypto';
import { countTextTokens } from '../models/tokenizer.js';

/** The usage Anthropic reports for one request, split the way it bills it. */
export interface AnthropicCacheUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** Blocks the API looks back over from a breakpoint for an earlier cached prefix. */
const LOOKBACK_BLOCKS = 20;
/** The shortest prefix the API caches (Sonnet and Opus; Haiku's is 2048). */
const MIN_CACHEABLE_TOKENS = 1024;

/** Every block of a request in the order the API caches them (tools, system, messages), without cache_control. */
function flatBlocks(body: Record<string, unknown>): { block: unknown; breakpoint: boolean }[] {
  const out: { block: unknown; breakpoint: boolean }[] = [];
  const push = (value: unknown) => {
    const { cache_control, ...rest } = value as Record<string, unknown>;
    out.push({ block: rest, breakpoint: cache_control !== undefined });
  };
  for (const tool of (body.tools as unknown[] | undefined) ?? []) push(tool);
  const system = body.system;
  if (typeof system === 'string') push({ type: 'text', text: system });
  else for (const block of (system as unknown[] | undefined) ?? []) push(block);
  for (const message of (body.messages as { role: string; content: unknown }[] | undefined) ?? []) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const block of content as Record<string, unknown>[]) push({ role: message.role, ...block });
  }
  return out;
}

/**
 * Anthropic's prompt cache as its documentation describes it, for loopback tests: a
 * request's prefix up to each `cache_control` breakpoint is written to the cache; a later
 * request reads the longest cached prefix it finds at a breakpoint or up to 20 blocks before
 * one. Prefixes under 1024 tokens are not cached. Tokens are counted as o200k over each
 * block's JSON, which is close enough to compare policies, not to predict an invoice.
 */
export class AnthropicCacheModel {
  private readonly cached = new Set<string>();

  /** Each block's prefix: its key (a hash of every block up to it) and its tokens. */
  private prefixes(body: Record<string, unknown>) {
    const blocks = flatBlocks(body);
    const keys: string[] = [];
    const upTo: number[] = [];
    const hash = createHash('sha256');
    let total = 0;
    for (const { block } of blocks) {
      const text = JSON.stringify(block);
      hash.update(text);
      keys.push(hash.copy().digest('hex'));
      total += countTextTokens(text, 'o200k');
      upTo.push(total);
    }
    return { blocks, keys, upTo, total };
  }

  /**
   * The most a request of `body` could read, wherever its breakpoints were: the longest prefix
   * the cache holds that ends before block `before` (its first block that no earlier request
   * sent there); 0 when none.
   */
  longestCachedBefore(body: Record<string, unknown>, before: number): number {
    const { keys, upTo } = this.prefixes(body);
    let best = 0;
    for (let i = 0; i < Math.min(before, keys.length); i++) if (this.cached.has(keys[i] ?? '')) best = upTo[i] ?? 0;
    return best;
  }

  /** The index of the first block of `body` that differs from `previous` (cache_control aside). */
  static firstChange(previous: Record<string, unknown> | undefined, body: Record<string, unknown>): number {
    if (previous === undefined) return 0;
    const a = flatBlocks(previous).map((b) => JSON.stringify(b.block));
    const b = flatBlocks(body).map((x) => JSON.stringify(x.block));
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  }

  /** Whether `body` changed a block `previous` sent, rather than only appending to it. */
  static rewrote(previous: Record<string, unknown>, body: Record<string, unknown>): boolean {
    return AnthropicCacheModel.firstChange(previous, body) < flatBlocks(previous).length;
  }

  /** The usage of one request body, and the prefixes it writes. */
  accept(body: Record<string, unknown>): AnthropicCacheUsage {
    const { blocks, keys, upTo, total } = this.prefixes(body);
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    let read = -1;
    for (const b of breakpoints) {
      for (let i = b; i >= Math.max(0, b - LOOKBACK_BLOCKS); i--) {
        if (this.cached.has(keys[i] ?? '')) {
          read = Math.max(read, i);
          break;
        }
      }
    }
    const last = breakpoints[breakpoints.length - 1] ?? -1;
    const readTokens = read < 0 ? 0 : (upTo[read] ?? 0);
    let written = 0;
    for (const b of breakpoints) {
      if ((upTo[b] ?? 0) < MIN_CACHEABLE_TOKENS) continue;
      this.cached.add(keys[b] ?? '');
      written = Math.max(written, upTo[b] ?? 0);
    }
    const writeTokens = last > read && written > readTokens ? written - readTokens : 0;
    return {
      input_tokens: total - readTokens - writeTokens,
      cache_read_input_tokens: readTokens,
      cache_creation_input_tokens: writeTokens,
    };
  }
}
