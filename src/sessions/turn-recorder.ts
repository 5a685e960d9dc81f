import type { AgentResult } from '../contracts/agent-result.js';
import type { RunCheckpoint } from '../executor/approvals.js';
import type { Message, ToolMessage } from '../messages/types.js';
import type { SessionRecord } from './records.js';
import type { SessionLog } from './session-log.js';

/**
 * Turns a run's checkpoints into the session's records: what the run added since the last
 * save (a step's reply, each tool result as it comes, the step's results in call order), or
 * the whole transcript when a compaction rewrote it. It compares the run's messages with the
 * ones it saved by reference (and content), so a save costs what is new.
 */
export class TurnRecorder {
  readonly #log: SessionLog;
  /** The run's messages as saved, by reference, and the content each had. */
  readonly #seen: Message[];
  #contents: unknown[];
  /** Results saved as they came, not yet part of the saved transcript. */
  readonly #open = new Set<ToolMessage>();
  #step: number;
  #ended = false;

  /** `input` is what the run starts from: the saved transcript, then the open step's saved results. */
  constructor(log: SessionLog, input: readonly Message[], openResults: readonly ToolMessage[]) {
    this.#log = log;
    this.#seen = input.slice(0, input.length - openResults.length);
    this.#contents = this.#seen.map((m) => m.content);
    for (const result of openResults) this.#open.add(result);
    this.#step = log.state.pending?.step ?? 0;
  }

  /** The records that bring the saved transcript to `messages`. */
  #diff(messages: readonly Message[]): SessionRecord[] {
    const seen = this.#seen;
    let same = 0;
    while (same < seen.length && messages[same] === seen[same] && messages[same]?.content === this.#contents[same])
      same++;
    if (same < seen.length) {
      seen.length = 0;
      seen.push(...messages);
      this.#contents = seen.map((m) => m.content);
      this.#open.clear();
      return [{ type: 'rewrite', messages: [...messages] }];
    }
    const records: SessionRecord[] = [];
    for (const message of messages.slice(seen.length)) {
      const result = message.role === 'tool' && this.#open.has(message);
      const last = records.at(-1);
      if (result && last?.type === 'tool.results') last.toolCallIds.push(message.toolCallId);
      else if (result) records.push({ type: 'tool.results', toolCallIds: [message.toolCallId] });
      else if (last?.type === 'messages') last.messages.push(message);
      else records.push({ type: 'messages', messages: [message] });
      if (result) this.#open.delete(message);
      seen.push(message);
      this.#contents.push(message.content);
    }
    return records;
  }

  #reopen(records: SessionRecord[]): SessionRecord[] {
    if (!this.#ended) return records;
    this.#ended = false;
    return [{ type: 'turn.start', turn: this.#log.state.turns }, ...records];
  }

  /** ExecuteParams.onCheckpoint of the run. */
  readonly onCheckpoint = async (point: RunCheckpoint): Promise<void> => {
    switch (point.kind) {
      case 'reply': {
        this.#step++;
        const records = this.#reopen(this.#diff(point.messages));
        const last = point.messages.at(-1);
        const final = last?.role === 'assistant' && (last.toolCalls ?? []).length === 0;
        if (final) {
          records.push({ type: 'turn.done' });
          this.#ended = true;
        }
        return this.#log.append(records, { step: this.#step });
      }
      case 'tools.start':
        return this.#log.append([{ type: 'tools.running', toolCallIds: point.toolCalls.map((c) => c.id) }]);
      case 'tool.result':
        this.#open.add(point.message);
        return this.#log.append([{ type: 'tool.result', message: point.message }]);
      case 'tools.done':
        return this.#log.append(this.#diff(point.messages), { step: this.#step });
    }
  };

  /** Saves how the run ended: paused for approvals, or done (whatever the last checkpoint did not cover). */
  async finish(result: AgentResult): Promise<void> {
    if (result.status === 'awaiting_approval') {
      const approvals = (result.pendingApprovals ?? []).map((a) => ({ ...a }));
      await this.#log.append([{ type: 'approval.requested', approvals }], { step: this.#step });
      return;
    }
    const records = this.#diff(result.messages);
    if (records.length === 0 && this.#ended) return;
    await this.#log.append([...this.#reopen(records), ...(this.#ended ? [] : [{ type: 'turn.done' } as const])], {
      step: this.#step,
    });
    this.#ended = true;
  }
}
