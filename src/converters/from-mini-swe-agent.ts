import type { Message } from '../messages/types.js';
import { isRecord } from './invalid-input.js';
import { chatUsage, type LogReading, logExtras, type ReportedUsage, withReportedUsage } from './log-reading.js';

/** True for a mini-swe-agent trajectory: an object with `messages` and a `trajectory_format` 'mini-swe-agent-...'. */
export function isMiniSweAgentTrajectory(data: unknown): boolean {
  return (
    isRecord(data) &&
    Array.isArray(data.messages) &&
    typeof data.trajectory_format === 'string' &&
    data.trajectory_format.startsWith('mini-swe-agent')
  );
}

/**
 * The model a mini-swe-agent trajectory names (`info.config.model.model_name`) and the usage
 * of its newest model call (the last assistant message's `extra.response.usage`; see
 * {@link withMiniSweAgentUsage} for every call's). Its
 * `messages` are OpenAI chat messages (with an `extra` field the model never saw), read by
 * the chat reader; the closing `exit` message of format 1.1 is no message a model reads.
 */
export function miniSweAgentExtras(data: unknown): Omit<LogReading, 'messages'> {
  if (!isRecord(data)) return {};
  const config = isRecord(data.info) && isRecord(data.info.config) ? data.info.config : {};
  const name = isRecord(config.model) ? config.model.model_name : undefined;
  return logExtras({
    model: typeof name === 'string' ? name : undefined,
    reported: usagesOf(data).findLast((u) => u !== undefined),
  });
}

/** Each assistant message's usage (`extra.response.usage`, OpenAI chat's form), in order. */
function usagesOf(data: Record<string, unknown>): (ReportedUsage | undefined)[] {
  const messages = Array.isArray(data.messages) ? data.messages : [];
  return messages
    .filter((m) => isRecord(m) && m.role === 'assistant')
    .map((m) => (isRecord(m.extra) && isRecord(m.extra.response) ? chatUsage(m.extra.response.usage) : undefined));
}

/** The messages read from a mini-swe-agent trajectory, each assistant message with its model call's usage as `metadata.reportedUsage`. */
export function withMiniSweAgentUsage(messages: Message[], data: unknown): Message[] {
  return isRecord(data) ? withReportedUsage(messages, usagesOf(data)) : messages;
}
