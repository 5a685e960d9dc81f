import type { Message } from '../messages/types.js';
import type { Usage } from './usage.js';

/**
 * What a provider's own compaction returns (`LLMProvider.compact()`): the messages that
 * take the place of the ones it was sent. They hold one compaction part (an Anthropic
 * compaction block, an OpenAI compaction item) and may keep some of the messages sent (the
 * user messages OpenAI's compact endpoint keeps); only the provider that wrote them can read
 * them, so they go back to it unchanged.
 */
export interface ProviderCompactionResponse {
  /** The compacted window, in order: it replaces every non-system message of the request. */
  messages: Message[];
  /** The readable summary, when the provider shows one (Anthropic); absent when it is encrypted (OpenAI). */
  summary?: string;
  /** The tokens the compaction call cost; a count the provider did not report is undefined. */
  usage: Usage;
  /** The model that compacted, when the provider said so. */
  modelId?: string;
}
