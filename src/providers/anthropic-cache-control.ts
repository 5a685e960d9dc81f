import type { AnthropicCacheControl, AnthropicMessage, AnthropicRequestBody } from './anthropic-api-types.js';
import type { CachePlaces } from './prompt-cache-memory.js';
import { cacheControlOf, type PromptCacheOption } from './prompt-cache-option.js';

/** Prompt caching of the Anthropic provider: on by default; `false` turns it off. */
export type AnthropicPromptCache = PromptCacheOption;

/** Blocks that cannot carry a breakpoint (the API refuses cache_control on them). */
const UNMARKABLE = new Set(['thinking', 'redacted_thinking']);

function markLast(message: AnthropicMessage | undefined, mark: AnthropicCacheControl): boolean {
  if (message === undefined) return false;
  const blocks = message.content as { type: string; cache_control?: AnthropicCacheControl }[];
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i];
    if (block === undefined || UNMARKABLE.has(block.type)) continue;
    blocks[i] = { ...block, cache_control: mark };
    return true;
  }
  return false;
}

/** The API's most breakpoints a request may carry. */
const MAX_BREAKPOINTS = 4;

/**
 * Places prompt-cache breakpoints on a request body, at most the API's four, in this order of
 * need: the newest message (so the next step reads everything this one sent); the end of the
 * longest prefix an earlier request cached that this one did not change (`places.reuse`, from
 * PromptCacheMemory: after a compaction that rewrote old messages it is where the cache still
 * holds what the request sends unchanged, so the request reads that and writes only what
 * changed; without a memory, the user message before the newest assistant turn, where the
 * previous request's newest breakpoint was, so a step that adds more than the API's 20-block
 * lookback still finds it); the end of the newest rewrite (`places.keep`: the next compaction
 * starts after it and reads it back); the system prompt (the stable prefix); the tools.
 * `sources` maps each wire block to its message (toAnthropicMessages). Returns a new body.
 */
export function withCacheBreakpoints(
  body: AnthropicRequestBody,
  cache: Exclude<AnthropicPromptCache, false>,
  memory?: { places: CachePlaces; sources: readonly (readonly number[])[] },
): AnthropicRequestBody {
  const mark: AnthropicCacheControl = cacheControlOf(cache);
  const out: AnthropicRequestBody = {
    ...body,
    messages: body.messages.map((m) => ({ ...m, content: [...m.content] }) as AnthropicMessage),
  };
  const last = out.messages.length - 1;
  // The wire message that ends on message `at` (every block of it at or before `at`), or -1.
  const endingOn = (at: number | undefined) =>
    at === undefined ? -1 : (memory?.sources.findLastIndex((s) => s.includes(at) && s.every((i) => i <= at)) ?? -1);
  let previous = last;
  while (previous >= 0 && out.messages[previous]?.role !== 'assistant') previous--;
  const reuse = memory?.places.reuse === undefined ? previous - 1 : endingOn(memory.places.reuse);
  const wanted = [last, reuse, endingOn(memory?.places.keep)];
  const messages = [...new Set(wanted.filter((w) => w >= 0 && w <= last))];
  let left = MAX_BREAKPOINTS;
  for (const w of messages) if (markLast(out.messages[w], mark)) left--;
  if (left > 0 && typeof body.system === 'string') {
    out.system = [{ type: 'text', text: body.system, cache_control: mark }];
    left--;
  }
  const tools = body.tools;
  if (left > 0 && tools !== undefined && tools.length > 0) {
    out.tools = tools.map((t, i) => (i === tools.length - 1 ? { ...t, cache_control: mark } : t));
  }
  return out;
}

/**
 * The messages a body's breakpoints end on: for each message block with cache_control, the
 * last message its prefix holds (through `sources`); the system prompt's, when marked, as
 * `lastSystem` (the last leading system message, -1 when none). What a request leaves cached.
 */
export function breakpointMessages(
  body: AnthropicRequestBody,
  sources: readonly (readonly number[])[],
  lastSystem: number,
): number[] {
  const out: number[] = [];
  if (Array.isArray(body.system) && body.system.some((b) => b.cache_control !== undefined)) out.push(lastSystem);
  let covered = lastSystem;
  body.messages.forEach((message, w) => {
    (message.content as { cache_control?: unknown }[]).forEach((block, j) => {
      covered = Math.max(covered, sources[w]?.[j] ?? covered);
      if (block.cache_control !== undefined) out.push(covered);
    });
  });
  return out;
}
