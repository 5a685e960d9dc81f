import type { FinishReason } from '../contracts/model-response.js';

/** A Messages API stop_reason as our finish reason; pause_turn and unknown reasons are 'other'. */
export function anthropicFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
      return 'length';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}
