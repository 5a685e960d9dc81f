import { modelMessagesToMessages } from '../converters/from-model-messages.js';
import type { ModelImagePart, ModelMessageShape } from '../converters/model-message-types.js';
import { toModelMessages } from '../converters/to-model-messages.js';
import type { Message } from '../messages/types.js';

/** A message of an AI SDK prompt: a ModelMessage, or a language-model (v2/v3) prompt message. */
export interface PromptMessage {
  role: string;
  content: unknown;
  providerOptions?: unknown;
}

function isImage(part: { type: string }): part is ModelImagePart {
  return part.type === 'image';
}

/** Where one of our messages came from: a prompt message, and for a tool result its part. */
interface Origin {
  message: PromptMessage;
  part?: unknown;
}

/**
 * Converts AI SDK prompt messages to ours and back, giving back each message that compaction
 * left alone exactly as it came (so providerOptions on its parts, approval parts and the
 * prompt cache are untouched) and converting only what compaction wrote.
 */
export class PromptMessages {
  readonly #origins = new WeakMap<Message, Origin>();
  /** 'prompt': a language-model prompt (content always parts, images as file parts); 'model-messages': ModelMessages. */
  readonly #form: 'prompt' | 'model-messages';

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
      ours.forEach((m, i) => {
        this.#origins.set(m, message.role === 'tool' ? { message, part: results[i] } : { message });
      });
      out.push(...ours);
    }
    return out;
  }

  /** Our messages as prompt messages: the ones compaction left alone as they came, the others converted. */
  write(messages: readonly Message[]): PromptMessage[] {
    const out: PromptMessage[] = [];
    let parts: unknown[] = [];
    let origins: (PromptMessage | undefined)[] = [];
    const flush = () => {
      if (parts.length === 0) return;
      const source = origins[0];
      const whole =
        source !== undefined &&
        origins.every((o) => o === source) &&
        Array.isArray(source.content) &&
        source.content.length === parts.length &&
        source.content.every((p, i) => p === parts[i]);
      if (whole) out.push(source);
      else
        out.push({
          role: 'tool',
          content: parts,
          ...(source?.providerOptions === undefined ? {} : { providerOptions: source.providerOptions }),
        });
      parts = [];
      origins = [];
    };
    for (const m of messages) {
      const origin = this.#origins.get(m);
      if (m.role !== 'tool') {
        flush();
        out.push(origin?.message ?? this.#convert(m));
        continue;
      }
      parts.push(origin?.part ?? (this.#convert(m).content as unknown[])[0]);
      origins.push(origin?.message);
    }
    flush();
    return out;
  }

  #convert(m: Message): PromptMessage {
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
