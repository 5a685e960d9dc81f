import { describe, expect, it } from 'vitest';
import { TranscriptCounter } from '../compaction/transcript-counter.js';
import type { Message } from '../messages/types.js';
import { tokenProfile } from '../models/estimate-tokens.js';
import { rejection } from '../test-support/errors.js';
import { decodeEntry, encodeEntry } from './records.js';
import { SessionLog } from './session-log.js';
import { LogInconsistent, SessionState } from './session-state.js';
import { MemorySessionStore } from './store.js';

const user = (text: string): Message => ({ role: 'user', content: text });
const texts = (messages: readonly Message[]) => messages.map((m) => m.content);

/** A state holding `n` messages u0..u(n-1), appended one record at a time. */
function stateOf(n: number): SessionState {
  const state = new SessionState();
  for (let i = 0; i < n; i++) state.apply({ type: 'messages', messages: [user(`u${i}`)] });
  return state;
}

describe("a session log's tail record", () => {
  it('keeps the first messages of the transcript and appends the new ones, in the same array', () => {
    const state = stateOf(5);
    const array = state.messages;
    state.apply({ type: 'tail', keep: 3, messages: [user('x'), user('y'), user('z')] });
    expect(texts(state.messages)).toEqual(['u0', 'u1', 'u2', 'x', 'y', 'z']);
    // Cut in place: what it costs is the messages it adds, not the transcript.
    expect(state.messages).toBe(array);
    state.apply({ type: 'tail', keep: 6, messages: [] });
    state.apply({ type: 'tail', keep: 0, messages: [user('a')] });
    expect(texts(state.messages)).toEqual(['a']);
  });

  it('is counted right by a TranscriptCounter that counted the transcript before it', () => {
    const state = stateOf(200);
    const counter = new TranscriptCounter();
    const profile = tokenProfile('gpt-4o');
    counter.count(state.messages, profile);
    const longer = Array.from({ length: 150 }, (_, i) => user(`a much longer message than before, number ${i}`));
    state.apply({ type: 'tail', keep: 10, messages: longer });
    state.apply({ type: 'messages', messages: [user('new')] });
    expect(counter.count(state.messages, profile)).toBe(new TranscriptCounter().count(state.messages, profile));
  });

  it('leaves the transcript of every checkpoint as it was, when it cuts into one or past it', () => {
    const state = stateOf(4);
    state.apply({ type: 'checkpoint', checkpoint: { id: 'cp-1', turn: 1, step: 1, time: 0, messageCount: 4 } });
    state.apply({ type: 'tail', keep: 4, messages: [user('past')] });
    state.apply({ type: 'checkpoint', checkpoint: { id: 'cp-2', turn: 1, step: 2, time: 0, messageCount: 5 } });
    state.apply({ type: 'tail', keep: 2, messages: [user('cut')] });
    expect(texts(state.messages)).toEqual(['u0', 'u1', 'cut']);
    expect(texts(state.messagesAt('cp-1') ?? [])).toEqual(['u0', 'u1', 'u2', 'u3']);
    expect(texts(state.messagesAt('cp-2') ?? [])).toEqual(['u0', 'u1', 'u2', 'u3', 'past']);
    state.apply({ type: 'tail', keep: 1, messages: [user('again')] });
    state.apply({ type: 'rewind', to: 'cp-2' });
    expect(texts(state.messages)).toEqual(['u0', 'u1', 'u2', 'u3', 'past']);
    state.apply({ type: 'tail', keep: 0, messages: [] });
    expect(texts(state.messagesAt('cp-2') ?? [])).toEqual(['u0', 'u1', 'u2', 'u3', 'past']);
  });

  it('is refused when it keeps more messages than the transcript has, and changes nothing', () => {
    const state = stateOf(2);
    expect(() => state.apply({ type: 'tail', keep: 3, messages: [user('x')] })).toThrow(LogInconsistent);
    expect(texts(state.messages)).toEqual(['u0', 'u1']);
  });

  it('is read back only with a whole, non-negative number of messages kept', () => {
    const entry = (keep: unknown) => JSON.stringify([{ type: 'tail', keep, messages: [user('x')] }]);
    expect(decodeEntry(entry(2))).toEqual([{ type: 'tail', keep: 2, messages: [user('x')] }]);
    for (const keep of [-1, 1.5, '2', null, undefined]) expect(() => decodeEntry(entry(keep))).toThrow();
    expect(() => decodeEntry(JSON.stringify([{ type: 'tail', keep: 0, messages: [{ role: 'x' }] }]))).toThrow();
  });

  it('is not saved as a snapshot: its entry holds what changed', async () => {
    const store = new MemorySessionStore();
    const log = new SessionLog(store, 's', () => '');
    await log.append([{ type: 'messages', messages: [user('a'.repeat(5_000)), user('b')] }]);
    await log.append([{ type: 'tail', keep: 1, messages: [user('c')] }]);
    const { entries } = await store.read('s');
    expect(entries[1]).toBe(encodeEntry([{ type: 'tail', keep: 1, messages: [user('c')] }]));
    expect((await store.readLatest('s')).fromSnapshot).toBe(false);
    const reader = new SessionLog(store, 's', () => '');
    await reader.read();
    expect(texts(reader.state.messages)).toEqual(['a'.repeat(5_000), 'c']);
  });

  it('is saved as a snapshot once the entries after the newest one outgrow it, and a reader starts there', async () => {
    const store = new MemorySessionStore();
    const log = new SessionLog(store, 's', () => '');
    await log.append([{ type: 'messages', messages: [user('a'.repeat(20_000))] }]);
    const whole: boolean[] = [];
    for (let i = 0; i < 200; i++) {
      await log.append([{ type: 'messages', messages: [user(`${i}`.repeat(1_000))] }]);
      await log.append([{ type: 'tail', keep: 1 + i, messages: [user(`t${i}`)] }]);
      const entry = (await store.read('s')).entries.at(-1) as string;
      whole.push(decodeEntry(entry)[0]?.type === 'snapshot');
    }
    // Each snapshot holds about 20,000 characters: the next comes when about as much was written after it.
    const at = whole.flatMap((w, i) => (w ? [i] : []));
    expect(at.length).toBeGreaterThan(3);
    expect(at.length).toBeLessThan(20);
    const latest = await store.readLatest('s');
    expect(latest.fromSnapshot).toBe(true);
    const reader = new SessionLog(store, 's', () => '');
    await reader.read();
    expect(reader.state.messages).toEqual(log.state.messages);
    expect(texts(reader.state.messages).at(-1)).toBe('t199');
  });

  it('in a log that keeps more than it holds is LOUSHO_STORE_INVALID naming the entry, on read', async () => {
    const store = new MemorySessionStore();
    let v = await store.append('s', encodeEntry([{ type: 'messages', messages: [user('a')] }]), 0);
    v = await store.append('s', encodeEntry([{ type: 'tail', keep: 2, messages: [user('b')] }]), v);
    const error = await rejection(new SessionLog(store, 's', () => '').read());
    expect(error.code).toBe('LOUSHO_STORE_INVALID');
    expect(error.message).toMatch(/entry 2 of its log does not follow .*keeps 2 messages of a transcript of 1/);
  });

  it('that keeps more than the writer holds is LOUSHO_SESSION_CONFLICT, and nothing is written', async () => {
    const store = new MemorySessionStore();
    const log = new SessionLog(store, 's', () => '');
    await log.append([{ type: 'messages', messages: [user('a')] }]);
    const error = await rejection(log.append([{ type: 'tail', keep: 2, messages: [user('b')] }]));
    expect(error.code).toBe('LOUSHO_SESSION_CONFLICT');
    expect((await store.read('s')).entries).toHaveLength(1);
    await log.read();
    expect(texts(log.state.messages)).toEqual(['a']);
    await log.append([{ type: 'tail', keep: 1, messages: [user('b')] }]);
    expect(texts(log.state.messages)).toEqual(['a', 'b']);
  });
});
