import { parseToolArguments } from '../messages/tool-arguments.js';
import type { AssistantPart, ContentPart, Message, ToolCall } from '../messages/types.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { invalidInput, isRecord } from './invalid-input.js';
import { numberOf, REPORTED_USAGE, type ReportedUsage, reportedUsage } from './log-reading.js';

const WHERE = 'fromLangChain()';
type Dict = Record<string, unknown>;

/** Message types of LangChain (`_getType()`, `messages_to_dict`) and their classes, by our role. */
const ROLES: Record<string, Message['role']> = {
  human: 'user',
  ai: 'assistant',
  tool: 'tool',
  system: 'system',
  HumanMessage: 'user',
  HumanMessageChunk: 'user',
  AIMessage: 'assistant',
  AIMessageChunk: 'assistant',
  ToolMessage: 'tool',
  ToolMessageChunk: 'tool',
  SystemMessage: 'system',
  SystemMessageChunk: 'system',
};

/** A serialized message: `{ lc: 1, type: 'constructor', id: [..., 'messages', 'AIMessage'], kwargs }`. */
function isSerialized(m: unknown): m is Dict & { id: unknown[]; kwargs: Dict } {
  return isRecord(m) && m.lc === 1 && m.type === 'constructor' && Array.isArray(m.id) && isRecord(m.kwargs);
}

/** True for one LangChain message: serialized, a `messages_to_dict` entry `{ type, data }`, or a plain dict `{ type, content }`. */
export function isLangChainMessage(m: unknown): boolean {
  if (isSerialized(m)) return m.id.includes('messages') && ROLES[String(m.id.at(-1))] !== undefined;
  if (!isRecord(m) || m.role !== undefined || typeof m.type !== 'string' || ROLES[m.type] === undefined) return false;
  return isRecord(m.data) ? 'content' in m.data : 'content' in m;
}

/** The role and fields of a message in any of the three forms. */
function unwrap(m: unknown): { role: Message['role'] | undefined; fields: Dict } {
  if (isSerialized(m)) return { role: ROLES[String(m.id.at(-1))], fields: m.kwargs };
  if (!isRecord(m)) return { role: undefined, fields: {} };
  return { role: ROLES[String(m.type)], fields: isRecord(m.data) ? m.data : m };
}

function texts(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b) => isRecord(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => (b as { text: string }).text)
    .join('');
}

function userContent(content: unknown): string | ContentPart[] {
  if (!Array.isArray(content)) return texts(content);
  return content.flatMap((b): ContentPart[] => {
    if (!isRecord(b)) return [];
    if (b.type === 'text' && typeof b.text === 'string') return [{ type: 'text', text: b.text }];
    const url = isRecord(b.image_url) ? b.image_url.url : b.image_url;
    return b.type === 'image_url' && typeof url === 'string' ? [{ type: 'image', image: url }] : [];
  });
}

function toolCalls(fields: Dict): ToolCall[] {
  if (Array.isArray(fields.tool_calls) && fields.tool_calls.length > 0)
    return fields.tool_calls.filter(isRecord).map((c) => ({
      id: String(c.id),
      name: String(c.name),
      arguments: c.args ?? {},
    }));
  const extra = isRecord(fields.additional_kwargs) ? fields.additional_kwargs.tool_calls : undefined;
  return (Array.isArray(extra) ? extra : []).filter(isRecord).map((c) => {
    const fn = isRecord(c.function) ? c.function : {};
    return { id: String(c.id), name: String(fn.name), arguments: parseToolArguments(fn.arguments) };
  });
}

/** An AI message's `usage_metadata` (LangChain's UsageMetadata: `input_tokens` holds the cache reads and writes). */
function usageMetadata(value: unknown): ReportedUsage | undefined {
  if (!isRecord(value)) return undefined;
  const input = isRecord(value.input_token_details) ? value.input_token_details : {};
  const output = isRecord(value.output_token_details) ? value.output_token_details : {};
  return reportedUsage({
    inputTokens: numberOf(value.input_tokens),
    outputTokens: numberOf(value.output_tokens),
    cacheReadTokens: numberOf(input.cache_read),
    cacheWriteTokens: numberOf(input.cache_creation),
    reasoningTokens: numberOf(output.reasoning),
  });
}

/** Reasoning a model returned through LangChain (`additional_kwargs.reasoning` of an OpenAI Responses reply), as a part. */
function reasoningPart(fields: Dict): AssistantPart[] {
  const r = isRecord(fields.additional_kwargs) ? fields.additional_kwargs.reasoning : undefined;
  if (!isRecord(r)) return [];
  const summary = Array.isArray(r.summary) ? r.summary : [];
  const text = summary.map((s) => (isRecord(s) && typeof s.text === 'string' ? s.text : '')).join('\n');
  return [{ type: 'reasoning', text, provider: 'openai', ...(typeof r.id === 'string' ? { id: r.id } : {}) }];
}

function toMessage(m: unknown, i: number): Message {
  const { role, fields } = unwrap(m);
  const path = `messages[${i}]`;
  switch (role) {
    case 'system':
      return { role: 'system', content: texts(fields.content) };
    case 'user':
      return { role: 'user', content: userContent(fields.content) };
    case 'assistant': {
      const calls = toolCalls(fields);
      const reasoning = reasoningPart(fields);
      const text = texts(fields.content);
      const content =
        reasoning.length === 0 ? text : [...reasoning, ...(text === '' ? [] : [{ type: 'text' as const, text }])];
      const usage = usageMetadata(fields.usage_metadata);
      return {
        role: 'assistant',
        content,
        ...(calls.length === 0 ? {} : { toolCalls: calls }),
        ...(usage === undefined ? {} : { metadata: { [REPORTED_USAGE]: usage } }),
      };
    }
    case 'tool': {
      if (typeof fields.tool_call_id !== 'string' || fields.tool_call_id === '')
        throw invalidInput(
          WHERE,
          path,
          i,
          'is a tool message without tool_call_id',
          'Give the id of the call it answers.',
        );
      return {
        role: 'tool',
        toolCallId: fields.tool_call_id,
        content: texts(fields.content),
        ...(typeof fields.name === 'string' ? { toolName: fields.name } : {}),
        ...(fields.status === 'error' ? { isError: true } : {}),
      };
    }
    default:
      throw invalidInput(
        WHERE,
        path,
        i,
        'is not a LangChain message',
        "Give serialized messages ({ lc: 1, type: 'constructor', id, kwargs }), messages_to_dict() entries or { type: 'human' | 'ai' | 'tool' | 'system', content } dicts.",
      );
  }
}

/**
 * LangChain / LangGraph messages as our messages, in any of their saved forms: serialized
 * (`{ lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'AIMessage'], kwargs }`,
 * what `JSON.stringify` of a message and LangSmith write), `messages_to_dict()` entries
 * (`{ type: 'ai', data }`) and plain dicts (`{ type: 'human', content }`). Tool calls are read
 * from `tool_calls` (`{ id, name, args }`), else from OpenAI's `additional_kwargs.tool_calls`;
 * OpenAI reasoning in `additional_kwargs.reasoning` becomes a reasoning part, and an AI
 * message's `usage_metadata` its `metadata.reportedUsage`. Streamed chunks
 * (AIMessageChunk) are read as whole messages: give the state's `messages`, not the stream.
 *
 * @example
 * const messages = fromLangChain(state.messages.map((m) => m.toJSON()));
 */
export function fromLangChain(messages: readonly unknown[], options: ConvertOptions = {}): Message[] {
  return checkedTranscript(messages.map(toMessage), options);
}
