import { imageData } from '../messages/image-source.js';
import type { ImagePart } from '../messages/types.js';
import { ANTHROPIC_IMAGE_TYPES, type AnthropicImageBlockParam } from './anthropic-types.js';
import { invalidInput } from './invalid-input.js';

/**
 * An image part as a Messages API image block, for the converters and the Anthropic
 * provider alike: http(s) URLs as a url source; data URLs, base64 text and raw bytes as a
 * base64 source with the media type given (`image/jpg` read as `image/jpeg`) or read from
 * the bytes. Throws LOUSHO_MESSAGE_INVALID, naming `where` and the message, for a type the
 * API does not take.
 */
export function anthropicImageBlock(part: ImagePart, index: number, where: string): AnthropicImageBlockParam {
  const data = imageData(part);
  if (data.kind === 'url') return { type: 'image', source: { type: 'url', url: data.url } };
  const type = data.mediaType
    ?.trim()
    .toLowerCase()
    .replace(/^image\/jpg$/, 'image/jpeg');
  const mediaType = ANTHROPIC_IMAGE_TYPES.find((t) => t === type);
  if (mediaType === undefined) {
    throw invalidInput(
      where,
      `messages[${index}]`,
      index,
      data.mediaType === undefined
        ? 'has an image whose type is not given and is not PNG, JPEG, GIF or WebP'
        : `has an image of type ${data.mediaType}`,
      `Anthropic accepts ${ANTHROPIC_IMAGE_TYPES.join(', ')}: set mediaType on the image part, or convert the image.`,
    );
  }
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data: data.data } };
}
