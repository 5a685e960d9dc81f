import { describe, expect, it } from 'vitest';
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

  it('recounts at once a message replaced, inserted or removed anywhere, and a recent one edited in place', () => {
    const messages = readingTranscript(200, 300);
    const counter = new TranscriptCounter();
    counter.count(messages, profile);
    messages[5] = { ...(messages[5] as Message), content: 'replaced' } as Message;
    expect(counter.count(messages, profile)).toBe(messagesTokens(messages, profile));
    messages.splice(9, 2);
    expect(counter.count(messages, profile)).toBe(messagesTokens(messages, profile));
    (messages[messages.length - 3] as { content: string }).content = 'edited in place';
    expect(counter.count(messages, profile)).toBe(messagesTokens(messages, profile));
  });

  it('recounts an old message edited in place within a bounded number of counts', () => {
    const messages = readingTranscript(500, 300);
    const counter = new TranscriptCounter();
    counter.count(messages, profile);
    const exact = () => messagesTokens(messages, profile);
    (messages[123] as { content: string }).content = 'edited in place, long ago';
    let counts = 1;
    while (counter.count(messages, profile) !== exact()) counts++;
    // 1,000 messages, of which 984 are older than the newest 16, sampled 16 at a time: every one within 62 counts.
    expect(counts).toBeLessThanOrEqual(Math.ceil(984 / 16));
  });
});
