import { describe, expect, it } from 'vitest';
import { Transcript } from '../messages/transcript.js';
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
  it('reads only the new messages of a Transcript that grew, at 2,000 messages: no old content, no old reference', () => {
    const { messages, reads } = watched(readingTranscript(1_000, 200));
    let indexReads = 0;
    const tracked = new Proxy(messages, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) indexReads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const transcript = new Transcript(tracked);
    const counter = new TranscriptCounter();
    expect(counter.count(transcript, profile)).toBe(messagesTokens(messages, profile));
    for (let step = 1_001; step < 1_011; step++) {
      transcript.append(...readingTranscript(step, 200).slice(-2));
      reads.n = 0;
      indexReads = 0;
      const total = counter.count(transcript, profile);
      const [indexed, contents] = [indexReads, reads.n];
      expect(total).toBe(messagesTokens(messages, profile));
      // The two new messages: each looked up once, its content read to count it and to keep it.
      expect(indexed).toBe(2);
      expect(contents).toBeLessThanOrEqual(2 * 2);
    }
  });

  it('recounts exactly what a change through the Transcript reached, at the next count', () => {
    const transcript = new Transcript(readingTranscript(200, 300));
    const counter = new TranscriptCounter();
    const exact = () => messagesTokens(transcript.messages, profile);
    counter.count(transcript, profile);
    transcript.replace(5, { role: 'user', content: 'an old message replaced' });
    expect(counter.count(transcript, profile)).toBe(exact());
    transcript.replaceFrom(9, transcript.messages.slice(11));
    expect(counter.count(transcript, profile)).toBe(exact());
    transcript.replaceFrom(transcript.messages.length - 4, [{ role: 'user', content: 'the end rewritten' }]);
    transcript.append({ role: 'user', content: 'then one more' });
    expect(counter.count(transcript, profile)).toBe(exact());
  });

  it('after changed(), as after a hook of yours, finds an old message replaced or whose content was assigned, anywhere', () => {
    const transcript = new Transcript(readingTranscript(500, 300));
    const counter = new TranscriptCounter();
    const exact = () => messagesTokens(transcript.messages, profile);
    counter.count(transcript, profile);
    transcript.messages[123] = { role: 'user', content: 'replaced long ago, by other code' };
    (transcript.messages[7] as { content: string }).content = 'edited in place';
    transcript.changed();
    expect(counter.count(transcript, profile)).toBe(exact());
    // Without changed() such an edit is not seen: the transcript is the record of what changed.
    (transcript.messages[300] as { content: string }).content = 'edited where no one says so';
    expect(counter.count(transcript, profile)).not.toBe(exact());
  });

  it('compares any other array message by message: an insertion, a removal, a replacement or an edit anywhere is counted at once', () => {
    const messages = readingTranscript(200, 300);
    const counter = new TranscriptCounter();
    const exact = () => messagesTokens(messages, profile);
    counter.count(messages, profile);
    messages.splice(9, 2);
    expect(counter.count(messages, profile)).toBe(exact());
    messages.splice(20, 0, { role: 'user', content: 'inserted' });
    expect(counter.count(messages, profile)).toBe(exact());
    messages[5] = { role: 'user', content: 'an old one replaced' };
    expect(counter.count(messages, profile)).toBe(exact());
    (messages[100] as { content: string }).content = 'edited in place';
    expect(counter.count(messages, profile)).toBe(exact());
    const copy = messages.slice();
    copy[7] = { role: 'user', content: 'in a copy' };
    expect(counter.count(copy, profile)).toBe(messagesTokens(copy, profile));
  });
});
