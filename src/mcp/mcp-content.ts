import { redactText } from '../errors/redact.js';
import { checkJsonSchema } from '../executor/json-schema-check.js';
import type { ContentPart } from '../messages/types.js';

/** The image types every provider that carries images takes (Anthropic takes no other). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

type Block = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The size of base64 data in bytes, for the notes that name what was not shown. */
function base64Bytes(data: string): string {
  return `${Math.floor((data.length * 3) / 4).toLocaleString('en-US')} bytes`;
}

/** An image the model is shown, or the note that names it where its type is not one every provider takes. */
function image(data: unknown, mimeType: unknown, what: string): ContentPart {
  const type =
    str(mimeType)
      ?.toLowerCase()
      .replace(/^image\/jpg$/, 'image/jpeg') ?? '';
  if (typeof data === 'string' && IMAGE_TYPES.has(type)) return { type: 'image', image: data, mediaType: type };
  const size = typeof data === 'string' ? `, ${base64Bytes(data)}` : '';
  return {
    type: 'text',
    text: `[${what}: ${type || 'of no stated type'}${size}; not shown, as its type is not PNG, JPEG, GIF or WebP]`,
  };
}

/** Types whose data is text. */
const TEXT_TYPE = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|x-sh)\b|[^;]*\+(json|xml)\b)/i;

/** base64 data as UTF-8 text, or undefined when it is not valid UTF-8. */
function utf8Text(base64: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(base64, 'base64'));
  } catch {
    return undefined;
  }
}

/** An embedded resource: its text as text (a text type's blob too), an image as an image, other data named. */
function resource(block: Block): ContentPart {
  const res = (typeof block.resource === 'object' && block.resource !== null ? block.resource : {}) as Block;
  const uri = str(res.uri) ?? 'an unnamed resource';
  const mime = str(res.mimeType);
  const text = str(res.text);
  if (text !== undefined) return { type: 'text', text: `[resource ${uri}${mime ? ` (${mime})` : ''}]\n${text}` };
  const blob = str(res.blob) ?? '';
  if (mime !== undefined && IMAGE_TYPES.has(mime)) return image(blob, mime, `resource ${uri}`);
  // A text resource sent as a blob (server-everything's text/plain blobs) is read as its text.
  const decoded = mime !== undefined && TEXT_TYPE.test(mime) ? utf8Text(blob) : undefined;
  if (decoded !== undefined) return { type: 'text', text: `[resource ${uri} (${mime})]\n${decoded}` };
  return { type: 'text', text: `[resource ${uri}: ${mime ?? 'binary'}, ${base64Bytes(blob)}; not shown]` };
}

/** A resource link, named with its URI, type and description. */
function link(block: Block): string {
  const mime = str(block.mimeType);
  const description = str(block.description);
  const name = str(block.title) ?? str(block.name) ?? '';
  return `[resource link: ${name}${name ? ' ' : ''}<${str(block.uri) ?? ''}>${mime ? ` (${mime})` : ''}${description ? `: ${description}` : ''}]`;
}

/**
 * One content block of an MCP result, prompt or sampling message as parts the model reads:
 * text as text; PNG, JPEG, GIF and WebP images as images; an embedded resource's text as text;
 * links, audio, other data and unknown blocks named in a short note. Every text redacted.
 */
export function blockParts(value: unknown): ContentPart {
  const block = (typeof value === 'object' && value !== null ? value : {}) as Block;
  const part = ((): ContentPart => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: str(block.text) ?? '' };
      case 'image':
        return image(block.data, block.mimeType, 'image');
      case 'audio':
        return {
          type: 'text',
          text: `[audio: ${str(block.mimeType) ?? 'of no stated type'}, ${base64Bytes(str(block.data) ?? '')}; not shown]`,
        };
      case 'resource':
        return resource(block);
      case 'resource_link':
        return { type: 'text', text: link(block) };
      default:
        return {
          type: 'text',
          text: `[${JSON.stringify(String(block.type ?? 'untyped')).slice(1, -1)} content; not shown]`,
        };
    }
  })();
  return part.type === 'text' ? { type: 'text', text: redactText(part.text) } : part;
}

/** A tool call's result as the model reads it: its parts, or the error it is. */
export type McpCallOutcome = { parts: ContentPart[]; error?: undefined } | { error: string };

/** The strings and numbers of a JSON value, at any depth. */
function leaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' || typeof value === 'number') out.push(String(value));
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) leaves(item, out);
  return out;
}

/**
 * Whether the text parts already say what the structured content holds: one of them is its
 * JSON (servers are asked to send it so), or every string and number in it is in their text.
 */
function holds(parts: readonly ContentPart[], structured: unknown): boolean {
  const text = parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
  const json = JSON.stringify(structured);
  const asJson = parts.some((p) => {
    if (p.type !== 'text') return false;
    try {
      return JSON.stringify(JSON.parse(p.text)) === json;
    } catch {
      return false;
    }
  });
  const values = leaves(structured);
  return asJson || (values.length > 0 && values.every((v) => text.includes(v)));
}

/**
 * A tools/call result as the model reads it. `structuredContent` is checked against the
 * tool's outputSchema (a result that breaks it, or lacks it, is an error the model reads) and
 * given to the model as JSON unless the text parts already say it (see holds()). An isError
 * result is an error.
 */
export function callOutcome(result: Record<string, unknown>, outputSchema: unknown): McpCallOutcome {
  const parts = (Array.isArray(result.content) ? result.content : []).map(blockParts);
  const structured = result.structuredContent;
  if (result.isError === true) {
    const text = parts.map((p) => (p.type === 'text' ? p.text : '[image]')).join('\n');
    return { error: text || redactText(JSON.stringify(structured ?? 'the tool failed')) };
  }
  if (typeof outputSchema === 'object' && outputSchema !== null) {
    if (structured === undefined)
      return { error: 'the tool has an outputSchema but its result has no structuredContent' };
    const problems = checkJsonSchema(structured, outputSchema as Record<string, unknown>);
    if (problems.length > 0)
      return {
        error: redactText(`the tool's structuredContent does not match its outputSchema: ${problems.join('; ')}`),
      };
  }
  if (structured !== undefined && !holds(parts, structured))
    parts.push({ type: 'text', text: redactText(JSON.stringify(structured)) });
  return { parts };
}
