/*
 * The Vercel AI SDK's ModelMessage (ai 5 and 6), as the converters write it. Our own types,
 * so the package needs no AI SDK package; they are assignable to the SDK's ModelMessage.
 */

import type { CarriedPart } from './carried-parts.js';

/** A JSON value, as providerOptions and json tool outputs hold. */
export type JSONValue = null | string | number | boolean | JSONObject | JSONValue[];
/** A JSON object; a key whose value is undefined is left out when the object is serialized. */
export type JSONObject = { [key: string]: JSONValue | undefined };

/** Per-provider options of a message or part; `lousho` holds our message metadata (pinned, ...). */
export type ModelProviderOptions = Record<string, JSONObject>;

/** A text part, in a user or assistant message. */
export interface ModelTextPart {
  /** Marks a text part. */
  type: 'text';
  /** The text: read as one of our text parts (an assistant's single text beside tool calls as a string). */
  text: string;
  /** Per-provider options of this part; absent when it has none. */
  providerOptions?: ModelProviderOptions;
}

/** An image part, in a user message; read as one of our image parts. */
export interface ModelImagePart {
  /** Marks an image part. */
  type: 'image';
  /** The image: base64 text or a URL as a string, a URL object, or bytes (an ArrayBuffer is read as a Uint8Array). */
  image: string | Uint8Array | ArrayBuffer | URL;
  /** The image's media type, e.g. 'image/png'; absent when not known (the AI SDK then detects it). */
  mediaType?: string;
  /** Per-provider options of this part: `openai.imageDetail` carries our image `detail`; absent when there are none. */
  providerOptions?: ModelProviderOptions;
}

/** A file part: a file the user sends, or one the assistant generated. Image files of a user are read as images. */
export interface ModelFilePart {
  /** Marks a file part. */
  type: 'file';
  /** The file: base64 text or a URL as a string, a URL object, or bytes. */
  data: string | Uint8Array | ArrayBuffer | URL;
  /** The file's media type, e.g. 'application/pdf'; a user's 'image/...' file is read as an image, others are kept. */
  mediaType: string;
  /** The file's name, for providers that take one; absent when not given. */
  filename?: string;
  /** Per-provider options of this part; absent when it has none. */
  providerOptions?: ModelProviderOptions;
}

/** A reasoning part of an assistant message: the model's thinking, kept in `metadata.aiSdk` as it was. */
export interface ModelReasoningPart {
  /** Marks a reasoning part. */
  type: 'reasoning';
  /** The reasoning text as the provider gave it, kept unchanged. */
  text: string;
  /** Per-provider options, e.g. a signature or encrypted reasoning the provider wants back; absent when none. */
  providerOptions?: ModelProviderOptions;
}

/** An assistant's call of a tool; read as one of our tool calls unless the provider ran the tool. */
export interface ModelToolCallPart {
  /** Marks a tool call. */
  type: 'tool-call';
  /** The call's id, which the tool-result part answering it names as its `toolCallId`. */
  toolCallId: string;
  /** The name of the tool called: its key in the request's `tools`. */
  toolName: string;
  /** The parsed arguments. */
  input: unknown;
  /** True when the provider ran the tool itself (e.g. web search); such calls are kept in `metadata.aiSdk`. */
  providerExecuted?: boolean;
  /** Per-provider options of the call (e.g. Gemini's thought signature), kept in `metadata.aiSdk.callOptions`. */
  providerOptions?: ModelProviderOptions;
}

/** One piece of a tool result with images: 'media' is the ai 5 form, 'image-data' / 'image-url' the ai 6 ones. */
export type ModelToolResultContent =
  | {
      /** Marks a text piece. */
      type: 'text';
      /** The text: read as one of our text parts. */
      text: string;
    }
  | {
      /** Marks base64 media, the ai 5 form; read as an image. */
      type: 'media';
      /** The bytes as base64, without a `data:` prefix. */
      data: string;
      /** The media type, e.g. 'image/png' ('image/png' is written when ours is not known). */
      mediaType: string;
    }
  | {
      /** Marks a base64 image, the ai 6 form. */
      type: 'image-data';
      /** The image bytes as base64, without a `data:` prefix. */
      data: string;
      /** The image's media type, e.g. 'image/png' ('image/png' is written when ours is not known). */
      mediaType: string;
    }
  | {
      /** Marks an image given by URL, the ai 6 form (ai 5 gets a text note with the URL instead). */
      type: 'image-url';
      /** The image's URL. */
      url: string;
    }
  | {
      /** Marks a base64 file; read as an image when its mediaType is 'image/...', else kept as it was. */
      type: 'file-data';
      /** The file bytes as base64. */
      data: string;
      /** The file's media type, e.g. 'application/pdf'. */
      mediaType: string;
      /** The file's name; absent when not given. */
      filename?: string;
    }
  | {
      /** Marks a file given by URL; read as an image when its mediaType is 'image/...', else kept as it was. */
      type: 'file-url';
      /** The file's URL. */
      url: string;
      /** The file's media type; absent when not given (such a file is kept, not read as an image). */
      mediaType?: string;
    };

/** A tool result's output, by type; each is read as our tool message's content and isError. */
export type ModelToolResultOutput =
  | {
      /** Marks a text result. */
      type: 'text';
      /** The result text. */
      value: string;
    }
  | {
      /** Marks a JSON result, read as its JSON text and written back as json while that text still parses. */
      type: 'json';
      /** The result. */
      value: JSONValue;
    }
  | {
      /** Marks a failed call's message; read with isError. */
      type: 'error-text';
      /** The error text. */
      value: string;
    }
  | {
      /** Marks a failed call's JSON error; read as its JSON text with isError. */
      type: 'error-json';
      /** The error. */
      value: JSONValue;
    }
  | {
      /** Marks a call that was not run because its approval was denied (ai 6; ai 5 gets error-text). */
      type: 'execution-denied';
      /** Why, read as the tool message's text; absent when no reason was given. */
      reason?: string;
    }
  | {
      /** Marks a result of text and images (or files). */
      type: 'content';
      /** The pieces, in order; those our Message cannot hold are kept in `metadata.aiSdk`. */
      value: ModelToolResultContent[];
    };

/** A tool's result: in a tool message, or in an assistant message for a tool the provider ran. */
export interface ModelToolResultPart {
  /** Marks a tool result. */
  type: 'tool-result';
  /** The `toolCallId` of the call this result answers. */
  toolCallId: string;
  /** The name of the tool called; written from our toolName, else the call's name, else 'unknown'. */
  toolName: string;
  /** The result: text, json, an error, a denial or content (see ModelToolResultOutput). */
  output: ModelToolResultOutput;
  /** Per-provider options of this result; `lousho` carries its metadata, others go to `metadata.aiSdk.partOptions`. */
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
  parts?: CarriedPart[];
  /** Parts of the tool message other than tool results (approval responses) just before and after this result. */
  before?: unknown[];
  /** The same, after this result (set on the tool message's last result). */
  after?: unknown[];
}

/** The metadata key of the AI SDK converters. */
export const MODEL_MESSAGE_METADATA = 'aiSdk';
/** The providerOptions key that carries our message metadata (pinned, ...) through the AI SDK. */
export const LOUSHO_PROVIDER_OPTIONS = 'lousho';
