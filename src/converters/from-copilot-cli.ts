import { parseToolArguments } from '../messages/tool-arguments.js';
import type { AssistantMessage, Message, ToolMessage } from '../messages/types.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { chatMessages } from './from-openai-chat.js';
import { isRecord } from './invalid-input.js';
import {
  type LogReading,
  lastReportedUsage,
  logExtras,
  numberOf,
  REPORTED_USAGE,
  type ReportedUsage,
  reportedUsage,
} from './log-reading.js';

type Event = Record<string, unknown> & { data: Record<string, unknown> };

const isEvent = (e: unknown): e is Event => isRecord(e) && typeof e.type === 'string' && isRecord(e.data);

/**
 * True for a GitHub Copilot CLI session: its JSON-lines event log
 * (`~/.copilot/session-state/<id>/events.jsonl`, starting with `session.start`) or its older
 * single JSON `{ sessionId, chatMessages, timeline }`.
 */
export function isCopilotSession(data: unknown): boolean {
  if (Array.isArray(data)) return data.some((e) => isEvent(e) && e.type === 'session.start');
  return isRecord(data) && Array.isArray(data.timeline) && Array.isArray(data.chatMessages);
}

/** The usage an assistant message or an `assistant.usage` event reports (Copilot's counts: `inputTokens` as it gives them). */
function usageOf(data: Record<string, unknown>): ReportedUsage | undefined {
  return reportedUsage({
    inputTokens: numberOf(data.inputTokens),
    outputTokens: numberOf(data.outputTokens),
    cacheReadTokens: numberOf(data.cacheReadTokens),
    cacheWriteTokens: numberOf(data.cacheWriteTokens),
    reasoningTokens: numberOf(data.reasoningTokens),
  });
}

function withUsage(m: AssistantMessage, usage: ReportedUsage | undefined): void {
  if (usage !== undefined) m.metadata = { ...m.metadata, [REPORTED_USAGE]: usage };
}

/** The result of a finished tool: its `result.content`, or its error's message. */
function resultText(data: Record<string, unknown>): string {
  const result = isRecord(data.result) ? data.result : {};
  const error = isRecord(data.error) ? data.error : {};
  const text = result.content ?? error.message ?? data.result ?? '';
  return typeof text === 'string' ? text : JSON.stringify(text);
}

/** The event log: user messages, assistant messages with their tool requests, and each finished tool's result. */
function fromEvents(events: Event[]): { messages: Message[]; model?: string } {
  const messages: Message[] = [];
  let model: string | undefined;
  let assistant: AssistantMessage | undefined;
  for (const { type, data } of events) {
    // A subagent's own messages and tools are not the session's conversation.
    if (data.parentToolCallId !== undefined && type !== 'session.start') continue;
    if (type === 'session.start' && typeof data.selectedModel === 'string') model = data.selectedModel;
    else if (type === 'session.model_change' && typeof data.newModel === 'string') model = data.newModel;
    else if (type === 'user.message') {
      const text = typeof data.transformedContent === 'string' ? data.transformedContent : data.content;
      messages.push({ role: 'user', content: String(text ?? '') });
    } else if (type === 'assistant.message') {
      const requests = Array.isArray(data.toolRequests) ? data.toolRequests.filter(isRecord) : [];
      const calls = requests.map((r) => ({
        id: String(r.toolCallId),
        name: String(r.name),
        arguments: parseToolArguments(r.arguments ?? {}),
      }));
      const reasoning = typeof data.reasoningText === 'string' ? data.reasoningText : '';
      const text = typeof data.content === 'string' ? data.content : '';
      assistant = {
        role: 'assistant',
        content:
          reasoning === ''
            ? text
            : [
                { type: 'reasoning', text: reasoning },
                { type: 'text', text },
              ],
        ...(calls.length === 0 ? {} : { toolCalls: calls }),
      };
      withUsage(assistant, usageOf(data));
      if (typeof data.model === 'string') model = data.model;
      messages.push(assistant);
    } else if (
      type === 'assistant.usage' &&
      assistant !== undefined &&
      assistant.metadata?.[REPORTED_USAGE] === undefined
    ) {
      withUsage(assistant, usageOf(data));
      if (typeof data.model === 'string') model = data.model;
    } else if (type === 'tool.execution_complete' && typeof data.toolCallId === 'string') {
      const name = typeof data.toolName === 'string' ? { toolName: data.toolName } : {};
      const failed = data.success === false ? { isError: true } : {};
      messages.push({ role: 'tool', toolCallId: data.toolCallId, content: resultText(data), ...name, ...failed });
    }
  }
  return { messages, ...(model === undefined ? {} : { model }) };
}

/** The older timeline: user and copilot entries, and each `tool_call_completed` entry as a call of the reply before it with its result. */
function fromTimeline(timeline: unknown[]): Message[] {
  const messages: Message[] = [];
  let turn: { assistant: AssistantMessage; results: ToolMessage[] } | undefined;
  const close = () => {
    if (turn !== undefined) messages.push(turn.assistant, ...turn.results);
    turn = undefined;
  };
  for (const e of timeline) {
    if (!isRecord(e)) continue;
    if (e.type === 'user' || e.type === 'copilot') {
      close();
      if (e.type === 'user') messages.push({ role: 'user', content: String(e.text ?? '') });
      else turn = { assistant: { role: 'assistant', content: String(e.text ?? '') }, results: [] };
    } else if (e.type === 'tool_call_completed' && typeof e.callId === 'string') {
      turn ??= { assistant: { role: 'assistant', content: '' }, results: [] };
      const name = String(e.name);
      turn.assistant.toolCalls = [
        ...(turn.assistant.toolCalls ?? []),
        { id: e.callId, name, arguments: e.arguments ?? {} },
      ];
      const result = isRecord(e.result) ? e.result : {};
      const text = typeof result.log === 'string' ? result.log : JSON.stringify(e.result ?? '');
      turn.results.push({
        role: 'tool',
        toolCallId: e.callId,
        toolName: name,
        content: text,
        ...(result.type !== undefined && result.type !== 'success' ? { isError: true } : {}),
      });
    }
  }
  close();
  return messages;
}

/**
 * A GitHub Copilot CLI session as our messages. The event log (JSON lines from
 * `session.start`): `user.message` events become user text (as sent: `transformedContent`
 * when the CLI added context), `assistant.message` events assistant messages with their
 * `toolRequests` as calls (reasoning text kept as a reasoning part) and the usage they report
 * as `metadata.reportedUsage`, `tool.execution_complete` events the results (a failed tool
 * as an error result); events of subagents (`parentToolCallId`) and the CLI's own events are
 * left out. The older JSON `{ sessionId, chatMessages, timeline }`: `chatMessages` when it
 * holds the model's messages (OpenAI chat), else the `timeline`'s user and copilot entries,
 * each `tool_call_completed` a call of the reply before it, with its result (`result.log`).
 *
 * @example
 * const events = text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
 * const { messages, model } = fromCopilotCli(events);
 */
export function fromCopilotCli(data: unknown, options: ConvertOptions = {}): LogReading {
  if (Array.isArray(data)) {
    const { messages, model } = fromEvents(data.filter(isEvent));
    return {
      messages: checkedTranscript(messages, options),
      ...logExtras({ model, reported: lastReportedUsage(messages) }),
    };
  }
  const session = isRecord(data) ? data : {};
  const chat = Array.isArray(session.chatMessages) ? session.chatMessages : [];
  const timeline = Array.isArray(session.timeline) ? session.timeline : [];
  return { messages: checkedTranscript(chat.length > 0 ? chatMessages(chat) : fromTimeline(timeline), options) };
}
