import type { Message } from '../messages/types.js';
import type { FinishReason } from './model-response.js';
import type { RunUsage } from './run-usage.js';

/** What a run resolves to. */
export interface AgentResult {
  runId: string;
  /** The text of the last assistant message. */
  text: string;
  /** The run's transcript, compacted as the run went. */
  messages: Message[];
  usage: RunUsage;
  /** Agent steps taken: model calls with purpose 'generate' (a summarizer's calls are not steps). */
  steps: number;
  finishReason: FinishReason;
}
