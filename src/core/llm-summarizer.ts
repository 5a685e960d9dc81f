import type { LLMProvider } from '../contracts/llm-provider.js';
import { checkNumber, checkOptions } from '../errors/check-options.js';
import { LoushoError, toError } from '../errors/lousho-error.js';
import { summaryRequestText } from '../messages/render.js';
import { type SummarizeContext, type Summarizer, summaryText, TruncatingSummarizer } from './summarizer.js';
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
  return summaryText(response.text, `The summarizer ${provider.provider}/${provider.modelId}`);
}

/** Options of new LLMSummarizer(). */
export interface LLMSummarizerOptions<M> {
  /**
   * The summarizer model, typically cheaper than the agent's: an LLMProvider. A
   * "provider/model" spec is resolved by the layer above: `resolveProvider('openai/gpt-4o-mini')`,
   * or pass the spec to createAgent({ summarizer }) / twoPhaseStrategy({ model }).
   */
  model: LLMProvider;
  /** The instruction (system message); DEFAULT_SUMMARY_PROMPT asks for facts, actions and the open question, verbatim. */
  prompt?: string;
  /** maxOutputTokens of the summary call. */
  maxOutputTokens?: number;
  /** Used when the call throws or returns no usable text; a TruncatingSummarizer by default. */
  fallback?: Summarizer<M>;
  /** Told about each fallback, with the reason. */
  onFallback?: (error: Error) => void;
}

function isProvider(value: unknown): value is LLMProvider {
  const v = value as Partial<LLMProvider> | null;
  return typeof v === 'object' && v !== null && typeof v.generate === 'function' && typeof v.stream === 'function';
}

/**
 * A summarizer that asks a model for a structured summary (facts established, actions
 * taken, the open question, verbatim where possible): one call, no tools. When the call
 * throws or returns nothing usable, it falls back to a TruncatingSummarizer instead of
 * failing the turn.
 *
 * @example
 * new Compactor({ adapter, budgetTokens: 32_000, summarizer: new LLMSummarizer({ model: resolveProvider('openai/gpt-4o-mini') }) });
 */
export class LLMSummarizer<M = unknown> implements Summarizer<M> {
  readonly #options: LLMSummarizerOptions<M>;
  /** The summarizer's provider. */
  readonly provider: LLMProvider;
  readonly #fallback: Summarizer<M>;

  constructor(options: LLMSummarizerOptions<M>) {
    checkOptions<LLMSummarizerOptions<M>>(options, 'new LLMSummarizer()', [
      'model',
      'prompt',
      'maxOutputTokens',
      'fallback',
      'onFallback',
    ]);
    checkNumber(options?.maxOutputTokens, 'maxOutputTokens', 'new LLMSummarizer()', { min: 1, integer: true });
    const model = (options as Partial<LLMSummarizerOptions<M>> | null)?.model as unknown;
    if (typeof model === 'string' && model !== '') {
      throw new LoushoError(
        'LOUSHO_CONFIG_INVALID',
        `LLMSummarizer takes an LLMProvider: new LLMSummarizer({ model: resolveProvider('${model}') }).`,
      );
    }
    if (!isProvider(model)) {
      throw new LoushoError(
        'LOUSHO_CONFIG_INVALID',
        "LLMSummarizer needs a model, an LLMProvider: new LLMSummarizer({ model: resolveProvider('openai/gpt-4o-mini') }).",
      );
    }
    this.#options = options;
    this.provider = model;
    this.#fallback = options.fallback ?? new TruncatingSummarizer<M>();
  }

  /** The conversation as the summarizer's user message. */
  static conversation<T>(messages: readonly T[], toText: (m: T) => string): string {
    return summaryRequestText(messages.map(toText).join('\n\n'));
  }

  /** Asks the model for the summary; on failure (not an abort) reports onFallback and uses the fallback. */
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
