import { describe, expect, it } from 'vitest';
import { readImageHeader } from './image-header.js';

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
const pad = (b: Uint8Array, length: number): Uint8Array => {
  const out = new Uint8Array(Math.max(length, b.length));
  out.set(b);
  return out;
};

// 512 x 256 in each format's own header layout.
const png = pad(
  bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'IHDR', [0, 0, 0x02, 0x00, 0, 0, 0x01, 0x00]),
  33,
);
const gif = bytes('GIF89a', [0x00, 0x02, 0x00, 0x01, 0, 0, 0]);
// SOI, an APP0 segment (length 16), then SOF0: length 17, precision 8, height 256, width 512.
const jpeg = (() => {
  const app0 = pad(bytes([0xff, 0xe0, 0x00, 0x10], 'JFIF'), 18);
  const sof = bytes([0xff, 0xc0, 0x00, 0x11, 8, 0x01, 0x00, 0x02, 0x00, 3]);
  return bytes([0xff, 0xd8], [...app0], [...sof], new Array(8).fill(0));
})();
const webpLossy = (() => {
  const b = pad(bytes('RIFF', [0, 0, 0, 0], 'WEBP', 'VP8 '), 30);
  b.set([0x00, 0x02, 0x00, 0x01], 26); // 14-bit width and height
  return b;
})();
const webpLossless = (() => {
  const b = pad(bytes('RIFF', [0, 0, 0, 0], 'WEBP', 'VP8L'), 30);
  const v = (512 - 1) | ((256 - 1) << 14);
  b.set([v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >> 24) & 0xff], 21);
  return b;
})();
const webpExtended = (() => {
  const b = pad(bytes('RIFF', [0, 0, 0, 0], 'WEBP', 'VP8X'), 30);
  b.set([0xff, 0x01, 0x00, 0xff, 0x00, 0x00], 24); // width - 1 = 511, height - 1 = 255
  return b;
})();

describe('readImageHeader', () => {
  it('reads the media type and size of PNG, GIF, JPEG and the three WebP kinds', () => {
    const size = { width: 512, height: 256 };
    expect(readImageHeader(png)).toEqual({ mediaType: 'image/png', size });
    expect(readImageHeader(gif)).toEqual({ mediaType: 'image/gif', size });
    expect(readImageHeader(jpeg)).toEqual({ mediaType: 'image/jpeg', size });
    expect(readImageHeader(webpLossy)).toEqual({ mediaType: 'image/webp', size });
    expect(readImageHeader(webpLossless)).toEqual({ mediaType: 'image/webp', size });
    expect(readImageHeader(webpExtended)).toEqual({ mediaType: 'image/webp', size });
  });

  it('knows the type from the signature alone when the bytes end before the size', () => {
    expect(readImageHeader(png.subarray(0, 12))).toEqual({ mediaType: 'image/png', size: undefined });
    expect(readImageHeader(gif.subarray(0, 6))).toEqual({ mediaType: 'image/gif', size: undefined });
    expect(readImageHeader(jpeg.subarray(0, 4))).toEqual({ mediaType: 'image/jpeg', size: undefined });
    expect(readImageHeader(webpLossy.subarray(0, 12))).toEqual({ mediaType: 'image/webp', size: undefined });
  });

  it('reads base64 text decoded from its first characters, as the providers sniff it', () => {
    const head = Buffer.from(Buffer.from(webpLossy).toString('base64').slice(0, 16), 'base64');
    expect(readImageHeader(head)?.mediaType).toBe('image/webp');
  });

  it('answers undefined for other formats and for text', () => {
    expect(readImageHeader(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeUndefined();
    expect(readImageHeader(bytes('BM', new Array(30).fill(0)))).toBeUndefined();
    expect(readImageHeader(bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '))).toBeUndefined();
    expect(readImageHeader(new Uint8Array())).toBeUndefined();
  });
});
