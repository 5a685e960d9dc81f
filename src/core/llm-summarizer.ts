import type { LLMProvider, ModelSpec } from '../contracts/llm-provider.js';
import { LoushoError, toError } from '../errors/lousho-error.js';
import { summaryRequestText } from '../messages/render.js';
import { resolveProvider } from '../providers/resolve-provider.js';
import { type SummarizeContext, type Summarizer, TruncatingSummarizer } from './summarizer.js';
import { DEFAULT_SUMMARY_PROMPT } from './summary-prompt.js';

/**
 * One summary call: `prompt` as the system message, `conversation` as the user message,
 * no tools. Resolves to the trimmed text; rejects when the call fails or returns no text.
 */
export async function summarizeWithModel(
  provider: LLMProvider,
  conversation: string,
  options: {
    prompt?: string | undefined;
    maxOutputTokens?: number | undefined;
    abortSignal?: AbortSignal | undefined;
    onModelCall?: SummarizeContext<unknown>['onModelCall'];
  } = {},
): Promise<string> {
  const startTime = Date.now();
  const response = await provider.generate({
    model: provider.modelId,
    messages: [
      { role: 'system', content: options.prompt ?? DEFAULT_SUMMARY_PROMPT },
      { role: 'user', content: conversation },
    ],
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
  });
  options.onModelCall?.({
    provider: provider.provider,
    model: provider.modelId,
    usage: response.usage,
    purpose: 'compaction',
    startTime,
    endTime: Date.now(),
  });
  const text = response.text.trim();
  if (text === '') {
    throw new LoushoError(
      'LOUSHO_PROVIDER_FAILED',
      `The summarizer ${provider.provider}/${provider.modelId} returned no text.`,
    );
  }
  return text;
}

export interface LLMSummarizerOptions<M> {
  /** The summarizer model: an LLMProvider or a "provider/model" spec, typically cheaper than the agent's. */
  model: ModelSpec;
  /** The instruction (system message); DEFAULT_SUMMARY_PROMPT asks for facts, actions and the open question, verbatim. */
  prompt?: string;
  /** maxOutputTokens of the summary call. */
  maxOutputTokens?: number;
  /** Used when the call throws or returns no usable text; a TruncatingSummarizer by default. */
  fallback?: Summarizer<M>;
  /** Told about each fallback, with the reason. */
  onFallback?: (error: Error) => void;
}

/**
 * A summarizer that asks a model for a structured summary (facts established, actions
 * taken, the open question, verbatim where possible): one call, no tools. When the call
 * throws or returns nothing usable, it falls back to a TruncatingSummarizer instead of
 * failing the turn.
 *
 * @example
 * new Compactor({ adapter, budgetTokens: 32_000, summarizer: new LLMSummarizer({ model: 'openai/gpt-4o-mini' }) });
 */
export class LLMSummarizer<M = unknown> implements Summarizer<M> {
  readonly #options: LLMSummarizerOptions<M>;
  #provider: LLMProvider | undefined;
  readonly #fallback: Summarizer<M>;

  constructor(options: LLMSummarizerOptions<M>) {
    if (typeof options !== 'object' || options === null || options.model === undefined || options.model === '') {
      throw new LoushoError(
        'LOUSHO_CONFIG_INVALID',
        "LLMSummarizer needs a model, e.g. new LLMSummarizer({ model: 'openai/gpt-4o-mini' }).",
      );
    }
    this.#options = options;
    this.#fallback = options.fallback ?? new TruncatingSummarizer<M>();
  }

  /** The summarizer's provider, resolved on first use. */
  get provider(): LLMProvider {
    this.#provider ??= resolveProvider(this.#options.model);
    return this.#provider;
  }

  /** The conversation as the summarizer's user message. */
  static conversation<T>(messages: readonly T[], toText: (m: T) => string): string {
    return summaryRequestText(messages.map(toText).join('\n\n'));
  }

  async summarize(messages: readonly M[], context: SummarizeContext<M>): Promise<string> {
    try {
      return await summarizeWithModel(this.provider, LLMSummarizer.conversation(messages, context.toText), {
        prompt: this.#options.prompt,
        maxOutputTokens: this.#options.maxOutputTokens,
        abortSignal: context.abortSignal,
        onModelCall: context.onModelCall,
      });
    } catch (error) {
      if (context.abortSignal?.aborted === true) throw error;
      this.#options.onFallback?.(toError(error));
      return this.#fallback.summarize(messages, context);
    }
  }
}
