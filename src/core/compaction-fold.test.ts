/**
 * The Compactor's drain: 'fold' mode. The seed's drain deletes the oldest turns, so an
 * order id stated in message 3 is gone at the first compaction unless it is pinned; in
 * 'fold' mode those turns go into the summary instead, and the fact survives compaction
 * after compaction.
 */
import { describe, expect, it } from 'vitest';
import { messageAdapter } from '../compaction/compactor-strategy.js';
import type { Message } from '../messages/types.js';
import { messageTokens } from '../models/estimate-tokens.js';
import { prose } from '../test-support/text.js';
import { Compactor } from './compaction.js';
import type { Summarizer } from './summarizer.js';

/** A summarizer that keeps every order id it reads (as an LLMSummarizer is asked to keep facts). */
const keepsIds: Summarizer<Message> = {
  async summarize(messages, { toText }) {
    const ids = new Set(messages.flatMap((m) => toText(m).match(/order #\d+/g) ?? []));
    return `Support chat so far. Facts: ${[...ids].join(', ') || 'none'}.`;
  },
};

function compactor(drain: 'delete' | 'fold'): Compactor<Message> {
  return new Compactor({
    adapter: messageAdapter((m) => messageTokens(m)),
    budgetTokens: 4_000,
    summarizer: keepsIds,
    drain,
  });
}

/** A support chat: the order id in message 3, then `turns` long exchanges, compacted as it grows. */
async function chat(drain: 'delete' | 'fold', turns: number): Promise<Message[]> {
  let messages: Message[] = [
    { role: 'system', content: 'You are a support agent.' },
    { role: 'user', content: 'Hello, my parcel has not arrived.' },
    { role: 'assistant', content: 'Sorry to hear that. What is your order number?' },
    { role: 'user', content: 'It is order #48213.' },
  ];
  const c = compactor(drain);
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'assistant', content: `Checking the warehouse (${i}): ${prose(i + 1, 1_200)}` });
    messages.push({ role: 'user', content: `Any news? ${prose(i + 99, 400)}` });
    messages = (await c.recover(messages)).messages;
  }
  return messages;
}

const mentions = (messages: readonly Message[], id: string) =>
  messages.some((m) => typeof m.content === 'string' && m.content.includes(id));

describe("Compactor, drain: 'fold'", () => {
  it('keeps the order id of message 3 through many compactions, where the default drain deletes it', async () => {
    const deleted = await chat('delete', 40);
    const folded = await chat('fold', 40);
    expect(mentions(deleted, 'order #48213')).toBe(false);
    expect(mentions(folded, 'order #48213')).toBe(true);
    // Both stay within the budget; neither loses the system prompt.
    for (const messages of [deleted, folded]) {
      expect(messages[0]?.role).toBe('system');
      expect(messages.reduce((n, m) => n + messageTokens(m), 0)).toBeLessThanOrEqual(4_000);
    }
  });

  it("summarizes at every compaction instead of draining ('summarized', never 'drained')", async () => {
    const messages: Message[] = [{ role: 'user', content: 'order #1' }];
    for (let i = 0; i < 12; i++) messages.push({ role: 'assistant', content: prose(i, 1_600) });
    const fold = await compactor('fold').recover(messages);
    const del = await compactor('delete').recover(messages);
    expect(fold.action).toBe('summarized');
    expect(fold.drainedMessages).toBe(0);
    expect(del.drainedMessages).toBeGreaterThan(0);
  });

  it('is refused when drain is neither delete nor fold', () => {
    expect(
      () =>
        new Compactor({ adapter: messageAdapter((m) => messageTokens(m)), budgetTokens: 100, drain: 'keep' as never }),
    ).toThrow(expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }));
  });
});
