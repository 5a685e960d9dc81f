import { readImageHeader } from './image-header.js';
import type { ImagePart } from './types.js';

/** True for an http(s) URL string. */
export function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/** The media type of PNG, JPEG, GIF and WebP bytes, read from their first bytes (by the one header reader). */
function sniffImageType(bytes: Uint8Array): string | undefined {
  return readImageHeader(bytes)?.mediaType;
}

/** A data: URL's media type and payload as base64 (a URL-encoded payload is re-encoded); undefined for other strings. */
export function parseDataUrl(url: string): { mediaType: string | undefined; base64: string } | undefined {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),/i.exec(url);
  if (match === null) return undefined;
  const payload = url.slice(match[0].length);
  const base64 = /;base64/i.test(match[2] ?? '')
    ? payload
    : Buffer.from(decodeURIComponent(payload), 'utf8').toString('base64');
  return { mediaType: match[1] === '' ? undefined : match[1], base64 };
}

/** Where an image's data is: a URL, or base64 text with the media type when it is known. */
export type ImageData = { kind: 'url'; url: string } | { kind: 'base64'; data: string; mediaType: string | undefined };

/** An image part's data as a URL or as base64 (the media type: the part's, the data URL's, else read from the bytes). */
export function imageData(part: ImagePart): ImageData {
  const { image } = part;
  if (image instanceof URL) return { kind: 'url', url: image.href };
  if (image instanceof Uint8Array) {
    const data = Buffer.from(image.buffer, image.byteOffset, image.byteLength).toString('base64');
    return { kind: 'base64', data, mediaType: part.mediaType ?? sniffImageType(image) };
  }
  if (isHttpUrl(image)) return { kind: 'url', url: image };
  const dataUrl = parseDataUrl(image);
  if (dataUrl !== undefined) {
    const mediaType =
      dataUrl.mediaType ?? part.mediaType ?? sniffImageType(Buffer.from(dataUrl.base64.slice(0, 24), 'base64'));
    return { kind: 'base64', data: dataUrl.base64, mediaType };
  }
  const head = Buffer.from(image.slice(0, 24), 'base64');
  return { kind: 'base64', data: image, mediaType: part.mediaType ?? sniffImageType(head) };
}

/** An image part as one URL: http(s) and data: URLs as they are, other data as a data: URL (PNG when the type is unknown). */
export function imageUrl(part: ImagePart): string {
  if (typeof part.image === 'string' && (isHttpUrl(part.image) || part.image.startsWith('data:'))) return part.image;
  const data = imageData(part);
  return data.kind === 'url' ? data.url : `data:${data.mediaType ?? 'image/png'};base64,${data.data}`;
}
