import { parseToolArguments } from '../messages/tool-arguments.js';
import type { Message, ToolCall } from '../messages/types.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { isRecord } from './invalid-input.js';
import {
  chatUsage,
  type LogReading,
  logExtras,
  numberOf,
  REPORTED_USAGE,
  type ReportedUsage,
  reportedUsage,
} from './log-reading.js';

type Event = Record<string, unknown>;

/** True for an OpenHands event stream: a list of events with a numeric `id`, a `source` and an `action` or `observation`. */
export function isOpenHandsEvents(data: unknown): boolean {
  return (
    Array.isArray(data) &&
    data.length > 0 &&
    data.every(
      (e) =>
        isRecord(e) &&
        typeof e.id === 'number' &&
        typeof e.source === 'string' &&
        (typeof e.action === 'string' || typeof e.observation === 'string'),
    )
  );
}

function choiceMessage(response: Record<string, unknown>): Record<string, unknown> {
  const choice = Array.isArray(response.choices) ? response.choices[0] : undefined;
  return isRecord(choice) && isRecord(choice.message) ? choice.message : {};
}

function callsOf(message: Record<string, unknown>): ToolCall[] {
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  return calls.filter(isRecord).map((c) => {
    const fn = isRecord(c.function) ? c.function : {};
    return { id: String(c.id), name: String(fn.name), arguments: parseToolArguments(fn.arguments) };
  });
}

/** A response's usage: its own `usage`, else the event's `llm_metrics` entry for its id. */
function responseUsage(response: Record<string, unknown>, event: Event): ReportedUsage | undefined {
  const own = chatUsage(response.usage);
  if (own !== undefined) return own;
  const metrics = isRecord(event.llm_metrics) ? event.llm_metrics : {};
  const usages = Array.isArray(metrics.token_usages) ? metrics.token_usages : [];
  const entry = usages.findLast((u) => isRecord(u) && u.response_id === response.id);
  if (!isRecord(entry)) return undefined;
  return reportedUsage({
    inputTokens: numberOf(entry.prompt_tokens),
    outputTokens: numberOf(entry.completion_tokens),
    cacheReadTokens: numberOf(entry.cache_read_tokens),
    cacheWriteTokens: numberOf(entry.cache_write_tokens),
  });
}

/**
 * An OpenHands event stream (a saved trajectory, `events` of a conversation) as our
 * messages, with the model and usage of its newest model response. Actions that came from
 * a model response (`tool_call_metadata.model_response`) become one assistant message per
 * response, with its text and every tool call it made; observations become the results of
 * their `tool_call_id`; `message` actions become user or assistant text and a `system`
 * action the system message. Agent-state changes and other events the model never saw are
 * left out. A closing `finish` call has no observation: it is left waiting. Each assistant
 * message carries its response's usage (`usage`, else the event's `llm_metrics`) as
 * `metadata.reportedUsage`.
 *
 * @example
 * const { messages, model } = fromOpenHands(JSON.parse(await readFile('trajectory.json', 'utf8')));
 */
export function fromOpenHands(events: readonly unknown[], options: ConvertOptions = {}): LogReading {
  const messages: Message[] = [];
  const responses = new Set<unknown>();
  let last: ReportedUsage | undefined;
  let model: string | undefined;
  for (const e of events) {
    if (!isRecord(e)) continue;
    const metadata = isRecord(e.tool_call_metadata) ? e.tool_call_metadata : undefined;
    const args: Event = isRecord(e.args) ? e.args : {};
    if (typeof e.observation === 'string' && metadata !== undefined) {
      const content = typeof e.content === 'string' ? e.content : JSON.stringify(e.content ?? '');
      const name = typeof metadata.function_name === 'string' ? { toolName: metadata.function_name } : {};
      messages.push({ role: 'tool', toolCallId: String(metadata.tool_call_id), content, ...name });
    } else if (typeof e.action === 'string' && metadata !== undefined && isRecord(metadata.model_response)) {
      const response = metadata.model_response;
      if (responses.has(response.id)) continue; // one response's other calls
      responses.add(response.id);
      const usage = responseUsage(response, e);
      if (usage !== undefined) last = usage;
      if (typeof response.model === 'string') model = response.model;
      const message = choiceMessage(response);
      const calls = callsOf(message);
      const content = typeof message.content === 'string' ? message.content : '';
      messages.push({
        role: 'assistant',
        content,
        ...(calls.length === 0 ? {} : { toolCalls: calls }),
        ...(usage === undefined ? {} : { metadata: { [REPORTED_USAGE]: usage } }),
      });
    } else if (e.action === 'message' && typeof args.content === 'string') {
      messages.push({ role: e.source === 'user' ? 'user' : 'assistant', content: args.content });
    } else if (e.action === 'system' && typeof args.content === 'string') {
      messages.push({ role: 'system', content: args.content });
    }
  }
  return { messages: checkedTranscript(messages, options), ...logExtras({ model, reported: last }) };
}
