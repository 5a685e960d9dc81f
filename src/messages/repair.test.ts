import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoushoError } from '../errors/lousho-error.js';
import { MISSING_RESULT_TEXT, repairTranscript } from './repair.js';
import type { Message } from './types.js';
import { validateMessages } from './validate.js';

const call = (id: string, name = 'read'): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ id, name, arguments: {} }],
});
const result = (id: string, content = 'ok'): Message => ({ role: 'tool', toolCallId: id, content });
const user: Message = { role: 'user', content: 'go' };

function invalidAt(messages: Message[]): { index: unknown; message: string } {
  try {
    validateMessages(messages);
  } catch (error) {
    if (LoushoError.isInstance(error) && error.code === 'LOUSHO_MESSAGE_INVALID')
      return { index: error.details?.index, message: error.message };
    throw error;
  }
  throw new Error('validateMessages() accepted a broken transcript');
}

describe('validateMessages(): a transcript is checked where it enters', () => {
  it.each([
    ['a tool result without its call', [user, result('a')], 1, /no earlier assistant message made/],
    ['a call without a result', [user, call('a'), user], 1, /has no result/],
    ['two results for one call', [user, call('a'), result('a'), result('a')], 3, /second result/],
    ['a duplicate call id across turns', [user, call('a'), result('a'), call('a'), result('a')], 3, /already used/],
    [
      'a duplicate call id within a turn',
      [
        user,
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'a', name: 'x', arguments: {} },
            { id: 'a', name: 'y', arguments: {} },
          ],
        },
        result('a'),
      ],
      1,
      /already used/,
    ],
    ['a result before its call', [user, result('a'), call('a'), result('a')], 1, /no earlier assistant message made/],
  ] as const)(
    'refuses %s with LOUSHO_MESSAGE_INVALID naming the index and the fix',
    (_name, messages, index, problem) => {
      const error = invalidAt([...messages] as Message[]);
      expect(error.index).toBe(index);
      expect(error.message).toMatch(new RegExp(`^messages\\[${index}\\] `));
      expect(error.message).toMatch(problem);
      expect(error.message).toContain('repairTranscript()');
    },
  );

  it("lets the last assistant message's calls wait for their results with pendingCalls", () => {
    expect(() => validateMessages([user, call('a')], { pendingCalls: true })).not.toThrow();
    expect(() => validateMessages([user, call('a'), user, call('b')], { pendingCalls: true })).toThrow(/'a'/);
  });
});

describe('repairTranscript()', () => {
  it('drops orphan and duplicate results, gives a missing result an explicit error, renames a reused id, and says so', () => {
    const input: Message[] = [
      user,
      result('x'),
      call('a'),
      result('a'),
      result('a'),
      call('b'),
      user,
      call('a'),
      result('a'),
    ];
    const before = structuredClone(input);
    const { messages, changes } = repairTranscript(input);
    expect(input).toEqual(before);
    expect(() => validateMessages(messages)).not.toThrow();
    expect(changes.map((c) => [c.index, c.change])).toEqual([
      [1, 'dropped-orphan-result'],
      [4, 'dropped-duplicate-result'],
      [5, 'added-missing-result'],
      [7, 'renamed-duplicate-call'],
    ]);
    const added = messages.find((m) => m.role === 'tool' && m.toolCallId === 'b');
    expect(added).toMatchObject({ content: MISSING_RESULT_TEXT, isError: true, toolName: 'read' });
    expect(messages.at(-2)).toMatchObject({ toolCalls: [{ id: 'a_7' }] });
    expect(messages.at(-1)).toMatchObject({ toolCallId: 'a_7', content: 'ok' });
  });

  it('changes nothing in a transcript that pairs', () => {
    const input = [user, call('a'), result('a'), { role: 'assistant', content: 'done' } as Message];
    const { messages, changes } = repairTranscript(input);
    expect(changes).toEqual([]);
    expect(messages).toEqual(input);
  });

  it('always yields a transcript that validates, on random broken transcripts', () => {
    const step = fc.oneof(
      fc.constant<Message>(user),
      fc.constantFrom('a', 'b', 'c').map((id) => call(id)),
      fc.constantFrom('a', 'b', 'c', 'z').map((id) => result(id)),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (input) => {
        const { messages, changes } = repairTranscript(input);
        validateMessages(messages);
        let valid = true;
        try {
          validateMessages(input);
        } catch {
          valid = false;
        }
        expect(changes.length === 0).toBe(valid);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('a broken transcript never reaches a provider', () => {
  it('agent.send() and compactMessages() refuse it with LOUSHO_MESSAGE_INVALID before any model call', async () => {
    const { createAgent } = await import('../agent/create-agent.js');
    const { compactMessages } = await import('../compaction/compact-messages.js');
    const { mockModel } = await import('../testing/mock-model.js');
    const model = mockModel(['never']);
    const broken: Message[] = [user, call('a'), user, result('a')];
    const sent = await createAgent({ provider: model })
      .send(broken)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(LoushoError.isInstance(sent) && sent.code).toBe('LOUSHO_MESSAGE_INVALID');
    expect(model.calls).toHaveLength(0);
    await expect(compactMessages(broken)).rejects.toMatchObject({ code: 'LOUSHO_MESSAGE_INVALID' });
  });
});
