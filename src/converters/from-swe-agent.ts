import type { ConvertOptions } from './checked-transcript.js';
import { fromOpenAIChat } from './from-openai-chat.js';
import { isRecord } from './invalid-input.js';
import { type LogReading, logExtras } from './log-reading.js';

/** True for a SWE-agent `.traj` file: an object with the `history` the model saw and the `trajectory` of steps. */
export function isSweAgentTrajectory(data: unknown): boolean {
  return isRecord(data) && Array.isArray(data.history) && Array.isArray(data.trajectory);
}

/** The model a trajectory's replay config names, when it does. */
function modelOf(data: Record<string, unknown>): string | undefined {
  let config = data.replay_config;
  if (typeof config === 'string') {
    try {
      config = JSON.parse(config);
    } catch {
      return undefined;
    }
  }
  const agent = isRecord(config) && isRecord(config.agent) ? config.agent : undefined;
  const name = isRecord(agent?.model) ? agent.model.name : undefined;
  return typeof name === 'string' ? name : undefined;
}

/**
 * A SWE-agent trajectory (`.traj`) as our messages: its `history`, which is OpenAI chat
 * messages with SWE-agent's own fields (`agent`, `message_type`, `thought`, `action`,
 * `is_demo`, which the model never saw and are left out). Both forms are read: the text form,
 * where the model's commands are in its text, and the function-calling form, whose tool
 * messages name their calls in `tool_call_ids` (one tool message per id). The model is taken
 * from `replay_config` when the file has one; `trajectory` repeats the history step by step
 * and is not read.
 *
 * @example
 * const { messages } = fromSweAgent(JSON.parse(await readFile('run.traj', 'utf8')));
 */
export function fromSweAgent(data: unknown, options: ConvertOptions = {}): LogReading {
  const history = isRecord(data) && Array.isArray(data.history) ? data.history : [];
  const chat = history.flatMap((m) => {
    if (!isRecord(m) || m.role !== 'tool' || !Array.isArray(m.tool_call_ids) || m.tool_call_id !== undefined)
      return [m];
    return m.tool_call_ids.map((id) => ({ role: 'tool', tool_call_id: id, content: m.content }));
  });
  return {
    messages: fromOpenAIChat(chat, options),
    ...logExtras({ model: isRecord(data) ? modelOf(data) : undefined }),
  };
}
