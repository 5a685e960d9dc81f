import { compactMessages } from '../compaction/compact-messages.js';
import { compactorStrategy } from '../compaction/compactor-strategy.js';
import { pruneToolResultsStrategy } from '../compaction/prune-tool-results.js';
import type { ToolDefinition } from '../contracts/tool-definition.js';
import type { ReportedUsage } from '../converters/log-reading.js';
import { withProviderParts } from '../converters/provider-items.js';
import type { Message } from '../messages/types.js';
import { estimateTokens, messageTokens, tokenProfile, toolDefinitionTokens } from '../models/estimate-tokens.js';
import { isBilled, supersedingIndex } from '../models/provider-billing.js';
import { getModelInfo } from '../models/registry.js';
import { type CliCompactionSizes, cliCompactionSizes } from './compaction-defaults.js';
import { type TokenizerLabel, tokenizerLabel } from './tokenizer-label.js';

/** One bar of the chart: a role's or a tool's messages and tokens. */
export interface TokenRow {
  name: string;
  messages: number;
  tokens: number;
}

/** What `lousho inspect` reports (and prints with --json). */
export interface InspectReport extends CliCompactionSizes {
  file: string;
  model: string;
  /** Where the model came from: --model, the file (a request body's `model`, a log's), or gpt-4o when neither names one. */
  modelSource: 'option' | 'file' | 'default';
  tokenizer: TokenizerLabel;
  messages: number;
  /** The request's size as the provider bills it: the messages, the tool definitions and the request's framing. */
  tokens: number;
  byRole: TokenRow[];
  /** Tool results and the calls that asked for them, per tool name. */
  byTool: TokenRow[];
  /** The tool definitions the file holds, with the system prompt the provider adds for tools. */
  toolDefinitions: { tools: number; tokens: number };
  /** Messages a provider's compaction superseded, which the provider no longer reads: not in `tokens`. */
  superseded: { messages: number; tokens: number };
  /** The usage the provider reported for this request, when the file records it. */
  reported?: ReportedUsage;
  /** Tokens left after pruning as `lousho compact` would (the same protected tail), and how many results. */
  prune: { tokensAfter: number; results: number };
  /**
   * Tokens left after the compactor summarizes old turns as it would once the window fills,
   * with the same protected tail and its truncating summarizer (no model call); the size
   * itself when nothing outside the protected tail is old enough to summarize.
   */
  summarize: { tokensAfter: number; messagesSummarized: number };
  /** USD for sending the transcript once, when the model's price is known. */
  inputCostUsd?: number;
}

/** What inspect reads of a transcript file. */
export interface InspectInput {
  messages: Message[];
  model?: string;
  tools?: ToolDefinition[];
  reported?: ReportedUsage;
}

function add(rows: Map<string, TokenRow>, name: string, tokens: number, counts: boolean): void {
  const row = rows.get(name) ?? { name, messages: 0, tokens: 0 };
  if (counts) row.messages++;
  row.tokens += tokens;
  rows.set(name, row);
}

/**
 * Counts a transcript for `lousho inspect` as the provider bills it: tokens per role and
 * per tool, the tool definitions, what a provider's compaction superseded, the window, and
 * what compaction would save with the defaults `lousho compact` uses.
 */
export async function inspectReport(
  file: string,
  input: InspectInput,
  options: { model?: string; contextWindow?: number; thresholdPercent?: number; protectedTokens?: number },
): Promise<InspectReport> {
  const model = options.model ?? input.model ?? 'gpt-4o';
  const modelSource = options.model !== undefined ? 'option' : input.model !== undefined ? 'file' : 'default';
  const profile = tokenProfile(model);
  const messages = withProviderParts(input.messages);
  const from = supersedingIndex(messages);
  const byRole = new Map<string, TokenRow>();
  const byTool = new Map<string, TokenRow>();
  const callNames = new Map<string, string>();
  const superseded = { messages: 0, tokens: 0 };
  for (const [i, m] of messages.entries()) {
    const tokens = messageTokens(m, profile);
    if (!isBilled(m, i, from)) {
      superseded.messages++;
      superseded.tokens += tokens;
      continue;
    }
    add(byRole, m.role, tokens, true);
    if (m.role === 'assistant') for (const call of m.toolCalls ?? []) callNames.set(call.id, call.name);
    if (m.role === 'tool') add(byTool, m.toolName ?? callNames.get(m.toolCallId) ?? 'unknown', tokens, true);
  }
  const sizes = await cliCompactionSizes('inspect', model, {
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    ...(options.thresholdPercent === undefined ? {} : { thresholdPercent: options.thresholdPercent }),
    ...(options.protectedTokens === undefined ? {} : { protectedTokens: options.protectedTokens }),
  });
  const toolsTokens = toolDefinitionTokens(input.tools, profile);
  const tokens = estimateTokens({ model, messages, ...(input.tools === undefined ? {} : { tools: input.tools }) });
  // compactMessages() sizes the messages alone: the tool definitions are added back to its figures.
  const common = { model, contextWindow: sizes.contextWindow, protectedTokens: sizes.protectedTokens };
  const pruned = await compactMessages(messages, { ...common, strategy: pruneToolResultsStrategy() });
  // The compactor once the window fills (the window set to the transcript's own size, so it
  // is over the threshold, but never so small that the threshold would cut the protected
  // tail), with its truncating summarizer: no model is called.
  const percent = sizes.thresholdPercent;
  const summarized = await compactMessages(messages, {
    ...common,
    contextWindow: Math.max(tokens, Math.ceil(sizes.protectedTokens / percent) + 1),
    thresholdPercent: percent,
    strategy: compactorStrategy(),
  });
  const kept = summarized.appliedStrategy === undefined && summarized.error === undefined;
  const summaryIndex = kept ? summarized.messages.findIndex((m) => m.metadata?.summary === true) : -1;
  const report: InspectReport = {
    file,
    model,
    modelSource,
    tokenizer: tokenizerLabel(model),
    messages: input.messages.length,
    tokens,
    ...sizes,
    byRole: [...byRole.values()],
    byTool: [...byTool.values()].sort((a, b) => b.tokens - a.tokens),
    toolDefinitions: { tools: input.tools?.length ?? 0, tokens: toolsTokens },
    superseded,
    ...(input.reported === undefined ? {} : { reported: input.reported }),
    prune: { tokensAfter: pruned.tokensAfter + toolsTokens, results: pruned.prunedToolCallIds.length },
    summarize: {
      tokensAfter: summaryIndex < 0 ? tokens : summarized.tokensAfter + toolsTokens,
      messagesSummarized: summaryIndex < 0 ? 0 : messages.length - (summarized.messages.length - 1),
    },
  };
  const info = getModelInfo(model);
  if (info?.inputPricePerMillion !== undefined) report.inputCostUsd = (tokens * info.inputPricePerMillion) / 1e6;
  return report;
}
