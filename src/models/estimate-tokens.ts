import type { JSONSchema } from '../contracts/json-schema.js';
import type { ToolDefinition } from '../contracts/tool-definition.js';
import { configError, LoushoError } from '../errors/lousho-error.js';
import type { AnyContent } from '../messages/content.js';
import type { Message } from '../messages/types.js';
import { validateMessage } from '../messages/validate.js';
import { type ImageFormula, imageTokens } from './image-tokens.js';
import type { TokenizerName } from './model-info.js';
import {
  holdsProviderCompaction,
  OPAQUE_COMPACTION_TOKENS,
  opaqueReasoningTokens,
  toolUseSystemPromptTokens,
} from './provider-billing.js';
import { getModelInfo } from './registry.js';
import { countTextTokens } from './tokenizer.js';

/*
 * The framing constants below were fitted by scripts/fit-framing.ts to 582 real
 * gpt-5-mini calls (../shared/corpus, OpenAI Chat Completions, one function tool): with
 * them, the model's request overhead (ModelInfo.requestOverheadTokens) and exact o200k
 * counts, estimateTokens equals the provider's prompt_tokens on every one of those calls.
 * The corpus always sends a tool call and its result together, so only their sum (21)
 * is measured; the split between them is a guess, as are the tool-definition constants,
 * of which only the total for one tool is measured.
 */

/** Framing the chat format adds around each message (role and separators). */
export const MESSAGE_FRAMING_TOKENS = 4;
/** Framing of one tool call in an assistant message (its id and separators). */
export const TOOL_CALL_FRAMING_TOKENS = 7;
/** Framing of a tool result (the id of the call it answers). */
export const TOOL_RESULT_FRAMING_TOKENS = 6;
/**
 * An assistant message with text and tool calls: the text is sent as a message of its own
 * before the calls, with this much more framing (measured: 41 such messages in 21 of the
 * trajectories, in the requests of 253 of the 582 calls).
 */
export const ASSISTANT_TEXT_FRAMING_TOKENS = 7;
/** Tokens the reply is primed with, once per request. */
export const REQUEST_FRAMING_TOKENS = 3;
/** Framing of the tool section of a request, once when it has tools. */
export const TOOLS_FRAMING_TOKENS = 12;
/** Framing of one tool definition. */
export const TOOL_FRAMING_TOKENS = 8;

/** What {@link estimateTokens} reads of a request: a ModelRequest fits. */
export interface TokenEstimateRequest {
  /** The model id, which picks the tokenizer, image formula and overhead (o200k and OpenAI's when unknown). */
  model?: string;
  /** The transcript, each message counted with its framing. */
  messages: readonly Message[];
  /** The tool definitions sent with it, counted as their JSON. */
  tools?: readonly ToolDefinition[];
  /** The schema of a structured answer, counted as its JSON. */
  outputSchema?: JSONSchema;
}

/** How tokens are counted for one model. */
export interface TokenProfile {
  tokenizer: TokenizerName;
  images: ImageFormula;
  /** The model's ModelInfo.requestOverheadTokens: added once per request; 0 when absent. */
  requestOverheadTokens?: number;
  /** The system prompt the provider adds to a request with tools (Anthropic's tool-use prompt); 0 when absent. */
  toolUseSystemTokens?: number;
}

const DEFAULT_PROFILE: TokenProfile = { tokenizer: 'o200k', images: 'openai' };

/**
 * The tokenizer, image formula and request overhead for a model id (o200k, OpenAI's
 * formula and no overhead when the model is unknown).
 */
export function tokenProfile(model?: string): TokenProfile {
  if (model === undefined || model === '') return DEFAULT_PROFILE;
  const info = getModelInfo(model);
  const anthropic = info?.provider === 'anthropic' || /(^|\/)claude/i.test(model);
  const profile: TokenProfile = { tokenizer: info?.tokenizer ?? 'o200k', images: anthropic ? 'anthropic' : 'openai' };
  if (info?.requestOverheadTokens) profile.requestOverheadTokens = info.requestOverheadTokens;
  const toolPrompt = toolUseSystemPromptTokens(model, anthropic);
  if (toolPrompt > 0) profile.toolUseSystemTokens = toolPrompt;
  return profile;
}

/**
 * The tokens a request costs beyond its messages, tool definitions and output schema:
 * the reply's priming and the model's request overhead.
 */
export function requestFramingTokens(profile: TokenProfile = DEFAULT_PROFILE): number {
  return REQUEST_FRAMING_TOKENS + (profile.requestOverheadTokens ?? 0);
}

interface CacheEntry {
  content: unknown;
  toolCalls: unknown;
  key: string;
  tokens: number;
  next?: CacheEntry;
}

/**
 * Per-message counts. An entry is valid while the message still holds the same content
 * and toolCalls values, so a message rewritten in place is counted again.
 */
const messageCache = new WeakMap<Message, CacheEntry>();
const objectCache = new WeakMap<object, Map<string, number>>();

function partsTokens(content: AnyContent, profile: TokenProfile): number {
  if (typeof content === 'string') return countTextTokens(content, profile.tokenizer);
  let tokens = 0;
  for (const part of content) {
    if (part.type === 'image') tokens += imageTokens(part, profile.images);
    // Reasoning and a provider's compaction are billed as what they hold: their text when it
    // can be read, else an estimate (see provider-billing.ts). A signature is not billed.
    else if (part.type === 'compaction' && !part.text && part.encrypted !== undefined)
      tokens += OPAQUE_COMPACTION_TOKENS;
    else if (part.type === 'reasoning' && part.text === '' && part.encrypted !== undefined)
      tokens += opaqueReasoningTokens(part.encrypted);
    else tokens += countTextTokens(part.text ?? '', profile.tokenizer);
  }
  return tokens;
}

/** The JSON text of tool-call arguments as the model wrote them. */
export function argumentsText(args: unknown): string {
  if (typeof args === 'string') return args;
  return JSON.stringify(args ?? {}) ?? '';
}

function countMessage(message: Message, profile: TokenProfile): number {
  const content = partsTokens(message.content, profile);
  let tokens = MESSAGE_FRAMING_TOKENS + content;
  if (message.role === 'assistant' && message.toolCalls !== undefined) {
    if (content > 0 && message.toolCalls.length > 0) tokens += ASSISTANT_TEXT_FRAMING_TOKENS;
    for (const call of message.toolCalls) {
      tokens += TOOL_CALL_FRAMING_TOKENS + countTextTokens(call.name, profile.tokenizer);
      tokens += countTextTokens(argumentsText(call.arguments), profile.tokenizer);
    }
  } else if (message.role === 'tool') {
    tokens += TOOL_RESULT_FRAMING_TOKENS;
  }
  return tokens;
}

/** Tokens of one message, from the cache when the message has not changed since it was counted. */
export function messageTokens(message: Message, profile: TokenProfile = DEFAULT_PROFILE): number {
  const key = profile.tokenizer + profile.images;
  const toolCalls = message.role === 'assistant' ? message.toolCalls : undefined;
  const head = messageCache.get(message);
  for (let e = head; e !== undefined; e = e.next) {
    if (e.key === key && e.content === message.content && e.toolCalls === toolCalls) return e.tokens;
  }
  const tokens = countMessage(message, profile);
  const fresh: CacheEntry = { content: message.content, toolCalls, key, tokens };
  // Keep entries of other profiles; drop stale ones of this profile.
  let rest = head;
  while (rest !== undefined && rest.key === key) rest = rest.next;
  if (rest !== undefined) fresh.next = rest;
  messageCache.set(message, fresh);
  return tokens;
}

function cachedObject(value: object, key: string, count: () => number): number {
  let byKey = objectCache.get(value);
  const hit = byKey?.get(key);
  if (hit !== undefined) return hit;
  const tokens = count();
  if (byKey === undefined) {
    byKey = new Map();
    objectCache.set(value, byKey);
  }
  byKey.set(key, tokens);
  return tokens;
}

/**
 * Tokens of the tool definitions of a request (zero for none), with the system prompt the
 * provider adds when there are tools (Anthropic's). Cached per definition object.
 */
export function toolDefinitionTokens(
  tools: readonly ToolDefinition[] | undefined,
  profile: TokenProfile = DEFAULT_PROFILE,
): number {
  if (tools === undefined || tools.length === 0) return 0;
  let tokens = TOOLS_FRAMING_TOKENS + (profile.toolUseSystemTokens ?? 0);
  for (const tool of tools) {
    tokens += cachedObject(tool, profile.tokenizer, () => {
      const text = `${tool.name}\n${tool.description ?? ''}\n${JSON.stringify(tool.parameters ?? {})}`;
      return TOOL_FRAMING_TOKENS + countTextTokens(text, profile.tokenizer);
    });
  }
  return tokens;
}

/** Tokens of an output schema (zero for none). */
export function outputSchemaTokens(schema: JSONSchema | undefined, profile: TokenProfile = DEFAULT_PROFILE): number {
  if (schema === undefined) return 0;
  return cachedObject(
    schema,
    profile.tokenizer,
    () => TOOL_FRAMING_TOKENS + countTextTokens(JSON.stringify(schema), profile.tokenizer),
  );
}

/**
 * Sum of the message tokens of a transcript, without request framing. What a provider's
 * compaction superseded (every message before the newest one holding a compaction, but
 * the system prompt) is not billed, and not counted.
 */
export function messagesTokens(messages: readonly Message[], profile: TokenProfile = DEFAULT_PROFILE): number {
  // One pass, as TranscriptCounter does: a compaction drops what was billed before it but the system prompt.
  let tokens = 0;
  let system = 0;
  for (const message of messages) {
    const own = messageTokens(message, profile);
    if (holdsProviderCompaction(message)) tokens = system;
    tokens += own;
    if (message.role === 'system') system += own;
  }
  return tokens;
}

/**
 * The part of a request's size that is not its messages: the request framing, the tool
 * definitions and the output schema. A request's size is this plus its messages' tokens;
 * every estimate in the library (estimateTokens, the run's RequestBudget) is that one sum.
 */
export function requestFixedTokens(
  request: Pick<TokenEstimateRequest, 'tools' | 'outputSchema'>,
  profile: TokenProfile = DEFAULT_PROFILE,
): number {
  return (
    requestFramingTokens(profile) +
    toolDefinitionTokens(request.tools, profile) +
    outputSchemaTokens(request.outputSchema, profile)
  );
}

/**
 * Estimates the prompt tokens of a transcript or of a whole request: real BPE counts
 * (o200k, or cl100k for older OpenAI models) of every message, plus the chat format's
 * framing, the tool definitions, the output schema, images by the vendor's formula and
 * the model's request overhead (ModelInfo.requestOverheadTokens, 67 for the GPT-5 family).
 * `metadata` is never counted. Counts are cached per message, so estimating a transcript
 * that grew by one message costs only that message.
 *
 * @example
 * estimateTokens([{ role: 'user', content: 'Hello' }], 'gpt-4o');
 * estimateTokens({ model: 'gpt-4o', messages, tools });
 */
export function estimateTokens(input: readonly Message[] | TokenEstimateRequest, model?: string): number {
  const request: TokenEstimateRequest = Array.isArray(input)
    ? { messages: input as readonly Message[] }
    : (input as TokenEstimateRequest);
  if (typeof request !== 'object' || request === null || !Array.isArray(request.messages)) {
    throw configError(
      'estimateTokens() takes a messages array or a request { model?, messages, tools?, outputSchema? }.',
    );
  }
  const profile = tokenProfile(model ?? request.model);
  try {
    return requestFixedTokens(request, profile) + messagesTokens(request.messages, profile);
  } catch (error) {
    // Bad input, not a bug: name the message that is not a Message (validation says which and how).
    for (const [i, message] of request.messages.entries()) validateMessage(message, i);
    throw new LoushoError('LOUSHO_CONFIG_INVALID', `estimateTokens() could not count the request: ${String(error)}`, {
      cause: error,
    });
  }
}
