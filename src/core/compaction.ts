import { checkOptions } from '../errors/check-options.js';
import { configError, LoushoError, toError } from '../errors/lousho-error.js';
import { groupTurnsWith, type Turn } from '../messages/turns.js';
import { DEFAULT_SOFT_THRESHOLD, TokenBudget } from './budget.js';
import { type SummarizeContext, type Summarizer, summaryText, TruncatingSummarizer } from './summarizer.js';

export { TruncatingSummarizer } from './summarizer.js';

/** How the Compactor reads and writes one message type. Only the first three are required. */
export interface MessageAdapter<M> {
  /** Tokens of one message (cache it if counting is costly). */
  countTokens(message: M): number;
  /** The message as text, for the summarizer. */
  toText(message: M): string;
  /** The one message that replaces the summarized ones. */
  summaryMessage(summary: string): M;
  /** Ids of the tool calls a message makes, so a call is never separated from its result. */
  callIds?(message: M): readonly string[];
  /** The id of the call a tool result answers. */
  resultId?(message: M): string | undefined;
  /** Messages never drained or summarized (a system prompt, pinned messages). */
  isProtected?(message: M): boolean;
  /**
   * True for a summary this Compactor wrote earlier. Stage 1 never drains a summary (it is
   * the compressed memory of what came before); stage 2 folds it into the next summary.
   */
  isSummary?(message: M): boolean;
}

/** Options of the core Compactor: the message adapter, the budget, and what to keep. */
export interface CompactorOptions<M> {
  /** How to count, render and summarize your message type. */
  adapter: MessageAdapter<M>;
  /** The budget in tokens. */
  budgetTokens: number;
  /** Nothing happens at or below budgetTokens * softThreshold. In (0, 1]; default 0.7. */
  softThreshold?: number;
  /** The newest messages that are never drained or summarized. Default 4. */
  tailMessages?: number;
  /** Writes the summary of stage 2; a TruncatingSummarizer when absent. */
  summarizer?: Summarizer<M>;
  /**
   * What stage 1 does with the oldest turns: 'delete' them (the default), or 'fold' them into
   * the summary with the rest of the head, so a fact stated early (an order id in message 3)
   * reaches the summary instead of being deleted. 'fold' calls the summarizer at every compaction.
   */
  drain?: 'delete' | 'fold';
}

/** What recover() did. */
export type RecoverAction = 'none' | 'drained' | 'summarized';

/** What Compactor.recover() resolves to. */
export interface RecoverResult<M> {
  /** The new transcript; the input array itself when action is 'none'. */
  messages: M[];
  /** What was done: 'drained', 'summarized', or 'none' (at or below the soft limit, for one). */
  action: RecoverAction;
  /** Tokens of the messages before, by adapter.countTokens. */
  tokensBefore: number;
  /** Tokens of the messages after, by adapter.countTokens. */
  tokensAfter: number;
  /** Messages deleted by stage 1. */
  drainedMessages: number;
  /** Messages folded into the summary by stage 2. */
  summarizedMessages: number;
  /** The summary text, when action is 'summarized'. */
  summary?: string;
  /** Why the configured summarizer was not used: it threw or returned no text, and the summary is a truncation. */
  error?: LoushoError;
}

/** The newest messages the Compactor never drains or summarizes, by default. */
export const DEFAULT_TAIL_MESSAGES = 4;

const NO_CALLS: readonly string[] = [];

/**
 * Tail-preserving compaction for any message type. recover() does nothing at or below
 * budgetTokens * softThreshold; above it, the newest `tailMessages` stay exactly as they
 * are, and the older part (the head) goes through two stages:
 *
 * 1. Drain: delete whole turns from the oldest end of the head, at most half of it, and
 *    stop there ('drained') when that gets back under the soft limit. With `drain: 'fold'`
 *    nothing is deleted: those turns go to the summary of stage 2 with the rest.
 * 2. Summarize: pass what remains of the head to the Summarizer and replace it with one
 *    message ('summarized').
 *
 * A tool call is never separated from its result, and protected messages stay in place.
 *
 * @example
 * const compactor = new Compactor({ adapter, budgetTokens: 32_000 });
 * const { messages, action } = await compactor.recover(history);
 */
export class Compactor<M> {
  /** The adapter it was given. */
  readonly adapter: MessageAdapter<M>;
  /** The budget and soft threshold, counting with the adapter. */
  readonly budget: TokenBudget<M>;
  /** The newest messages never drained or summarized. */
  readonly tailMessages: number;
  /** Writes the summary of stage 2. */
  readonly summarizer: Summarizer<M>;
  /** What stage 1 does with the oldest turns: 'delete' or 'fold'. */
  readonly drain: 'delete' | 'fold';

  constructor(options: CompactorOptions<M>) {
    checkOptions<CompactorOptions<M>>(options, 'new Compactor()', [
      'adapter',
      'budgetTokens',
      'softThreshold',
      'tailMessages',
      'summarizer',
      'drain',
    ]);
    if (
      typeof options?.adapter?.countTokens !== 'function' ||
      typeof options.adapter.toText !== 'function' ||
      typeof options.adapter.summaryMessage !== 'function'
    ) {
      throw configError('Compactor needs an adapter with countTokens(), toText() and summaryMessage().');
    }
    this.adapter = options.adapter;
    this.budget = new TokenBudget({
      budgetTokens: options.budgetTokens,
      softThreshold: options.softThreshold ?? DEFAULT_SOFT_THRESHOLD,
      countTokens: (m) => options.adapter.countTokens(m),
    });
    this.tailMessages = options.tailMessages ?? DEFAULT_TAIL_MESSAGES;
    if (!Number.isInteger(this.tailMessages) || this.tailMessages < 0) {
      throw configError(`Compactor: tailMessages must be a whole number >= 0, got ${this.tailMessages}.`);
    }
    this.summarizer = options.summarizer ?? new TruncatingSummarizer<M>();
    this.drain = options.drain ?? 'delete';
    if (this.drain !== 'delete' && this.drain !== 'fold') {
      throw configError(`Compactor: drain must be 'delete' or 'fold', got ${String(this.drain)}.`);
    }
  }

  /** Where the protected tail starts: the newest tailMessages, moved back to the start of a turn they cut. */
  tailStart(messages: readonly M[], turns: readonly Turn[]): number {
    let start = Math.max(0, messages.length - this.tailMessages);
    for (const turn of turns) {
      if (turn.start < start && start < turn.end) {
        start = turn.start;
        break;
      }
    }
    return start;
  }

  /** Compacts `messages` if they are over the soft limit. Never modifies the input. */
  async recover(
    messages: readonly M[],
    options: { abortSignal?: AbortSignal; onModelCall?: SummarizeContext<M>['onModelCall'] } = {},
  ): Promise<RecoverResult<M>> {
    const adapter = this.adapter;
    const counts = messages.map((m) => adapter.countTokens(m));
    const tokensBefore = counts.reduce((a, b) => a + b, 0);
    const target = this.budget.softLimitTokens;
    const none = {
      messages: messages as M[],
      action: 'none' as const,
      tokensBefore,
      tokensAfter: tokensBefore,
      drainedMessages: 0,
      summarizedMessages: 0,
    };
    if (tokensBefore <= target) return none;

    const turns = groupTurnsWith(messages, {
      callIds: (m) => adapter.callIds?.(m) ?? NO_CALLS,
      resultId: (m) => adapter.resultId?.(m),
    });
    const tailStart = this.tailStart(messages, turns);
    const isProtected = (i: number) => adapter.isProtected?.(messages[i] as M) === true;
    const headTurns = turns.filter((t) => t.end <= tailStart && !rangeHas(t, isProtected));

    // Stage 1: drain whole turns from the oldest end, at most half of what could be drained
    // (protected messages and earlier summaries are not), so stage 2 always has something left.
    const isSummary = (i: number) => adapter.isSummary?.(messages[i] as M) === true;
    // In 'fold' mode nothing is deleted: every turn of the head goes to the summary.
    const drainable = this.drain === 'fold' ? [] : headTurns.filter((t) => !rangeHas(t, isSummary));
    const maxDrain = Math.floor(drainable.reduce((n, t) => n + t.end - t.start, 0) / 2);
    const dropped = new Set<number>();
    let used = tokensBefore;
    for (const turn of drainable) {
      if (dropped.size + (turn.end - turn.start) > maxDrain) break;
      for (let i = turn.start; i < turn.end; i++) {
        dropped.add(i);
        used -= counts[i] as number;
      }
      if (used <= target) break;
    }
    const keep = (skip: ReadonlySet<number>) => messages.filter((_, i) => !skip.has(i));
    if (used <= target) {
      return { ...none, messages: keep(dropped), action: 'drained', tokensAfter: used, drainedMessages: dropped.size };
    }

    // Stage 2: summarize what remains of the head.
    const folded: number[] = [];
    for (const turn of headTurns) for (let i = turn.start; i < turn.end; i++) if (!dropped.has(i)) folded.push(i);
    if (folded.length === 0) {
      if (dropped.size === 0) return none;
      return { ...none, messages: keep(dropped), action: 'drained', tokensAfter: used, drainedMessages: dropped.size };
    }
    const context = {
      toText: (m: M) => adapter.toText(m),
      abortSignal: options.abortSignal,
      onModelCall: options.onModelCall,
    };
    const head = folded.map((i) => messages[i] as M);
    let summary: string;
    let error: LoushoError | undefined;
    try {
      summary = summaryText(await this.summarizer.summarize(head, context), 'The summarizer');
    } catch (cause) {
      if (options.abortSignal?.aborted === true) throw cause;
      // Never fail the turn: fall back to truncation, and say why.
      error = LoushoError.isInstance(cause)
        ? cause
        : new LoushoError(
            'LOUSHO_STRATEGY_FAILED',
            `The summarizer failed: ${toError(cause).message}. Truncated instead.`,
            {
              cause,
            },
          );
      summary = await new TruncatingSummarizer<M>().summarize(head, context);
    }
    const replacement = adapter.summaryMessage(summary);
    const gone = new Set([...dropped, ...folded]);
    const out: M[] = [];
    for (let i = 0; i < messages.length; i++) {
      if (i === folded[0]) out.push(replacement);
      if (!gone.has(i)) out.push(messages[i] as M);
    }
    const tokensAfter = this.budget.used(out);
    return {
      messages: out,
      action: 'summarized',
      tokensBefore,
      tokensAfter,
      drainedMessages: dropped.size,
      summarizedMessages: folded.length,
      summary,
      ...(error === undefined ? {} : { error }),
    };
  }
}

function rangeHas(turn: Turn, test: (index: number) => boolean): boolean {
  for (let i = turn.start; i < turn.end; i++) if (test(i)) return true;
  return false;
}
