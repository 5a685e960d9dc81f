/*
 * The Vercel AI SDK's ModelMessage (ai 5 and 6), as the converters write it. Our own types,
 * so the package needs no AI SDK package; they are assignable to the SDK's ModelMessage.
 */

export type JSONValue = null | string | number | boolean | JSONObject | JSONValue[];
export type JSONObject = { [key: string]: JSONValue | undefined };

/** Per-provider options of a message or part; `lousho` holds our message metadata (pinned, ...). */
export type ModelProviderOptions = Record<string, JSONObject>;

export interface ModelTextPart {
  type: 'text';
  text: string;
  providerOptions?: ModelProviderOptions;
}

export interface ModelImagePart {
  type: 'image';
  image: string | Uint8Array | ArrayBuffer | URL;
  mediaType?: string;
  providerOptions?: ModelProviderOptions;
}

export interface ModelFilePart {
  type: 'file';
  data: string | Uint8Array | ArrayBuffer | URL;
  mediaType: string;
  filename?: string;
  providerOptions?: ModelProviderOptions;
}

export interface ModelReasoningPart {
  type: 'reasoning';
  text: string;
  providerOptions?: ModelProviderOptions;
}

export interface ModelToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  /** The parsed arguments. */
  input: unknown;
  providerExecuted?: boolean;
  providerOptions?: ModelProviderOptions;
}

/** One piece of a tool result with images: 'media' is the ai 5 form, 'image-data' / 'image-url' the ai 6 ones. */
export type ModelToolResultContent =
  | { type: 'text'; text: string }
  | { type: 'media'; data: string; mediaType: string }
  | { type: 'image-data'; data: string; mediaType: string }
  | { type: 'image-url'; url: string }
  | { type: 'file-data'; data: string; mediaType: string; filename?: string }
  | { type: 'file-url'; url: string; mediaType?: string };

export type ModelToolResultOutput =
  | { type: 'text'; value: string }
  | { type: 'json'; value: JSONValue }
  | { type: 'error-text'; value: string }
  | { type: 'error-json'; value: JSONValue }
  | { type: 'execution-denied'; reason?: string }
  | { type: 'content'; value: ModelToolResultContent[] };

export interface ModelToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: ModelToolResultOutput;
  providerOptions?: ModelProviderOptions;
}

/** One AI SDK ModelMessage. */
export type ModelMessageShape =
  | {
      /** Marks a system message. */
      role: 'system';
      /** The instructions. */
      content: string;
      /** Per-provider options; `lousho` carries our message metadata. */
      providerOptions?: ModelProviderOptions;
    }
  | {
      /** Marks a user message. */
      role: 'user';
      /** The text, or text, image and file parts. */
      content: string | (ModelTextPart | ModelImagePart | ModelFilePart)[];
      /** Per-provider options; `lousho` carries our message metadata. */
      providerOptions?: ModelProviderOptions;
    }
  | {
      /** Marks an assistant message. */
      role: 'assistant';
      /** The text, or its parts: text, files, reasoning, tool calls (and results of provider-executed tools). */
      content:
        | string
        | (ModelTextPart | ModelFilePart | ModelReasoningPart | ModelToolCallPart | ModelToolResultPart)[];
      /** Per-provider options; `lousho` carries our message metadata. */
      providerOptions?: ModelProviderOptions;
    }
  | {
      /** Marks a tool message. */
      role: 'tool';
      /** The results of tool calls; each becomes one of our ToolMessages. */
      content: ModelToolResultPart[];
      /** Per-provider options; `lousho` carries our message metadata. */
      providerOptions?: ModelProviderOptions;
    };

/** What the AI SDK converters keep in `metadata.aiSdk`; the rest of the metadata travels as `providerOptions.lousho`. */
export interface ModelMessageMetadata {
  /** The message's providerOptions other than `lousho`. */
  providerOptions?: ModelProviderOptions;
  /** A tool-result part's own providerOptions other than `lousho`. */
  partOptions?: ModelProviderOptions;
  /** providerOptions of tool-call parts, by toolCallId (e.g. Gemini's thought signatures). */
  callOptions?: Record<string, ModelProviderOptions>;
  /** The tool output type when it was not 'text' or 'content'. */
  output?: 'json' | 'error-json' | 'execution-denied';
  /** Parts our Message cannot hold (reasoning, files, provider-executed tools), with their positions. */
  parts?: {
    /** Its index among the parts of the original message. */
    at: number;
    /** The part as it was, unchanged. */
    part: unknown;
  }[];
  /** Parts of the tool message other than tool results (approval responses) just before and after this result. */
  before?: unknown[];
  /** The same, after this result (set on the tool message's last result). */
  after?: unknown[];
}

/** The metadata key of the AI SDK converters. */
export const MODEL_MESSAGE_METADATA = 'aiSdk';
/** The providerOptions key that carries our message metadata (pinned, ...) through the AI SDK. */
export const LOUSHO_PROVIDER_OPTIONS = 'lousho';
