import type { ConvertOptions } from './checked-transcript.js';
import { fromOpenAIChat } from './from-openai-chat.js';
import { isRecord } from './invalid-input.js';
import type { LogReading } from './log-reading.js';

/** True for a tau-bench results file: a list of `{ task_id, reward, traj, ... }` entries. */
export function isTauBenchResults(data: unknown): boolean {
  return (
    Array.isArray(data) &&
    data.length > 0 &&
    data.every((e) => isRecord(e) && 'task_id' in e && Array.isArray(e.traj) && 'reward' in e)
  );
}

/**
 * A tau-bench trajectory as OpenAI chat messages the chat reader takes: runs that wrote tool
 * calls with no `id` and tool replies with no `tool_call_id` (some agents of its forks do)
 * get ids, each reply answering the oldest call of the turn still unanswered (`call_<m>_<n>`).
 */
function withIds(traj: unknown[]): unknown[] {
  let open: string[] = [];
  return traj.map((m, i) => {
    if (!isRecord(m)) return m;
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      open = [];
      const calls = m.tool_calls.map((c, j) => {
        if (!isRecord(c) || (typeof c.id === 'string' && c.id !== '')) return c;
        const id = `call_${i}_${j}`;
        open.push(id);
        return { ...c, id };
      });
      return { ...m, tool_calls: calls };
    }
    if (m.role === 'tool' && (m.tool_call_id === undefined || m.tool_call_id === null)) {
      const id = open.shift();
      return id === undefined ? m : { ...m, tool_call_id: id };
    }
    if (m.role !== 'tool') open = [];
    return m;
  });
}

/**
 * One trajectory of a tau-bench results file (`entry`, default the first) as our messages:
 * its `traj`, OpenAI chat messages. A call id the run reused after its earlier call was
 * answered is paired with the latest open call (see the converters' options); calls and
 * replies without ids are paired in order. The file does not name the model.
 *
 * @example
 * const results = JSON.parse(await readFile('results.json', 'utf8'));
 * const { messages } = fromTauBench(results, { entry: 3 });
 */
export function fromTauBench(data: unknown, options: ConvertOptions & { entry?: number } = {}): LogReading {
  const { entry = 0, ...convert } = options;
  const chosen = Array.isArray(data) ? data[entry] : undefined;
  const traj = isRecord(chosen) && Array.isArray(chosen.traj) ? chosen.traj : [];
  return { messages: fromOpenAIChat(withIds(traj), convert) };
}
