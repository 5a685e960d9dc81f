import { checkOptions } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';

/**
 * Read-only token tracking: what a transcript uses against a budget. It never changes
 * the messages; the Compactor reads it to decide whether to act.
 */

/** The default share of the budget above which the Compactor acts. */
export const DEFAULT_SOFT_THRESHOLD = 0.7;

/** Options of new TokenBudget(). */
export interface TokenBudgetOptions<M> {
  /** The budget in tokens: the hard limit (a context window, or what is left of it). */
  budgetTokens: number;
  /** The share of the budget that counts as getting full. In (0, 1]; default 0.7. */
  softThreshold?: number;
  /** Tokens of one message. Cache it if counting is costly. */
  countTokens: (message: M) => number;
}

/** What a transcript uses against its budget. */
export interface BudgetUsage {
  /** Tokens of the messages: the sum of countTokens over them. */
  usedTokens: number;
  /** The budget in tokens, the hard limit. */
  budgetTokens: number;
  /** floor(budgetTokens * softThreshold). */
  softLimitTokens: number;
  /** Tokens left before the hard limit (negative when over it). */
  remainingTokens: number;
  /** True when usedTokens is above softLimitTokens. */
  overSoftLimit: boolean;
  /** True when usedTokens is above budgetTokens. */
  overHardLimit: boolean;
}

function checkShare(value: number, name: string): void {
  if (!(value > 0 && value <= 1)) throw configError(`${name} must be in (0, 1], got ${value}.`);
}

/** Token tracking for one budget. */
export class TokenBudget<M> {
  /** The budget in tokens, the hard limit. */
  readonly budgetTokens: number;
  /** The share of the budget that counts as getting full, in (0, 1]. */
  readonly softThreshold: number;
  readonly #count: (message: M) => number;

  constructor(options: TokenBudgetOptions<M>) {
    checkOptions<TokenBudgetOptions<M>>(options, 'new TokenBudget()', ['budgetTokens', 'softThreshold', 'countTokens']);
    if (!(options.budgetTokens > 0))
      throw configError(`budgetTokens must be a positive number, got ${options.budgetTokens}.`);
    this.budgetTokens = options.budgetTokens;
    this.softThreshold = options.softThreshold ?? DEFAULT_SOFT_THRESHOLD;
    checkShare(this.softThreshold, 'softThreshold');
    this.#count = options.countTokens;
  }

  /** The soft limit in tokens. */
  get softLimitTokens(): number {
    return Math.floor(this.budgetTokens * this.softThreshold);
  }

  /** Tokens of the messages. */
  used(messages: readonly M[]): number {
    let total = 0;
    for (const message of messages) total += this.#count(message);
    return total;
  }

  /** What the messages use against the budget. */
  usage(messages: readonly M[]): BudgetUsage {
    const usedTokens = this.used(messages);
    return {
      usedTokens,
      budgetTokens: this.budgetTokens,
      softLimitTokens: this.softLimitTokens,
      remainingTokens: this.budgetTokens - usedTokens,
      overSoftLimit: usedTokens > this.softLimitTokens,
      overHardLimit: usedTokens > this.budgetTokens,
    };
  }
}
