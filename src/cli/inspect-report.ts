import { compactMessages } from '../compaction/compact-messages.js';
import { compactorStrategy } from '../compaction/compactor-strategy.js';
import { DEFAULT_THRESHOLD_PERCENT, thresholdTokens } from '../compaction/options.js';
import { pruneToolResultsStrategy } from '../compaction/prune-tool-results.js';
import type { Message } from '../messages/types.js';
import { estimateTokens, messageTokens, tokenProfile } from '../models/estimate-tokens.js';
import { getModelInfo } from '../models/registry.js';
import { type TokenizerLabel, tokenizerLabel } from './tokenizer-label.js';

/** One bar of the chart: a role's or a tool's messages and tokens. */
export interface TokenRow {
  name: string;
  messages: number;
  tokens: number;
}

/** What `lousho inspect` reports (and prints with --json). */
export interface InspectReport {
  file: string;
  model: string;
  tokenizer: TokenizerLabel;
  messages: number;
  /** The request's size: the messages plus the request's framing. */
  tokens: number;
  /** The context window, and where it came from. */
  contextWindow: number;
  contextWindowSource: 'option' | 'model' | 'fallback';
  thresholdTokens: number;
  byRole: TokenRow[];
  /** Tool results and the calls that asked for them, per tool name. */
  byTool: TokenRow[];
  /** Tokens left after pruning every tool result but the newest turn's, and how many results. */
  prune: { tokensAfter: number; results: number };
  /**
   * Tokens left after the compactor summarizes old turns as it would at this size, with its
   * truncating summarizer (no model call); the size itself when it would not summarize.
   */
  summarize: { tokensAfter: number; messagesSummarized: number };
  /** USD for sending the transcript once, when the model's price is known. */
  inputCostUsd?: number;
}

function add(rows: Map<string, TokenRow>, name: string, tokens: number, counts: boolean): void {
  const row = rows.get(name) ?? { name, messages: 0, tokens: 0 };
  if (counts) row.messages++;
  row.tokens += tokens;
  rows.set(name, row);
}

/** Counts a transcript for `lousho inspect`: tokens per role and per tool, the window, and what compaction would save. */
export async function inspectReport(
  file: string,
  messages: Message[],
  options: { model: string; contextWindow?: number; thresholdPercent?: number },
): Promise<InspectReport> {
  const { model } = options;
  const profile = tokenProfile(model);
  const byRole = new Map<string, TokenRow>();
  const byTool = new Map<string, TokenRow>();
  const callNames = new Map<string, string>();
  for (const m of messages) {
    const tokens = messageTokens(m, profile);
    add(byRole, m.role, tokens, true);
    if (m.role === 'assistant') for (const call of m.toolCalls ?? []) callNames.set(call.id, call.name);
    if (m.role === 'tool') add(byTool, m.toolName ?? callNames.get(m.toolCallId) ?? 'unknown', tokens, true);
  }
  const info = getModelInfo(model);
  const contextWindow = options.contextWindow ?? info?.contextWindow ?? 128_000;
  const source = options.contextWindow !== undefined ? 'option' : info !== undefined ? 'model' : 'fallback';
  const threshold = thresholdTokens(contextWindow, options.thresholdPercent ?? DEFAULT_THRESHOLD_PERCENT);
  const tokens = estimateTokens(messages, model);
  const common = { model, contextWindow, protectedTokens: 0 };
  const pruned = await compactMessages(messages, { ...common, strategy: pruneToolResultsStrategy() });
  // The compactor as it would run at this size (the window set to the transcript's own size,
  // so it is over the threshold), with its truncating summarizer: no model is called.
  const summarized = await compactMessages(messages, {
    ...common,
    contextWindow: Math.max(tokens, 1),
    strategy: compactorStrategy(),
  });
  const kept = summarized.appliedStrategy === undefined && summarized.error === undefined;
  const summaryIndex = kept ? summarized.messages.findIndex((m) => m.metadata?.summary === true) : -1;
  const report: InspectReport = {
    file,
    model,
    tokenizer: tokenizerLabel(model),
    messages: messages.length,
    tokens,
    contextWindow,
    contextWindowSource: source,
    thresholdTokens: threshold,
    byRole: [...byRole.values()],
    byTool: [...byTool.values()].sort((a, b) => b.tokens - a.tokens),
    prune: { tokensAfter: pruned.tokensAfter, results: pruned.prunedToolCallIds.length },
    summarize: {
      tokensAfter: summaryIndex < 0 ? tokens : summarized.tokensAfter,
      messagesSummarized: summaryIndex < 0 ? 0 : messages.length - (summarized.messages.length - 1),
    },
  };
  if (info?.inputPricePerMillion !== undefined) report.inputCostUsd = (tokens * info.inputPricePerMillion) / 1e6;
  return report;
}
