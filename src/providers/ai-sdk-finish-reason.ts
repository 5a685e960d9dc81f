import type { FinishReason } from '../contracts/model-response.js';
import type { AISDKFinishReason } from './ai-sdk-spec.js';

/** An AI SDK finish reason of either shape as ours; 'error', 'unknown', 'interrupted' and the like are 'other'. */
export function aiSDKFinishReason(reason: AISDKFinishReason | undefined): FinishReason {
  const unified = typeof reason === 'string' ? reason : reason?.unified;
  switch (unified) {
    case 'stop':
    case 'tool-calls':
    case 'length':
    case 'content-filter':
      return unified;
    default:
      return 'other';
  }
}
