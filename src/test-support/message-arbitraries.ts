import fc from 'fast-check';
import type { ContentPart, ImagePart, Message, TextPart, ToolCall } from '../messages/types.js';

/** What a format can say the same way as our Message: random transcripts keep to it. */
export interface Carries {
  /** How images may be given: URL or data-URL strings; https strings or typed base64; or anything. */
  images: 'url-strings' | 'url-or-typed-base64' | 'any';
  /** Image `detail` values the format keeps. */
  details: readonly ('low' | 'high' | 'auto')[];
  /** Images inside tool results: none, given as for user messages, or https strings and typed base64 without detail. */
  toolImages: false | 'same' | 'plain';
  /** `isError` on tool results (with string content). */
  toolErrors: boolean;
  /** Assistant text given as parts (when the message calls no tool). */
  assistantParts: boolean;
  /** System messages after the first non-system message. */
  laterSystem: boolean;
  /** `metadata.pinned`. */
  pinned: boolean;
}

const WORDS = ['deploy', 'error', 'the', 'config', 'src/index.ts', '42', 'null', '{"a":1}', 'émoji 🚀', '', ' '];
const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((w) => w.join(' ')),
);
const nonEmptyText = text.filter((t) => t !== '');
const PNG_BASE64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');
const TYPED = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Tool-call arguments: JSON objects of strings, integers, booleans, null and string arrays. */
export const toolArguments = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 8 }),
  fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  ),
  { maxKeys: 4 },
);

function imagePart(carries: Carries): fc.Arbitrary<ImagePart> {
  const url = fc.constantFrom('https://example.com/a.png', 'http://example.org/p?q=1');
  const detail = fc.option(fc.constantFrom(...(carries.details.length > 0 ? carries.details : ['low' as const])), {
    nil: undefined,
  });
  const withDetail = (image: Omit<ImagePart, 'detail'>) =>
    detail.map((d): ImagePart => (d === undefined || carries.details.length === 0 ? image : { ...image, detail: d }));
  if (carries.images === 'url-strings') {
    return fc
      .oneof(url, fc.constant(`data:image/png;base64,${PNG_BASE64}`))
      .chain((image) => withDetail({ type: 'image', image }));
  }
  const typed = fc
    .constantFrom(...TYPED)
    .map((mediaType) => ({ type: 'image' as const, image: PNG_BASE64, mediaType }));
  if (carries.images === 'url-or-typed-base64')
    return fc.oneof(
      url.map((image) => ({ type: 'image' as const, image })),
      typed,
    );
  const any = fc.oneof(
    url.map((image) => ({ type: 'image' as const, image })),
    typed,
    fc.constant({ type: 'image' as const, image: new Uint8Array(Buffer.from(PNG_BASE64, 'base64')) }),
    fc.constant({ type: 'image' as const, image: new URL('https://example.com/u.jpg') }),
  );
  return any.chain(withDetail);
}

const textPart = text.map((t): TextPart => ({ type: 'text', text: t }));

function parts(carries: Carries, images: boolean | 'same' | 'plain'): fc.Arbitrary<ContentPart[]> {
  if (images === false) return fc.array(textPart, { minLength: 1, maxLength: 3 });
  const image =
    images === 'plain' ? imagePart({ ...carries, images: 'url-or-typed-base64', details: [] }) : imagePart(carries);
  return fc.array(fc.oneof(textPart, image), { minLength: 1, maxLength: 3 });
}

function pin<M extends Message>(carries: Carries, message: fc.Arbitrary<M>): fc.Arbitrary<M> {
  if (!carries.pinned) return message;
  return fc.tuple(message, fc.nat(3)).map(([m, n]) => (n === 0 ? { ...m, metadata: { pinned: true } } : m));
}

/** A random transcript: system messages, then turns of a user message, tool steps with their results, and an answer. */
export function transcript(carries: Carries): fc.Arbitrary<Message[]> {
  const system = pin(
    carries,
    text.map((content): Message => ({ role: 'system', content })),
  );
  const user = pin(
    carries,
    fc.oneof(text, parts(carries, true)).map((content): Message => ({ role: 'user', content })),
  );
  const result = fc.record({
    content: fc.oneof(text, parts(carries, carries.toolImages)),
    isError: carries.toolErrors ? fc.boolean() : fc.constant(false),
    pinned: carries.pinned ? fc.nat(3).map((n) => n === 0) : fc.constant(false),
  });
  const step = fc.record({
    text,
    calls: fc.array(fc.record({ name: nonEmptyText, arguments: toolArguments, result }), {
      minLength: 1,
      maxLength: 3,
    }),
  });
  const answer = carries.assistantParts ? fc.oneof(text, fc.array(textPart, { maxLength: 3 })) : text;
  const turn = fc.record({
    user,
    laterSystem: carries.laterSystem ? fc.option(system, { nil: undefined }) : fc.constant(undefined),
    steps: fc.array(step, { maxLength: 3 }),
    answer: fc.option(answer, { nil: undefined }),
  });
  return fc
    .record({ systems: fc.array(system, { maxLength: 2 }), turns: fc.array(turn, { maxLength: 4 }) })
    .map(({ systems, turns }) => {
      const messages: Message[] = [...systems];
      let n = 0;
      for (const t of turns) {
        messages.push(t.user);
        if (t.laterSystem !== undefined) messages.push(t.laterSystem);
        for (const s of t.steps) {
          const calls: ToolCall[] = s.calls.map((c) => ({ id: `call_${n++}`, name: c.name, arguments: c.arguments }));
          messages.push({ role: 'assistant', content: s.text, toolCalls: calls });
          s.calls.forEach((c, k) => {
            const { content, isError, pinned } = c.result;
            const error = isError && typeof content === 'string';
            messages.push({
              role: 'tool',
              toolCallId: (calls[k] as ToolCall).id,
              content,
              ...(error ? { isError: true } : {}),
              ...(pinned ? { metadata: { pinned: true } } : {}),
            });
          });
        }
        if (t.answer !== undefined) messages.push({ role: 'assistant', content: t.answer });
      }
      return messages;
    });
}
