import type { FinishReason } from '../contracts/model-response.js';

/** A chat-completions finish_reason as ours; unknown reasons are 'other'. */
export function openAIFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}
