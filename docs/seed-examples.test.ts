/**
 * The code examples of the compaction specification, run as written; `declare const`
 * inputs are replaced by real transcripts and paid models by mockModel where the
 * example allows it.
 */
import { describe, expect, it, vi } from 'vitest';
import { compactMessages, isPinned, type Message, pinMessage, summarizeStrategy } from '../src/index.js';
import { readingTranscript } from '../src/test-support/transcripts.js';

describe('seed examples: Pinning messages', () => {
  it('pins the goal', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const messages: Message[] = [
      { role: 'system', content: 'You are a research assistant.' },
      pinMessage({ role: 'user', content: 'Goal: compare the three vendors on price and support.' }),
    ];
    console.log(isPinned(messages[1] as Message)); // true
    expect(log).toHaveBeenCalledWith(true);
    log.mockRestore();
  });
});

describe('seed examples: Compacting by hand', () => {
  it('prunes a stored transcript, then tries a summary', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const history: Message[] = readingTranscript(12, 6_000);

    const { messages, tokensBefore, tokensAfter, prunedToolCallIds } = await compactMessages(history, {
      protectedTokens: 8_000,
      model: 'gpt-4o-mini', // for the context-window lookup and the token estimator
    });
    console.log(`${tokensBefore} -> ${tokensAfter} tokens, pruned ${prunedToolCallIds.length} results`);

    const summarized = await compactMessages(history, {
      protectedTokens: 8_000,
      strategy: summarizeStrategy({ model: 'openai/gpt-4o-mini' }),
    });
    console.log(summarized.summary ?? summarized.error?.message);

    expect(prunedToolCallIds.length).toBeGreaterThan(0);
    expect(tokensAfter).toBeLessThan(tokensBefore);
    expect(messages).toHaveLength(history.length);
    // Without a reachable OpenAI model the summary fails and the strategy falls back to pruning.
    expect(summarized.summary ?? summarized.error?.message).toBeTruthy();
    expect(log).toHaveBeenCalledTimes(2);
    log.mockRestore();
  });
});
