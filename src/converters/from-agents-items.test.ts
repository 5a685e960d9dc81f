import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transcript } from '../test-support/message-arbitraries.js';
import { AGENTS_CARRIES, agentsItems } from '../test-support/native-arbitraries.js';
import type { AgentsItem } from './agents-items-types.js';
import { agentsItemsToMessages, fromAgentsItems } from './from-agents-items.js';
import { writeAgentsItems } from './to-agents-items.js';

const reasoning = (id: string): AgentsItem => ({ type: 'reasoning', id, content: [] }) as AgentsItem;

describe('agentsItemsToMessages(items, ends)', () => {
  it('gives the end of each message among the items: its calls, and the unknown items before and after it', () => {
    const items: AgentsItem[] = [
      reasoning('rs_0'),
      { type: 'message', role: 'user', content: 'question' },
      reasoning('rs_1'),
      { type: 'function_call', callId: 'a', name: 'read', arguments: '{}', status: 'completed' },
      { type: 'function_call', callId: 'b', name: 'read', arguments: '{}', status: 'completed' },
      { type: 'function_call_result', callId: 'a', name: 'read', status: 'completed', output: 'A' },
      { type: 'function_call_result', callId: 'b', name: 'read', status: 'completed', output: 'B' },
      { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] },
      reasoning('rs_2'),
    ];
    const ends = [7];
    const messages = agentsItemsToMessages(items, ends);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    // Appended to what `ends` held: the user message with the reasoning before it, the assistant message with its two calls, ..., the answer with the reasoning after it.
    expect(ends).toEqual([7, 2, 5, 6, 7, 9]);
  });

  it('gives the same ends as writing the messages back (300 random item lists with unknown items anywhere)', () => {
    fc.assert(
      fc.property(agentsItems(transcript(AGENTS_CARRIES).map((m) => writeAgentsItems(m))), (items) => {
        const read: number[] = [];
        const messages = agentsItemsToMessages(items, read);
        const written: number[] = [];
        writeAgentsItems(messages, written);
        expect(read).toHaveLength(messages.length);
        expect(read).toEqual(written);
        if (messages.length > 0) expect(read.at(-1)).toBe(items.length);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a message item of any other role by name, including one named like a property every object has', () => {
    for (const role of ['tool', 'constructor', 'toString', '__proto__']) {
      let error: unknown;
      try {
        fromAgentsItems([{ type: 'message', role, content: 'x' }]);
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ code: 'LOUSHO_MESSAGE_INVALID' });
      expect((error as Error).message).toContain(`items[0] has role ${JSON.stringify(role)}`);
    }
  });
});
