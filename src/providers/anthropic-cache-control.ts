import type { AnthropicCacheControl, AnthropicMessage, AnthropicRequestBody } from './anthropic-api-types.js';
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

/**
 * Places prompt-cache breakpoints on a request body, at most the API's four: the end of
 * the tools, the end of the system prompt (the stable prefix), the newest message (so the
 * next step reads everything this one sent), and the user message before the newest
 * assistant turn (where the previous request's newest breakpoint was, so a step that adds
 * more than the API's 20-block lookback still finds it). The places are computed from the
 * messages of each request alone, so after a compaction rewrote the transcript they sit on
 * the new messages and no breakpoint points into what was removed. Returns a new body.
 */
export function withCacheBreakpoints(
  body: AnthropicRequestBody,
  cache: Exclude<AnthropicPromptCache, false>,
): AnthropicRequestBody {
  const mark: AnthropicCacheControl = cacheControlOf(cache);
  const out: AnthropicRequestBody = {
    ...body,
    messages: body.messages.map((m) => ({ ...m, content: [...m.content] }) as AnthropicMessage),
  };
  const tools = body.tools;
  if (tools !== undefined && tools.length > 0) {
    out.tools = tools.map((t, i) => (i === tools.length - 1 ? { ...t, cache_control: mark } : t));
  }
  if (typeof body.system === 'string') out.system = [{ type: 'text', text: body.system, cache_control: mark }];
  const last = out.messages.length - 1;
  markLast(out.messages[last], mark);
  // The previous request's newest message: the user message just before the newest assistant message.
  let assistant = last;
  while (assistant >= 0 && out.messages[assistant]?.role !== 'assistant') assistant--;
  if (assistant > 0) markLast(out.messages[assistant - 1], mark);
  return out;
}
