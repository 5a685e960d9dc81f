import { LoushoError } from '../errors/lousho-error.js';
import { readImageHeader } from '../messages/image-header.js';
import type { ImagePart } from '../messages/types.js';
import type { AnthropicImageBlock, AnthropicImageMediaType } from './anthropic-api-types.js';

const MEDIA_TYPES: readonly AnthropicImageMediaType[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

function mediaType(declared: string | undefined, head: () => Uint8Array, index: number): AnthropicImageMediaType {
  if (declared !== undefined && declared !== '') {
    const normal = declared
      .trim()
      .toLowerCase()
      .replace(/^image\/jpg$/, 'image/jpeg');
    const known = MEDIA_TYPES.find((t) => t === normal);
    if (known !== undefined) return known;
    throw new LoushoError(
      'LOUSHO_MESSAGE_INVALID',
      `messages[${index}] has an image of type ${declared}; Anthropic accepts ${MEDIA_TYPES.join(', ')}. Convert the image first.`,
      { details: { index, mediaType: declared } },
    );
  }
  const sniffed = readImageHeader(head())?.mediaType;
  if (sniffed !== undefined) return sniffed;
  throw new LoushoError(
    'LOUSHO_MESSAGE_INVALID',
    `messages[${index}] has an image whose type is not given and is not PNG, JPEG, GIF or WebP. ` +
      `Set mediaType on the image part (Anthropic accepts ${MEDIA_TYPES.join(', ')}).`,
    { details: { index } },
  );
}

/**
 * An image part as a Messages API image block: http(s) URLs as a url source; data URLs,
 * base64 text and raw bytes as a base64 source with the media type given or read from the bytes.
 */
export function toAnthropicImageBlock(part: ImagePart, index: number): AnthropicImageBlock {
  const image = part.image instanceof URL ? part.image.href : part.image;
  if (image instanceof Uint8Array) {
    const data = Buffer.from(image.buffer, image.byteOffset, image.byteLength).toString('base64');
    return {
      type: 'image',
      source: { type: 'base64', media_type: mediaType(part.mediaType, () => image, index), data },
    };
  }
  if (/^https?:/i.test(image)) return { type: 'image', source: { type: 'url', url: image } };
  const dataUrl = /^data:([^;,]*)((?:;[^;,]*)*),/i.exec(image);
  if (dataUrl !== null) {
    const payload = image.slice(dataUrl[0].length);
    const isBase64 = /;base64/i.test(dataUrl[2] ?? '');
    const data = isBase64 ? payload : Buffer.from(decodeURIComponent(payload), 'utf8').toString('base64');
    const declared = dataUrl[1] === '' ? part.mediaType : dataUrl[1];
    const media = mediaType(declared, () => Buffer.from(data.slice(0, 32), 'base64'), index);
    return { type: 'image', source: { type: 'base64', media_type: media, data } };
  }
  const media = mediaType(part.mediaType, () => Buffer.from(image.slice(0, 32), 'base64'), index);
  return { type: 'image', source: { type: 'base64', media_type: media, data: image } };
}
