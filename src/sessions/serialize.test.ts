import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { decodeEntry, encodeEntry } from './records.js';
import { parseSession, serializeSession } from './serialize.js';

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255]);
const withBytes: Message[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'what is this?' },
      { type: 'image', image: png, mediaType: 'image/png' },
    ],
  },
];
const withoutBytes: Message[] = [
  { role: 'user', content: 'a text that says "$bytes" and {"$bytes":"AAEC"}' },
  { role: 'assistant', content: 'an image by URL', toolCalls: [{ id: 'c', name: 'see', arguments: {} }] },
  { role: 'tool', toolCallId: 'c', content: [{ type: 'image', image: new URL('https://example.test/a.png') }] },
];

describe('session JSON', () => {
  it('saves bytes as base64 and reads them back as bytes, in an entry and in a saved transcript', () => {
    const [record] = decodeEntry(encodeEntry([{ type: 'messages', messages: withBytes }]));
    const imageOf = (messages: Message[]) => ((messages[0]?.content ?? []) as { image?: unknown }[])[1]?.image;
    const saved = imageOf((record as { messages: Message[] }).messages);
    expect(saved).toBeInstanceOf(Uint8Array);
    expect([...(saved as Uint8Array)]).toEqual([...png]);
    expect([...(imageOf(parseSession(serializeSession(withBytes))) as Uint8Array)]).toEqual([...png]);
  });

  it('leaves a text that only looks like saved bytes as it was, and writes a URL as its href', () => {
    const text = serializeSession(withoutBytes);
    expect(text).toContain('"image":"https://example.test/a.png"');
    const read = parseSession(text);
    expect(read[0]?.content).toBe(withoutBytes[0]?.content);
    // The same text beside real bytes, where the entry is read with the reviver.
    const [record] = decodeEntry(encodeEntry([{ type: 'messages', messages: [...withoutBytes, ...withBytes] }]));
    expect((record as { messages: Message[] }).messages[0]?.content).toBe(withoutBytes[0]?.content);
  });
});
