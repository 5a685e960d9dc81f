import { modelMessagesToMessages } from '../converters/from-model-messages.js';
import type { ModelImagePart, ModelMessageShape } from '../converters/model-message-types.js';
import { toModelMessages } from '../converters/to-model-messages.js';
import type { Message } from '../messages/types.js';
import type { AISDKPromptMessageShape } from '../providers/ai-sdk-spec.js';

/** A message of an AI SDK prompt: a ModelMessage, or a language-model prompt message (the adapter's shape). */
export type PromptMessage = AISDKPromptMessageShape;

function isImage(part: { type: string }): part is ModelImagePart {
  return part.type === 'image';
}

/** Where one of our messages came from: a prompt message, and for a tool result its part (a converted one has no message). */
interface Origin {
  message?: PromptMessage;
  part?: unknown;
  /** The content of a tool message as it was read, to tell whether all its results are written back unchanged. */
  content?: readonly unknown[];
  /** The providerOptions of that tool message, kept for a tool message written from some of its results. */
  providerOptions?: unknown;
}

/**
 * Converts AI SDK prompt messages to ours and back, giving back each message that compaction
 * left alone exactly as it came (so providerOptions on its parts, approval parts and the
 * prompt cache are untouched) and converting only what compaction wrote, once. It keeps what
 * it wrote last, so writing again costs the messages that changed since, not the prompt.
 */
export class PromptMessages {
  readonly #origins = new WeakMap<Message, Origin>();
  /** 'prompt': a language-model prompt (content always parts, images as file parts); 'model-messages': ModelMessages. */
  readonly #form: 'prompt' | 'model-messages';
  /** The prompt written last. */
  readonly #out: PromptMessage[] = [];
  /** For each message written last, where the prompt message holding it starts: its index, and its index in #out. */
  readonly #unitMessage: number[] = [];
  readonly #unitOut: number[] = [];
  /** The first message that changed since the last write. */
  #dirty = 0;
  /** Our messages converted so far (compaction wrote them). */
  converted = 0;

  constructor(form: 'prompt' | 'model-messages') {
    this.#form = form;
  }

  /** Prompt messages as ours, one by one, remembering where each came from. */
  read(prompt: readonly PromptMessage[]): Message[] {
    const out: Message[] = [];
    for (const message of prompt) {
      const ours = modelMessagesToMessages([message]);
      const results = Array.isArray(message.content)
        ? (message.content as { type?: unknown }[]).filter((p) => p?.type === 'tool-result')
        : [];
      const content = message.content as readonly unknown[];
      ours.forEach((m, i) => {
        this.#origins.set(
          m,
          message.role === 'tool'
            ? { message, part: results[i], content, providerOptions: message.providerOptions }
            : { message },
        );
      });
      out.push(...ours);
    }
    return out;
  }

  /** Notes that the messages from `from` on differ from the ones the last write saw (the ones before are the same). */
  changedFrom(from: number): void {
    this.#dirty = Math.min(this.#dirty, from);
  }

  /**
   * Our messages as prompt messages: the ones compaction left alone as they came, the others
   * converted. The messages before the first one noted as changed are taken from the last write.
   */
  write(messages: readonly Message[]): PromptMessage[] {
    const written = this.#unitMessage.length;
    let start = Math.min(this.#dirty, written);
    this.#dirty = Number.POSITIVE_INFINITY;
    // A prompt message of tool results may go on with the next ones: start it again.
    if (start === written && start > 0 && messages[start - 1]?.role === 'tool') start--;
    const first = start < written ? (this.#unitMessage[start] as number) : written;
    const out = this.#out;
    out.length = first < written ? (this.#unitOut[first] as number) : out.length;
    this.#unitMessage.length = first;
    this.#unitOut.length = first;
    let parts: unknown[] = [];
    let origins: Origin[] = [];
    const flush = () => {
      if (parts.length === 0) return;
      const source = origins[0]?.message;
      const content = origins[0]?.content;
      // Compared with the content as read, so that writing reads none of the prompt's messages.
      const whole =
        source !== undefined &&
        origins.every((o) => o.message === source) &&
        content !== undefined &&
        content.length === parts.length &&
        content.every((p, i) => p === parts[i]);
      if (whole) out.push(source);
      else
        out.push({
          role: 'tool',
          content: parts,
          ...(origins[0]?.providerOptions === undefined ? {} : { providerOptions: origins[0].providerOptions }),
        });
      parts = [];
      origins = [];
    };
    for (let i = first; i < messages.length; i++) {
      const m = messages[i] as Message;
      const origin = this.#origins.get(m) ?? this.#convert(m);
      if (m.role !== 'tool') {
        flush();
        this.#unitMessage.push(i);
        this.#unitOut.push(out.length);
        out.push(origin.message as PromptMessage);
        continue;
      }
      if (parts.length === 0) {
        this.#unitMessage.push(i);
        this.#unitOut.push(out.length);
      } else {
        this.#unitMessage.push(this.#unitMessage[i - 1] as number);
        this.#unitOut.push(this.#unitOut[i - 1] as number);
      }
      parts.push(origin.part);
      origins.push(origin);
    }
    flush();
    return out.slice();
  }

  /** Converts one of our messages (compaction wrote it), once: the conversion is kept as its origin. */
  #convert(m: Message): Origin {
    this.converted++;
    const message = this.#prompt(m);
    const origin = m.role === 'tool' ? { part: (message.content as unknown[])[0] } : { message };
    this.#origins.set(m, origin);
    return origin;
  }

  #prompt(m: Message): PromptMessage {
    const [message] = toModelMessages([m]) as [ModelMessageShape];
    if (this.#form === 'model-messages') return message;
    if (message.role === 'system' || message.role === 'tool') return message;
    const text = (t: string): { type: string } => ({ type: 'text', text: t }) as { type: string };
    const content: { type: string }[] = typeof message.content === 'string' ? [text(message.content)] : message.content;
    return {
      ...message,
      content: content.map((part) => {
        if (!isImage(part)) return part;
        const { image, mediaType, ...rest } = part;
        const data = image instanceof ArrayBuffer ? new Uint8Array(image) : image;
        return { ...rest, type: 'file', data, mediaType: mediaType ?? 'image/*' };
      }),
    };
  }
}
