import type { AssistantMessage, AssistantPart, Message, ToolMessage } from '../messages/types.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { isRecord } from './invalid-input.js';
import type { LogReading } from './log-reading.js';

type Update = Record<string, unknown>;

/** The `session/update` a line holds (a JSON-RPC notification, or its bare params), or the prompt of a `session/prompt` request. */
function updateOf(line: unknown): Update | undefined {
  if (!isRecord(line)) return undefined;
  const params = line.method === undefined ? line : isRecord(line.params) ? line.params : undefined;
  if (line.method === 'session/prompt' && Array.isArray(params?.prompt))
    return { sessionUpdate: 'user_message_chunk', content: params.prompt };
  if (line.method !== undefined && line.method !== 'session/update') return undefined;
  return isRecord(params?.update) && typeof params.update.sessionUpdate === 'string' ? params.update : undefined;
}

/** True for a recorded ACP (Agent Client Protocol) stream: JSON lines of `session/update` notifications. */
export function isAcpStream(data: unknown): boolean {
  return Array.isArray(data) && data.some((line) => updateOf(line) !== undefined);
}

/** The text of ACP content: a content block, a list of them, or tool-call content (`content`, `diff`, `terminal`). */
function textOf(content: unknown): string {
  if (Array.isArray(content)) return content.map(textOf).join('\n');
  if (!isRecord(content)) return typeof content === 'string' ? content : '';
  if (content.type === 'content') return textOf(content.content);
  if (content.type === 'text') return String(content.text ?? '');
  if (content.type === 'diff')
    return `diff ${String(content.path)}\n--- old\n${String(content.oldText ?? '')}\n+++ new\n${String(content.newText ?? '')}`;
  if (content.type === 'terminal') return `[terminal ${String(content.terminalId)}]`;
  if (content.type === 'resource_link') return `[resource ${String(content.uri)}]`;
  if (content.type === 'resource' && isRecord(content.resource))
    return String(content.resource.text ?? `[resource ${String(content.resource.uri)}]`);
  return `[${String(content.type)}]`;
}

/**
 * A recorded ACP stream (the `session/update` notifications an agent sent its client, as
 * JSON lines; `session/prompt` requests, when recorded, are the user's turns) as our
 * messages. `user_message_chunk` and `agent_message_chunk` pieces are joined into user and
 * assistant text, `agent_thought_chunk` pieces into a reasoning part; `tool_call` adds a call
 * (its `name`, else its `title`, with `rawInput` as arguments) to the assistant message, and
 * the `tool_call_update` that completes it (`completed`, or `failed` as an error result) is
 * its result: the call's last `content` (text, diffs, terminals named), else `rawOutput`. A
 * call that never completes is left waiting. Text after a call starts the next assistant
 * message. `plan`, mode and command updates are not read; the stream reports no usage.
 *
 * @example
 * const { messages } = fromAcp(text.split('\n').filter(Boolean).map((l) => JSON.parse(l)));
 */
export function fromAcp(lines: readonly unknown[], options: ConvertOptions = {}): LogReading {
  const messages: Message[] = [];
  const calls = new Map<string, { name: string; content?: unknown; rawOutput?: unknown }>();
  const done = new Set<string>();
  let assistant: AssistantMessage | undefined;
  const append = (parts: AssistantPart[], part: AssistantPart) => {
    const previous = parts.at(-1);
    if (previous !== undefined && previous.type === part.type && 'text' in previous && 'text' in part)
      previous.text += part.text;
    else parts.push(part);
  };
  const reply = (): AssistantMessage => {
    if (assistant === undefined || (assistant.toolCalls?.length ?? 0) > 0) {
      assistant = { role: 'assistant', content: [] };
      messages.push(assistant);
    }
    return assistant;
  };
  for (const line of lines) {
    const u = updateOf(line);
    if (u === undefined) continue;
    const kind = u.sessionUpdate;
    if (kind === 'user_message_chunk') {
      const last = messages.at(-1);
      if (last?.role === 'user' && typeof last.content === 'string') last.content += textOf(u.content);
      else messages.push({ role: 'user', content: textOf(u.content) });
      assistant = undefined;
    } else if (kind === 'agent_message_chunk' || kind === 'agent_thought_chunk') {
      const parts = reply().content as AssistantPart[];
      append(parts, { type: kind === 'agent_message_chunk' ? 'text' : 'reasoning', text: textOf(u.content) });
    } else if ((kind === 'tool_call' || kind === 'tool_call_update') && typeof u.toolCallId === 'string') {
      const id = u.toolCallId;
      let call = calls.get(id);
      if (call === undefined) {
        call = { name: String(u.name ?? u.title ?? u.kind ?? 'tool') };
        calls.set(id, call);
        // A call after every call of the reply has its result is the next request's.
        const answered = assistant?.toolCalls?.every((c) => done.has(c.id)) ?? true;
        const target = assistant !== undefined && !answered ? assistant : reply();
        target.toolCalls = [...(target.toolCalls ?? []), { id, name: call.name, arguments: u.rawInput ?? {} }];
      }
      if (u.content !== undefined && u.content !== null) call.content = u.content;
      if (u.rawOutput !== undefined) call.rawOutput = u.rawOutput;
      if ((u.status === 'completed' || u.status === 'failed') && !done.has(id)) {
        done.add(id);
        const text = call.content !== undefined ? textOf(call.content) : JSON.stringify(call.rawOutput ?? '');
        const result: ToolMessage = { role: 'tool', toolCallId: id, toolName: call.name, content: text };
        messages.push(u.status === 'failed' ? { ...result, isError: true } : result);
      }
    }
  }
  // An assistant message that is only text reads as a string, as every other reader gives it.
  for (const m of messages)
    if (m.role === 'assistant' && Array.isArray(m.content) && m.content.every((p) => p.type === 'text'))
      m.content = m.content.map((p) => (p as { text: string }).text).join('');
  return { messages: checkedTranscript(messages, options) };
}
