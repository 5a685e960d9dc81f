/** The image formats whose header {@link readImageHeader} reads (the ones every vision API accepts). */
export type ImageMediaType = 'image/png' | 'image/gif' | 'image/jpeg' | 'image/webp';

/** What an image's first bytes tell. */
export interface ImageHeader {
  /** The format, from its signature (magic number). */
  mediaType: ImageMediaType;
  /** Width and height in pixels; undefined when the bytes given end before the header states them. */
  size: { width: number; height: number } | undefined;
}

/**
 * Reads the media type and size of a PNG, GIF, JPEG or WebP image from its first bytes;
 * undefined for any other format. The type needs the signature only (at most 12 bytes);
 * the size needs the header (24 bytes for PNG, 10 for GIF, 30 for WebP, up to the first
 * frame marker for JPEG).
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader | undefined {
  const at = (i: number) => bytes[i] ?? 0;
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  const be16 = (i: number) => (at(i) << 8) | at(i + 1);
  const le16 = (i: number) => at(i) | (at(i + 1) << 8);
  const length = bytes.length;
  if (at(0) === 0x89 && ascii(1, 4) === 'PNG') {
    const size = length >= 24 ? { width: be16(16) * 65536 + be16(18), height: be16(20) * 65536 + be16(22) } : undefined;
    return { mediaType: 'image/png', size };
  }
  if (ascii(0, 4) === 'GIF8') {
    return { mediaType: 'image/gif', size: length >= 10 ? { width: le16(6), height: le16(8) } : undefined };
  }
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return { mediaType: 'image/jpeg', size: jpegSize(bytes) };
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') {
    return { mediaType: 'image/webp', size: length >= 30 ? webpSize(bytes) : undefined };
  }
  return undefined;
}

/** The size in the first start-of-frame segment, walking the segments from byte 2. */
function jpegSize(b: Uint8Array): { width: number; height: number } | undefined {
  const at = (i: number) => b[i] ?? 0;
  const be16 = (i: number) => (at(i) << 8) | at(i + 1);
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

/** The canvas size of an extended (VP8X), lossy (VP8) or lossless (VP8L) WebP. */
function webpSize(b: Uint8Array): { width: number; height: number } | undefined {
  const at = (i: number) => b[i] ?? 0;
  const le16 = (i: number) => at(i) | (at(i + 1) << 8);
  const chunk = String.fromCharCode(at(12), at(13), at(14), at(15));
  if (chunk === 'VP8X') {
    return {
      width: 1 + (at(24) | (at(25) << 8) | (at(26) << 16)),
      height: 1 + (at(27) | (at(28) << 8) | (at(29) << 16)),
    };
  }
  if (chunk === 'VP8 ') return { width: le16(26) & 0x3fff, height: le16(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const v = at(21) | (at(22) << 8) | (at(23) << 16) | (at(24) << 24);
    return { width: (v & 0x3fff) + 1, height: ((v >> 14) & 0x3fff) + 1 };
  }
  return undefined;
}
