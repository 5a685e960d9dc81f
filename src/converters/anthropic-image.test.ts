/**
 * One image mapper for Anthropic: the converter (toAnthropic) and the provider's request
 * builder write the same block for every kind of image input, and refuse the same types.
 */
import { describe, expect, it } from 'vitest';
import type { ImagePart, Message } from '../messages/types.js';
import { toAnthropicMessages } from '../providers/anthropic-messages.js';
import { toAnthropic } from './to-anthropic.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const PNG_BASE64 = Buffer.from(PNG).toString('base64');

const images: [string, ImagePart][] = [
  ['an https URL', { type: 'image', image: 'https://example.com/a.png' }],
  ['a URL object', { type: 'image', image: new URL('https://example.com/b.png') }],
  ['raw bytes, type read from them', { type: 'image', image: PNG }],
  ['base64 text, type read from it', { type: 'image', image: PNG_BASE64 }],
  ['base64 text, image/jpg given', { type: 'image', image: PNG_BASE64, mediaType: 'image/jpg' }],
  ['a data URL with a type', { type: 'image', image: `data:image/gif;base64,${PNG_BASE64}` }],
  ['a data URL without a type', { type: 'image', image: `data:;base64,${PNG_BASE64}` }],
];

const blockOf = {
  converter: (part: ImagePart) => {
    const { messages } = toAnthropic([{ role: 'user', content: [part] }]);
    return (messages[0]?.content as unknown[] | undefined)?.[0];
  },
  provider: (part: ImagePart) => {
    const message: Message = { role: 'user', content: [part] };
    return toAnthropicMessages([message]).messages[0]?.content[0];
  },
};

describe('Anthropic image blocks', () => {
  it.each(images)('are the same from the converter and the provider: %s', (_name, part) => {
    const block = blockOf.converter(part);
    expect(blockOf.provider(part)).toEqual(block);
    expect(block).toMatchObject({ type: 'image' });
  });

  it('read the type of a data URL that gives none from its bytes', () => {
    expect(blockOf.converter(images[6]?.[1] as ImagePart)).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
    });
  });

  it('refuse a type the API does not take, on both paths, naming the message and what Anthropic accepts', () => {
    const svg: ImagePart = { type: 'image', image: 'PHN2Zz4=', mediaType: 'image/svg+xml' };
    for (const [where, map] of [
      ['toAnthropic()', blockOf.converter],
      ['Anthropic request', blockOf.provider],
    ] as const) {
      expect(() => map(svg)).toThrow(
        expect.objectContaining({
          code: 'LOUSHO_MESSAGE_INVALID',
          message: expect.stringMatching(
            new RegExp(
              `^${where.replace(/[()]/g, '\\$&')}: messages\\[0\\] has an image of type image/svg\\+xml\\. Anthropic accepts image/jpeg, image/png, image/gif, image/webp`,
            ),
          ),
        }),
      );
    }
  });
});
