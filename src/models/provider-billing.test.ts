import { describe, expect, it } from 'vitest';
import { createRequestBudget } from '../compaction/request-budget.js';
import type { Message } from '../messages/types.js';
import { estimateTokens } from './estimate-tokens.js';
import { ANTHROPIC_TOOL_SYSTEM_PROMPT_TOKENS, OPAQUE_COMPACTION_TOKENS } from './provider-billing.js';

const tool = { name: 'read_file', description: 'Read a file.', parameters: { type: 'object', properties: {} } };
const old: Message[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'word '.repeat(5_000) },
  { role: 'assistant', content: 'word '.repeat(3_000) },
];
const compacted = (part: Message): Message[] => [...old, part, { role: 'user', content: 'Go on.' }];

describe('estimateTokens counts what the provider bills', () => {
  it("adds Anthropic's tool-use system prompt to a request with tools, and nothing for OpenAI's models", () => {
    const messages: Message[] = [{ role: 'user', content: 'Hi' }];
    const claude = estimateTokens({ model: 'claude-sonnet-4-5', messages, tools: [tool] });
    const bare = estimateTokens({ model: 'claude-sonnet-4-5', messages });
    const gpt = estimateTokens({ model: 'gpt-4o', messages, tools: [tool] });
    expect(claude - bare).toBeGreaterThan(ANTHROPIC_TOOL_SYSTEM_PROMPT_TOKENS);
    expect(claude - gpt).toBe(ANTHROPIC_TOOL_SYSTEM_PROMPT_TOKENS);
    expect(estimateTokens({ model: 'claude-3-opus', messages, tools: [tool] }) - gpt).toBe(530);
  });

  it('leaves out what an Anthropic compaction block superseded, but the system prompt', () => {
    const summary = 'The user asked for a review of the repository; two files were read.';
    const messages = compacted({
      role: 'assistant',
      content: [{ type: 'compaction', text: summary, provider: 'anthropic' }],
    });
    const tail = estimateTokens([messages[3] as Message, messages[4] as Message]);
    const system = estimateTokens([messages[0] as Message]) - estimateTokens([]);
    expect(estimateTokens(messages)).toBe(tail + system);
    expect(estimateTokens(old)).toBeGreaterThan(8_000);
  });

  it('counts an encrypted Responses compaction item as OpenAI bills one, and what it superseded not at all', () => {
    const item: Message = {
      role: 'assistant',
      content: [{ type: 'compaction', encrypted: `gAAAA${'x'.repeat(40_000)}`, provider: 'openai', id: 'cmp_1' }],
    };
    const total = estimateTokens(compacted(item));
    expect(total).toBeGreaterThan(OPAQUE_COMPACTION_TOKENS);
    expect(total).toBeLessThan(OPAQUE_COMPACTION_TOKENS + 40);
  });

  it('counts thinking as its text (not its signature) and redacted thinking by its size', () => {
    const thinking = (part: Message['content']): Message[] => [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: part as never },
    ];
    const text = estimateTokens(thinking([{ type: 'reasoning', text: 'Let me think.', signature: 'S'.repeat(4_000) }]));
    const plain = estimateTokens(thinking([{ type: 'reasoning', text: 'Let me think.' }]));
    expect(text).toBe(plain);
    const redacted = estimateTokens(thinking([{ type: 'reasoning', text: '', encrypted: 'E'.repeat(4_000) }]));
    expect(redacted - estimateTokens(thinking([{ type: 'reasoning', text: '' }]))).toBe(750);
  });

  it("gives the run's incremental count the same figure as a count from scratch across a compaction", () => {
    const budget = createRequestBudget({ model: 'claude-sonnet-4-5' });
    const messages = compacted({
      role: 'assistant',
      content: [{ type: 'compaction', text: 'A summary.', provider: 'anthropic' }],
    });
    for (let n = 1; n <= messages.length; n++) {
      const request = { model: 'claude-sonnet-4-5', messages: messages.slice(0, n), tools: [tool] };
      expect(budget.measure(request)).toBe(estimateTokens(request));
    }
  });
});
