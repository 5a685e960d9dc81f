import type { ImagePart } from '../messages/types.js';

/** Which vendor's published image formula to use. */
export type ImageFormula = 'openai' | 'anthropic';

/** Size assumed for an image whose dimensions cannot be read (a remote URL). */
export const UNKNOWN_IMAGE_SIZE = { width: 1024, height: 1024 } as const;

/**
 * OpenAI's formula: 'low' detail is 85 tokens; otherwise the image is scaled to fit in
 * 2048 x 2048, then its short side to 768, and each 512 px tile costs 170 plus 85 base.
 */
export function openAIImageTokens(width: number, height: number, detail?: ImagePart['detail']): number {
  if (detail === 'low') return 85;
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const short = Math.min(w, h);
  if (short > 768) {
    w = (w * 768) / short;
    h = (h * 768) / short;
  }
  return 170 * Math.ceil(w / 512) * Math.ceil(h / 512) + 85;
}

/** Anthropic's formula: tokens = width * height / 750, after scaling the long edge to at most 1568 px. */
export function anthropicImageTokens(width: number, height: number): number {
  const fit = Math.min(1, 1568 / Math.max(width, height));
  return Math.ceil((width * fit * (height * fit)) / 750);
}

function bytesOf(image: ImagePart['image'], limit: number): Uint8Array | undefined {
  if (image instanceof Uint8Array) return image.subarray(0, limit);
  const text = image instanceof URL ? image.href : image;
  let base64 = text;
  if (text.startsWith('data:')) {
    const comma = text.indexOf(',');
    if (comma < 0 || !text.slice(0, comma).includes(';base64')) return undefined;
    base64 = text.slice(comma + 1);
  } else if (/^[a-z]+:\/\//i.test(text)) {
    return undefined;
  }
  const take = Math.ceil((limit * 4) / 3 / 4) * 4;
  return Buffer.from(base64.slice(0, take), 'base64');
}

/** Reads width and height from a PNG, GIF, JPEG or WebP header; undefined when it cannot. */
export function readImageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const b = bytes;
  const at = (i: number) => b[i] ?? 0;
  const be16 = (i: number) => (at(i) << 8) | at(i + 1);
  const le16 = (i: number) => at(i) | (at(i + 1) << 8);
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47 && b.length >= 24) {
    return { width: be16(16) * 65536 + be16(18), height: be16(20) * 65536 + be16(22) };
  }
  if (at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46 && b.length >= 10) return { width: le16(6), height: le16(8) };
  if (at(0) === 0xff && at(1) === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (at(i) !== 0xff) return undefined;
      const marker = at(i + 1);
      const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isFrame) return { width: be16(i + 7), height: be16(i + 5) };
      i += 2 + be16(i + 2);
    }
    return undefined;
  }
  const riff = at(0) === 0x52 && at(1) === 0x49 && at(8) === 0x57 && at(9) === 0x45;
  if (riff && b.length >= 30) {
    const chunk = String.fromCharCode(at(12), at(13), at(14), at(15));
    if (chunk === 'VP8X')
      return {
        width: 1 + (at(24) | (at(25) << 8) | (at(26) << 16)),
        height: 1 + (at(27) | (at(28) << 8) | (at(29) << 16)),
      };
    if (chunk === 'VP8 ') return { width: le16(26) & 0x3fff, height: le16(28) & 0x3fff };
    if (chunk === 'VP8L') {
      const v = at(21) | (at(22) << 8) | (at(23) << 16) | (at(24) << 24);
      return { width: (v & 0x3fff) + 1, height: ((v >> 14) & 0x3fff) + 1 };
    }
  }
  return undefined;
}

/** Tokens of one image part under the vendor's formula; dimensions from the part, its header, or 1024 x 1024. */
export function imageTokens(part: ImagePart, formula: ImageFormula): number {
  let size: { width: number; height: number } | undefined;
  if (part.width !== undefined && part.height !== undefined) size = { width: part.width, height: part.height };
  else {
    const bytes = bytesOf(part.image, 65_536);
    size = bytes === undefined ? undefined : readImageSize(bytes);
  }
  const { width, height } = size !== undefined && size.width > 0 && size.height > 0 ? size : UNKNOWN_IMAGE_SIZE;
  return formula === 'anthropic' ? anthropicImageTokens(width, height) : openAIImageTokens(width, height, part.detail);
}
