// The Messages API wire format of a request and its reply, as the provider writes and reads
// them. The content blocks are the converters' (one definition of each, in
// converters/anthropic-types.ts); these types are our own so the package does not depend on
// the SDK's types, and the SDK's accept them.
import type {
  AnthropicImageBlockParam as AnthropicImageBlock,
  AnthropicTextBlockParam as AnthropicTextBlock,
  AnthropicToolResultBlockParam,
  AnthropicToolUseBlockParam as AnthropicToolUseBlock,
} from '../converters/anthropic-types.js';

export type { AnthropicImageBlock, AnthropicTextBlock, AnthropicToolUseBlock };

/** A tool_result block as this library sends it: `is_error` always set, content as text or text and images. */
export interface AnthropicToolResultBlock extends AnthropicToolResultBlockParam {
  content?: string | (AnthropicTextBlock | AnthropicImageBlock)[];
  is_error: boolean;
}

/** A block of a user message. */
export type AnthropicUserBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicToolResultBlock;
/** A thinking block, sent back unchanged with its signature. */
export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** A redacted_thinking block: encrypted reasoning, sent back unchanged. */
export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** A compaction block: the summary the API wrote of everything before it. */
export interface AnthropicCompactionBlock {
  type: 'compaction';
  content: string | null;
  /** The signature of a block written on demand (the `compaction` parameter), sent back unchanged. */
  signature?: string;
}

/** A block of an assistant message. */
export type AnthropicAssistantBlock =
  | AnthropicTextBlock
  | AnthropicToolUseBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicCompactionBlock;

/** A prompt-cache breakpoint: the prefix up to and including the block that carries it is cached. */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  /** How long the cache lives: '5m' (the API's default) or '1h'. */
  ttl?: '5m' | '1h';
}

/** One message of the `messages` array. */
export type AnthropicMessage =
  | { role: 'user'; content: AnthropicUserBlock[] }
  | { role: 'assistant'; content: AnthropicAssistantBlock[] };

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: 'object'; [key: string]: unknown };
  cache_control?: AnthropicCacheControl;
}

/** The body of one POST /v1/messages (without `stream`). */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: string | (AnthropicTextBlock & { cache_control?: AnthropicCacheControl })[];
  tools?: AnthropicTool[];
  temperature?: number;
  /**
   * Thinking, when the request asks for it: adaptive (the model decides how much, with
   * `output_config.effort`), a fixed budget (models before adaptive thinking), or off.
   */
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'adaptive' } | { type: 'disabled' };
  /** Server-side context management (compaction), passed through from the provider's options. */
  context_management?: Record<string, unknown>;
  /** On-demand compaction: the reply is one compaction block summarizing the messages, and no answer. */
  compaction?: { type: 'summarize' };
  /**
   * Structured outputs (the reply is JSON matching the schema, models of the 4.5 generation
   * on) and the effort of the reply, thinking included.
   */
  output_config?: {
    format?: { type: 'json_schema'; schema: Record<string, unknown> };
    effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max';
  };
  /** Which tool the model must call (the forced final-answer tool of models without structured outputs). */
  tool_choice?: { type: 'auto' } | { type: 'any' } | { type: 'tool'; name: string };
}

/** A request body and, for each block of each message sent, the index of the transcript message it came from. */
export interface AnthropicRequest {
  body: AnthropicRequestBody;
  /** sources[i][j]: the index in request.messages of block j of message i of the body. */
  sources: number[][];
}

/** The usage object of a reply, of message_start and of message_delta. */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  /** The cache writes by lifetime: the one-hour ones are billed at 2x the input price, the 5-minute ones at 1.25x. */
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
  /** The share of output_tokens spent thinking, where the API reports it. */
  output_tokens_details?: { thinking_tokens?: number | null } | null;
  /**
   * Each sampling iteration of the request (a compaction's, a fallback model's), when the API
   * ran several: every one is billed, and the top-level counts are the last one's.
   */
  iterations?: (AnthropicUsage & { type?: string; model?: string })[] | null;
}

/** A content block of a reply; blocks other than text and tool_use are ignored. */
export interface AnthropicReplyBlock {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
  content?: string | null;
  id?: string;
  name?: string;
  input?: unknown;
}

/** A whole reply (the non-streaming response, or the message of message_start). */
export interface AnthropicReply {
  model?: string;
  content?: AnthropicReplyBlock[];
  stop_reason?: string | null;
  usage?: AnthropicUsage | null;
}

/** One event of a streamed reply. */
export interface AnthropicStreamEvent {
  type: string;
  index?: number;
  message?: AnthropicReply;
  content_block?: AnthropicReplyBlock;
  delta?: {
    type?: string;
    text?: string;
    partial_json?: string;
    thinking?: string;
    signature?: string;
    content?: string | null;
    stop_reason?: string | null;
  };
  usage?: AnthropicUsage | null;
}
