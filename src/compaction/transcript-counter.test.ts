import { describe, expect, it } from 'vitest';
import { noteEdit } from '../messages/edits.js';
import type { Message } from '../messages/types.js';
import { messagesTokens, tokenProfile } from '../models/estimate-tokens.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { TranscriptCounter } from './transcript-counter.js';

const profile = tokenProfile('gpt-4o');

/** `messages`, each of whose `content` reads is counted in `reads.n`. */
function watched(messages: Message[]): { messages: Message[]; reads: { n: number } } {
  const reads = { n: 0 };
  const out = messages.map((m) => {
    let content = m.content;
    const copy = { ...m };
    Object.defineProperty(copy, 'content', {
      enumerable: true,
      get: () => {
        reads.n++;
        return content;
      },
      set: (value) => {
        content = value;
      },
    });
    return copy as Message;
  });
  return { messages: out, reads };
}

describe('TranscriptCounter', () => {
  it('reads only the new messages and a bounded few old ones when the transcript grew, at 2,000 messages', () => {
    const { messages, reads } = watched(readingTranscript(1_000, 200));
    const counter = new TranscriptCounter();
    const first = counter.count(messages, profile);
    expect(first).toBe(messagesTokens(messages, profile));
    const more = readingTranscript(1_001, 200).slice(-2);
    messages.push(...more);
    reads.n = 0;
    const total = counter.count(messages, profile);
    const read = reads.n;
    expect(total).toBe(messagesTokens(messages, profile));
    // The two new messages are counted; of the 2,001 old ones only the newest 16 and 16 sampled are looked at.
    expect(read).toBeLessThanOrEqual(2 * 2 + 32);
  });

  it('looks at a bounded few of the old references when the transcript grew, at 2,000 messages', () => {
    const messages = readingTranscript(1_000, 200);
    let reads = 0;
    const tracked = new Proxy(messages, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const counter = new TranscriptCounter();
    counter.count(tracked, profile);
    const read: number[] = [];
    for (let step = 1_001; step < 1_011; step++) {
      messages.push(...readingTranscript(step, 200).slice(-2));
      reads = 0;
      expect(counter.count(tracked, profile)).toBe(messagesTokens(messages, profile));
      read.push(reads);
    }
    // The 2 new messages, the newest one seen, the newest 16 and 16 sampled: not the 2,000 old ones.
    expect(Math.max(...read)).toBeLessThanOrEqual(2 + 1 + 16 + 16 + 2);
  });

  it('recounts at once a message inserted or removed anywhere, a recent one replaced or edited in place, and an edit noted', () => {
    const messages = readingTranscript(200, 300);
    const counter = new TranscriptCounter();
    counter.count(messages, profile);
    messages.splice(9, 2);
    expect(counter.count(messages, profile)).toBe(messagesTokens(messages, profile));
    messages.splice(20, 0, { role: 'user', content: 'inserted' });
    expect(counter.count(messages, profile)).toBe(messagesTokens(messages, profile));
    messages[messages.length - 5] = { role: 'user', content: 'a recent one replaced' };
    expect(counter.count(messages, profile)).toBe(messagesTokens(messages, profile));
    (messages[messages.length - 3] as { content: string }).content = 'edited in place';
    expect(counter.count(messages, profile)).toBe(messagesTokens(messages, profile));
    // An old message replaced, as a compaction does: the edit is noted, so it is recounted at once.
    messages[5] = { ...(messages[5] as Message), content: 'replaced' } as Message;
    noteEdit(messages, 5);
    expect(counter.count(messages, profile)).toBe(messagesTokens(messages, profile));
    // Another array with the same messages but one: compared reference by reference.
    const copy = messages.slice();
    copy[7] = { role: 'user', content: 'in a copy' };
    expect(counter.count(copy, profile)).toBe(messagesTokens(copy, profile));
  });

  it('recounts an old message that other code replaced without a note within 64 counts', () => {
    const messages = readingTranscript(500, 300);
    const counter = new TranscriptCounter();
    counter.count(messages, profile);
    messages[123] = { role: 'user', content: 'replaced long ago, without a note' };
    let counts = 1;
    while (counter.count(messages, profile) !== messagesTokens(messages, profile)) counts++;
    expect(counts).toBeLessThanOrEqual(64);
  });

  it('recounts an old message edited in place within a bounded number of steps', () => {
    const messages = readingTranscript(500, 300);
    const counter = new TranscriptCounter();
    counter.count(messages, profile);
    const exact = () => messagesTokens(messages, profile);
    (messages[123] as { content: string }).content = 'edited in place, long ago';
    // A count again with nothing new looks at the newest messages only: the sample moves on when the transcript grows.
    expect(counter.count(messages, profile)).not.toBe(exact());
    let steps = 0;
    while (steps < 200 && counter.count(messages, profile) !== exact()) {
      messages.push({ role: 'user', content: `step ${steps++}` });
    }
    // 1,000 messages, of which 984 are older than the newest 16, sampled 16 at a time: every one within 62 steps.
    expect(steps).toBeLessThanOrEqual(Math.ceil(1_000 / 16));
  });
});
