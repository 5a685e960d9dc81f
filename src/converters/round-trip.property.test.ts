import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoushoError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import { type Carries, transcript } from '../test-support/message-arbitraries.js';
import {
  AGENTS_CARRIES,
  agentsItems,
  anthropicTranscripts,
  modelMessages,
} from '../test-support/native-arbitraries.js';
import { openAIChatMessages, openAIResponsesItems } from '../test-support/openai-arbitraries.js';
import { fromAgentsItems } from './from-agents-items.js';
import { fromAnthropic } from './from-anthropic.js';
import { fromModelMessages } from './from-model-messages.js';
import { fromOpenAIChat } from './from-openai-chat.js';
import { fromOpenAIResponses } from './from-openai-responses.js';
import { toAgentsItems } from './to-agents-items.js';
import { toAnthropic } from './to-anthropic.js';
import { toModelMessages } from './to-model-messages.js';
import { toOpenAIChat } from './to-openai-chat.js';
import { toOpenAIResponses } from './to-openai-responses.js';

const RUNS = 300;

interface Format {
  name: string;
  to: (messages: Message[]) => unknown;
  from: (native: never) => Message[];
  carries: Carries;
  native: fc.Arbitrary<unknown>;
}

const FORMATS: Format[] = [
  {
    name: 'OpenAI Agents SDK items',
    to: toAgentsItems,
    from: fromAgentsItems,
    carries: AGENTS_CARRIES,
    native: agentsItems(transcript(AGENTS_CARRIES).map((m) => toAgentsItems(m))),
  },
  {
    name: 'OpenAI chat',
    to: toOpenAIChat,
    from: fromOpenAIChat,
    carries: {
      images: 'url-strings',
      details: ['low', 'high', 'auto'],
      toolImages: false,
      toolErrors: false,
      assistantParts: true,
      laterSystem: true,
      pinned: false,
    },
    native: openAIChatMessages,
  },
  {
    name: 'OpenAI Responses',
    to: toOpenAIResponses,
    from: fromOpenAIResponses,
    carries: {
      images: 'url-strings',
      details: ['low', 'high'],
      toolImages: 'same',
      toolErrors: false,
      assistantParts: false,
      laterSystem: true,
      pinned: false,
    },
    native: openAIResponsesItems,
  },
  {
    name: 'Anthropic',
    to: toAnthropic,
    from: fromAnthropic,
    carries: {
      images: 'url-or-typed-base64',
      details: [],
      toolImages: 'same',
      toolErrors: true,
      assistantParts: true,
      laterSystem: false,
      pinned: false,
    },
    native: anthropicTranscripts,
  },
  {
    name: 'AI SDK 6 ModelMessage',
    to: (m) => toModelMessages(m),
    from: fromModelMessages,
    carries: {
      images: 'any',
      details: ['low', 'high', 'auto'],
      toolImages: 'plain',
      toolErrors: true,
      assistantParts: true,
      laterSystem: true,
      pinned: true,
    },
    native: modelMessages(5),
  },
  {
    name: 'AI SDK 5 ModelMessage',
    to: (m) => toModelMessages(m, { version: 5 }),
    from: fromModelMessages,
    carries: {
      images: 'any',
      details: ['low', 'high', 'auto'],
      toolImages: false,
      toolErrors: true,
      assistantParts: true,
      laterSystem: true,
      pinned: true,
    },
    native: modelMessages(5),
  },
];

/** Reads a native transcript: valid messages, or LOUSHO_MESSAGE_INVALID (undefined); anything else fails the test. */
function read(format: Format, native: unknown): Message[] | undefined {
  try {
    return format.from(native as never);
  } catch (error) {
    if (LoushoError.isInstance(error) && error.code === 'LOUSHO_MESSAGE_INVALID') return undefined;
    throw error;
  }
}

describe.each(FORMATS)('$name converters', (format) => {
  it('give back the same transcript after a round trip, for what the format can say', () => {
    fc.assert(
      fc.property(transcript(format.carries), (messages) => {
        expect(format.from(format.to(messages) as never)).toEqual(messages);
      }),
      { numRuns: RUNS },
    );
  });

  it('turn every transcript of the format into valid messages, or refuse it with LOUSHO_MESSAGE_INVALID', () => {
    let read_ = 0;
    fc.assert(
      fc.property(format.native, (native) => {
        const messages = read(format, native);
        if (messages === undefined) return;
        read_++;
        // A foreign transcript may end with the calls of a step still waiting for their results.
        validateMessages(messages, { pendingCalls: true });
      }),
      { numRuns: RUNS },
    );
    expect(read_).toBeGreaterThan(RUNS / 10);
  });

  it('reach a fixed point: what was read, written and read again is what was read', () => {
    fc.assert(
      fc.property(format.native, (native) => {
        const messages = read(format, native);
        if (messages === undefined) return;
        const written = format.to(messages);
        expect(format.from(written as never)).toEqual(messages);
        expect(format.to(format.from(written as never))).toEqual(written);
      }),
      { numRuns: RUNS },
    );
  });
});
