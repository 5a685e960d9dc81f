import { isRecord } from './invalid-input.js';
import { type LogReading, logExtras, numberOf, reportedUsage } from './log-reading.js';

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
 * of its newest model call (the last assistant message's `extra.response.usage`). Its
 * `messages` are OpenAI chat messages (with an `extra` field the model never saw), read by
 * the chat reader; the closing `exit` message of format 1.1 is no message a model reads.
 */
export function miniSweAgentExtras(data: unknown): Omit<LogReading, 'messages'> {
  if (!isRecord(data)) return {};
  const config = isRecord(data.info) && isRecord(data.info.config) ? data.info.config : {};
  const name = isRecord(config.model) ? config.model.model_name : undefined;
  const messages = Array.isArray(data.messages) ? data.messages : [];
  const last = messages.findLast((m) => isRecord(m) && m.role === 'assistant' && isRecord(m.extra));
  const response = isRecord(last?.extra) && isRecord(last.extra.response) ? last.extra.response : {};
  const usage = isRecord(response.usage) ? response.usage : {};
  const prompt = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completion = isRecord(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  return logExtras({
    model: typeof name === 'string' ? name : undefined,
    reported: reportedUsage({
      inputTokens: numberOf(usage.prompt_tokens),
      outputTokens: numberOf(usage.completion_tokens),
      cacheReadTokens: numberOf(prompt.cached_tokens),
      reasoningTokens: numberOf(completion.reasoning_tokens),
    }),
  });
}
