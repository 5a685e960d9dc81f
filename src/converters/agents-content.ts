import type { ContentPart, ImagePart } from '../messages/types.js';
import { type CarriedPart, mergeCarried, splitCarried } from './carried-parts.js';
import { isRecord } from './invalid-input.js';

/** An Agents SDK image (a URL or data: URL, { data, mediaType }, { url }) as our image part, or undefined (a file id). */
function toImage(part: Record<string, unknown>): ImagePart | undefined {
  const { image, detail } = part;
  const d: Pick<ImagePart, 'detail'> = detail === 'low' || detail === 'high' || detail === 'auto' ? { detail } : {};
  if (typeof image === 'string') return { type: 'image', image, ...d };
  if (!isRecord(image)) return undefined;
  if (typeof image.url === 'string') return { type: 'image', image: image.url, ...d };
  if (typeof image.data === 'string' || image.data instanceof Uint8Array) {
    return {
      type: 'image',
      image: image.data,
      ...(typeof image.mediaType === 'string' ? { mediaType: image.mediaType } : {}),
      ...d,
    };
  }
  return undefined;
}

function ourPart(part: unknown): ContentPart | undefined {
  if (!isRecord(part)) return undefined;
  if (['input_text', 'output_text', 'text'].includes(part.type as string) && typeof part.text === 'string') {
    return { type: 'text', text: part.text };
  }
  return part.type === 'input_image' || part.type === 'image' ? toImage(part) : undefined;
}

/** Agents SDK content parts (input_text, output_text, text, input_image, image) as ours; the others are carried. */
export function readAgentsParts(parts: readonly unknown[]): { content: ContentPart[]; carried: CarriedPart[] } {
  const { kept, carried } = splitCarried(parts, (part): part is unknown => ourPart(part) !== undefined);
  return { content: kept.map((part) => ourPart(part) as ContentPart), carried };
}

/** Our parts as Agents SDK parts of a kind: 'input' (input_text, input_image), 'output' (output_text) or 'tool' (text, image). */
export function writeAgentsParts(
  content: readonly ContentPart[],
  kind: 'input' | 'output' | 'tool',
  carried: readonly CarriedPart[] | undefined,
): unknown[] {
  const parts = content.map((part) => {
    if (part.type === 'text')
      return { type: kind === 'input' ? 'input_text' : kind === 'output' ? 'output_text' : 'text', text: part.text };
    const detail = part.detail === undefined ? {} : { detail: part.detail };
    const image =
      part.mediaType !== undefined && !(part.image instanceof URL)
        ? { data: part.image, mediaType: part.mediaType }
        : part.image instanceof URL
          ? part.image.href
          : part.image;
    return { type: kind === 'input' ? 'input_image' : 'image', image, ...detail };
  });
  return mergeCarried(parts, carried);
}
