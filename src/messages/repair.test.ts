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

const calls = (...ids: string[]): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: ids.map((id) => ({ id, name: 'Task', arguments: {} })),
});
const text = (m: Message): string => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
const kinds = (changes: { index: number; change: string }[]) => changes.map((c) => [c.index, c.change]);

describe('repairTranscript() never invents or discards a result', () => {
  // The shape of a Claude Code session with parallel Task calls: each tool_use is logged as an
  // assistant record of its own, and a subagent's result can be logged before the next call.
  it('moves results logged between parallel calls to their calls, adding no error result', () => {
    const input = [
      user,
      call('t1', 'Task'),
      call('t2', 'Task'),
      result('t1', 'one'),
      call('t3', 'Task'),
      result('t2', 'two'),
      result('t3', 'three'),
    ];
    const before = structuredClone(input);
    const { messages, changes } = repairTranscript(input);
    expect(input).toEqual(before);
    expect(() => validateMessages(messages)).not.toThrow();
    expect(messages.map((m) => (m.role === 'tool' ? `${m.toolCallId}=${m.content}` : m.role))).toEqual([
      'user',
      'assistant',
      't1=one',
      'assistant',
      't2=two',
      'assistant',
      't3=three',
    ]);
    expect(kinds(changes)).toEqual([
      [3, 'moved-result'],
      [5, 'moved-result'],
    ]);
    expect(changes[0]?.description).toMatch(/moved the result of call 't1' to right after its call \(messages\[1\]\)/);
    expect(messages.some((m) => m.role === 'tool' && m.isError === true)).toBe(false);
  });

  it('moves a result logged after a later user message, or before its call, to its call', () => {
    const late = repairTranscript([user, calls('a', 'b'), result('a', 'A'), user, result('b', 'B')]);
    expect(late.messages.map((m) => (m.role === 'tool' ? m.content : m.role))).toEqual([
      'user',
      'assistant',
      'A',
      'B',
      'user',
    ]);
    expect(kinds(late.changes)).toEqual([[4, 'moved-result']]);
    const early = repairTranscript([user, result('a', 'A'), call('a'), { role: 'assistant', content: 'done' }]);
    expect(early.messages.map((m) => (m.role === 'tool' ? m.content : m.role))).toEqual([
      'user',
      'assistant',
      'A',
      'assistant',
    ]);
    expect(early.changes[0]).toMatchObject({
      index: 1,
      change: 'moved-result',
      description: expect.stringMatching(/logged before the call/),
    });
  });

  it('joins a second result of a call into the first, saying so, and reads an exact copy once', () => {
    const twice = repairTranscript([user, call('a'), result('a', 'first'), result('a', 'second')]);
    expect(twice.messages).toHaveLength(3);
    const one = twice.messages[2] as Message;
    expect(text(one)).toMatch(/^first\n\n\[A second result of this call was recorded too; .*\]\nsecond$/);
    expect(kinds(twice.changes)).toEqual([[3, 'joined-second-result']]);

    const copy = repairTranscript([user, call('a'), result('a', 'same'), user, result('a', 'same')]);
    expect(copy.messages.map((m) => (m.role === 'tool' ? m.content : m.role))).toEqual([
      'user',
      'assistant',
      'same',
      'user',
    ]);
    expect(copy.changes).toMatchObject([
      { index: 4, change: 'read-copy-once', description: expect.stringMatching(/copy of messages\[2\]/) },
    ]);
  });

  it('keeps a result whose call no message makes as a user note naming the call, after the turn', () => {
    const { messages, changes } = repairTranscript([
      user,
      call('a'),
      { role: 'tool', toolCallId: 'z', toolName: 'bash', content: 'orphan output' },
      result('a'),
    ]);
    expect(() => validateMessages(messages)).not.toThrow();
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(text(messages[3] as Message)).toMatch(
      /^\[A result of tool call 'z' \(bash\) was recorded here, but no assistant message makes that call; .*\]\norphan output$/,
    );
    expect(kinds(changes)).toEqual([[2, 'kept-orphan-as-note']]);
  });

  it('gives a call with no result anywhere an error result that says its real result was never recorded', () => {
    const { messages, changes } = repairTranscript([user, call('b'), user]);
    expect(messages[2]).toEqual({
      role: 'tool',
      toolCallId: 'b',
      toolName: 'read',
      content: MISSING_RESULT_TEXT,
      isError: true,
    });
    expect(MISSING_RESULT_TEXT).toMatch(/^Error: no result of this tool call was recorded.*real result is unknown/);
    expect(changes).toMatchObject([
      { index: 1, change: 'added-missing-result', description: expect.stringMatching(/holds no result/) },
    ]);
  });

  it('with pendingCalls leaves the last turn waiting, and puts a note that follows it before it', () => {
    const { messages, changes } = repairTranscript([user, calls('a', 'b'), result('a'), result('z')], {
      pendingCalls: true,
    });
    expect(messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'tool']);
    expect(() => validateMessages(messages, { pendingCalls: true })).not.toThrow();
    expect(kinds(changes)).toEqual([[3, 'kept-orphan-as-note']]);
  });

  it('gives a reused id a fresh one, and a late result of that id to the latest call still waiting', () => {
    const { messages, changes } = repairTranscript([
      user,
      call('a'),
      result('a', 'one'),
      call('a'),
      user,
      result('a', 'two'),
    ]);
    expect(() => validateMessages(messages)).not.toThrow();
    expect(messages.map((m) => (m.role === 'tool' ? `${m.toolCallId}=${m.content}` : m.role))).toEqual([
      'user',
      'assistant',
      'a=one',
      'assistant',
      'a_3=two',
      'user',
    ]);
    expect(kinds(changes)).toEqual([
      [3, 'renamed-duplicate-call'],
      [5, 'moved-result'],
    ]);
  });

  it('changes nothing in a transcript that pairs', () => {
    const input = [user, call('a'), result('a'), { role: 'assistant', content: 'done' } as Message];
    const { messages, changes } = repairTranscript(input);
    expect(changes).toEqual([]);
    expect(messages).toEqual(input);
  });

  it('always yields a transcript that validates and still holds every result, on random broken transcripts', () => {
    let n = 0;
    const step = fc.oneof(
      fc.constant<Message>(user),
      fc.constantFrom('a', 'b', 'c').map((id) => call(id)),
      fc.constantFrom('a', 'b', 'c', 'z').map((id) => result(id, `out-${id}-${n++}`)),
      fc.constant('copy'),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        // 'copy' repeats the previous result exactly, as a log that wrote one record twice does.
        const input = steps.flatMap((s, i): Message[] => {
          const prev = steps[i - 1];
          return s === 'copy' ? (typeof prev === 'object' && prev.role === 'tool' ? [prev] : []) : [s];
        });
        const { messages, changes } = repairTranscript(input);
        validateMessages(messages);
        let valid = true;
        try {
          validateMessages(input);
        } catch {
          valid = false;
        }
        expect(changes.length === 0).toBe(valid);
        const written = messages.map(text).join('\n');
        for (const m of input) if (m.role === 'tool') expect(written).toContain(m.content as string);
        const added = messages.filter((m) => m.role === 'tool' && m.content === MISSING_RESULT_TEXT).length;
        expect(added).toBe(changes.filter((c) => c.change === 'added-missing-result').length);
      }),
      { numRuns: 1_000 },
    );
  });

  it('ends a pairing error with the hint given, as the command line names its --repair flag', () => {
    const hint = 'Add --repair to fix this.';
    expect(() => validateMessages([user, result('a')], { repairHint: hint })).toThrow(
      /or remove the result\. Add --repair to fix this\.$/,
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
