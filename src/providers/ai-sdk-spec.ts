/*
 * The parts of the AI SDK's LanguageModel specification (@ai-sdk/provider) the adapter
 * uses, declared structurally so the library needs no AI SDK package. Each type is a
 * supertype of the v2 (AI SDK 5), v3 (AI SDK 6) and v4 (AI SDK 7) shapes, so a model
 * of any of those versions is an AISDKLanguageModel as it is.
 */

/**
 * One message of an AI SDK prompt, of any version: a ModelMessage, or a language-model
 * (v2, v3, v4) prompt message. The adapter and the integrations (middleware, prepareStep)
 * read prompts as this.
 */
export interface AISDKPromptMessageShape {
  /** 'system', 'user', 'assistant' or 'tool'. */
  role: string;
  /** The role's content: a string, or its parts. */
  content: unknown;
  /** Per-provider options of the message; absent when it has none. */
  providerOptions?: unknown;
}

/** What doGenerate and doStream receive. Loose on purpose: every version's call options fit it. */
export interface AISDKCallOptions {
  /** The messages (system, user, assistant, tool), each with its role's content. */
  prompt: ReadonlyArray<Readonly<AISDKPromptMessageShape>>;
  /** The tools the model may call; the adapter sends function tools only. */
  tools?: ReadonlyArray<{ readonly type: string; readonly name: string }>;
  /** Plain text, or JSON that matches `schema` (structured output). */
  responseFormat?:
    | { readonly type: 'text' }
    | { readonly type: 'json'; readonly schema?: object; readonly name?: string; readonly description?: string };
  /** The most tokens the reply may have. */
  maxOutputTokens?: number;
  /** Sampling temperature. */
  temperature?: number;
  /** Cancels the call; models that ignore it are stopped by the adapter. */
  abortSignal?: AbortSignal;
}

/** A finish reason: a string in v2, `{ unified, raw }` from v3 on. */
export type AISDKFinishReason =
  | string
  | {
      /** 'stop', 'length', 'content-filter', 'tool-calls', 'error', 'other' (v3 and later). */
      readonly unified: string;
      /** The vendor's own reason, e.g. 'end_turn'. */
      readonly raw?: string | undefined;
    };

/**
 * Token usage: numbers in v2 (`inputTokens`, `outputTokens`, `cachedInputTokens`, `reasoningTokens`);
 * objects from v3 on (`inputTokens: { total, noCache, cacheRead, cacheWrite }`,
 * `outputTokens: { total, text, reasoning }`).
 */
export interface AISDKUsage {
  /** Prompt tokens: a count (v2), or its parts (v3 and later). */
  readonly inputTokens?:
    | number
    | {
        /** All prompt tokens, cached or not. */
        readonly total?: number | undefined;
        /** Prompt tokens read from no cache. */
        readonly noCache?: number | undefined;
        /** Prompt tokens read from the vendor's prompt cache. */
        readonly cacheRead?: number | undefined;
        /** Prompt tokens written to the vendor's prompt cache. */
        readonly cacheWrite?: number | undefined;
      }
    | undefined;
  /** Reply tokens: a count (v2), or its parts (v3 and later). */
  readonly outputTokens?:
    | number
    | {
        /** All reply tokens, reasoning included. */
        readonly total?: number | undefined;
        /** Reply tokens of the text. */
        readonly text?: number | undefined;
        /** Reply tokens spent on reasoning. */
        readonly reasoning?: number | undefined;
      }
    | undefined;
  /** v2: prompt tokens read from the vendor's prompt cache. */
  readonly cachedInputTokens?: number | undefined;
  /** v2: reply tokens spent on reasoning (a part of outputTokens). */
  readonly reasoningTokens?: number | undefined;
}

/**
 * A content part of a reply, or a part of a stream. The adapter reads 'text' (`text`),
 * 'tool-call' (`toolCallId`, `toolName`, `input` as JSON text), and in streams
 * 'text-delta' (`delta`), 'response-metadata' (`modelId`), 'finish' and 'error'; it
 * skips the rest (reasoning, sources, files, tool-input deltas, ...).
 */
export interface AISDKPart {
  /** What the part is; its other fields depend on it. */
  readonly type: string;
}

/** What doGenerate resolves to. */
export interface AISDKGenerateResult {
  /** The reply's parts in order: text, tool calls, and kinds the adapter skips. */
  readonly content: ReadonlyArray<AISDKPart>;
  /** Why the model stopped. */
  readonly finishReason: AISDKFinishReason;
  /** The tokens of the call. */
  readonly usage: AISDKUsage;
  /** v4: the text to parse as structured output when it is not all the text parts together. */
  readonly structuredOutputText?: string | undefined;
  /** The model the vendor answered with (e.g. a dated snapshot). */
  readonly response?: { readonly modelId?: string | undefined } | undefined;
}

/** What doStream resolves to. */
export interface AISDKStreamResult {
  /** The parts of the reply as they arrive, ending with 'finish' (or carrying an 'error'). */
  readonly stream: ReadableStream<AISDKPart>;
}

/**
 * A Vercel AI SDK language model: what `openai('gpt-4o')`, `anthropic('claude-...')` or
 * `createOpenAICompatible(...).chatModel(id)` return (LanguageModelV2, V3 or V4).
 */
export interface AISDKLanguageModel {
  /** 'v2' (AI SDK 5), 'v3' (AI SDK 6), 'v4' (AI SDK 7). */
  readonly specificationVersion: string;
  /** e.g. 'openai.chat', 'anthropic.messages'. */
  readonly provider: string;
  /** The vendor's model id, e.g. 'gpt-4o-mini'. */
  readonly modelId: string;
  /** One whole reply. */
  doGenerate(options: AISDKCallOptions): PromiseLike<AISDKGenerateResult>;
  /** One streamed reply. */
  doStream(options: AISDKCallOptions): PromiseLike<AISDKStreamResult>;
}
