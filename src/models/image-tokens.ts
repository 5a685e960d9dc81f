import { readImageHeader } from '../messages/image-header.js';
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

/** Tokens of one image part under the vendor's formula; dimensions from the part, its header, or 1024 x 1024. */
export function imageTokens(part: ImagePart, formula: ImageFormula): number {
  let size: { width: number; height: number } | undefined;
  if (part.width !== undefined && part.height !== undefined) size = { width: part.width, height: part.height };
  else {
    const bytes = bytesOf(part.image, 65_536);
    size = bytes === undefined ? undefined : readImageHeader(bytes)?.size;
  }
  const { width, height } = size !== undefined && size.width > 0 && size.height > 0 ? size : UNKNOWN_IMAGE_SIZE;
  return formula === 'anthropic' ? anthropicImageTokens(width, height) : openAIImageTokens(width, height, part.detail);
}
