import { compactorStrategy } from '../compaction/compactor-strategy.js';
import { pruneToolResultsStrategy } from '../compaction/prune-tool-results.js';
import type { ToolDefinition } from '../contracts/tool-definition.js';
import type { ReportedUsage } from '../converters/log-reading.js';
import type { Message } from '../messages/types.js';
import { messageTokens, tokenProfile, toolDefinitionTokens } from '../models/estimate-tokens.js';
import { isBilled, supersedingIndex } from '../models/provider-billing.js';
import { getModelInfo } from '../models/registry.js';
import { type BilledSize, billedSize, reportedRequests } from './billed-size.js';
import { type CliCompactionSizes, cliCompactionSizes, compactFile } from './compaction-defaults.js';
import { type TokenizerLabel, tokenizerLabel } from './tokenizer-label.js';
import { countingModel, requestSizes } from './transcript-count.js';
import type { TranscriptSource } from './transcript-file.js';

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
  /** The total, the one count of inspect, compact and report (transcriptTokens()): the messages, the tool definitions the file holds, the request's framing. */
  tokens: number;
  byRole: TokenRow[];
  /** Tool results and the calls that asked for them, per tool name. */
  byTool: TokenRow[];
  /** The tool definitions the file holds, with the system prompt the provider adds for tools. */
  toolDefinitions: { tools: number; tokens: number };
  /** Messages a provider's compaction superseded, which the provider no longer reads: not in `tokens`. */
  superseded: { messages: number; tokens: number };
  /** The usage the provider reported for the last request the file records, when it records one. */
  reported?: ReportedUsage;
  /**
   * The newest request whose input the provider reported, beside the estimate of the same
   * request: the chart's headline gives it (the newest billed request, as report's summary
   * does), and its window bars add its `beyond` (what the provider billed beyond what the file
   * holds) to every size, so a log without its system prompt and tool definitions is drawn near
   * the size it was billed.
   */
  billed?: BilledSize;
  /** Tokens left after pruning as `lousho compact` would (the same protected tail), and how many results. */
  prune: { tokensAfter: number; results: number };
  /**
   * Tokens left after the compactor summarizes old turns as it would once the window fills,
   * with the same protected tail and its truncating summarizer (no model call); the size
   * itself when nothing outside the protected tail is old enough to summarize.
   */
  summarize: { tokensAfter: number; messagesSummarized: number };
  /** USD for sending the transcript once (with what the provider billed beyond the estimate, when the file records it), when the model's price is known. */
  inputCostUsd?: number;
}

/** What inspect reads of a transcript file. */
export interface InspectInput {
  messages: Message[];
  model?: string;
  tools?: ToolDefinition[];
  reported?: ReportedUsage;
  /** Where the messages were (a request body's usage is its own request's; a log's, its last reply's). */
  source?: TranscriptSource;
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
  const model = countingModel(options.model, input.model);
  const modelSource = options.model !== undefined ? 'option' : input.model !== undefined ? 'file' : 'default';
  const profile = tokenProfile(model);
  const sizes = requestSizes(input, model);
  const tokens = sizes.before.at(-1) as number;
  const messages = sizes.billed.map((b) => b.message);
  const from = supersedingIndex(messages);
  const byRole = new Map<string, TokenRow>();
  const byTool = new Map<string, TokenRow>();
  const callNames = new Map<string, string>();
  const superseded = { messages: 0, tokens: 0 };
  for (const [i, m] of messages.entries()) {
    const own = messageTokens(m, profile);
    if (!isBilled(m, i, from)) {
      superseded.messages++;
      superseded.tokens += own;
      continue;
    }
    add(byRole, m.role, own, true);
    if (m.role === 'assistant') for (const call of m.toolCalls ?? []) callNames.set(call.id, call.name);
    if (m.role === 'tool') add(byTool, m.toolName ?? callNames.get(m.toolCallId) ?? 'unknown', own, true);
  }
  const window = await cliCompactionSizes('inspect', model, {
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    ...(options.thresholdPercent === undefined ? {} : { thresholdPercent: options.thresholdPercent }),
    ...(options.protectedTokens === undefined ? {} : { protectedTokens: options.protectedTokens }),
  });
  // What `lousho compact` does with the same options: the same call.
  const common = { model, contextWindow: window.contextWindow, protectedTokens: window.protectedTokens };
  const pruned = await compactFile(input, { ...common, strategy: pruneToolResultsStrategy() });
  // The compactor once the window fills (the window set to the transcript's own size, so it
  // is over the threshold, but never so small that the threshold would cut the protected
  // tail), with its truncating summarizer: no model is called.
  const percent = window.thresholdPercent;
  const summarized = await compactFile(input, {
    ...common,
    contextWindow: Math.max(tokens, Math.ceil(window.protectedTokens / percent) + 1),
    thresholdPercent: percent,
    strategy: compactorStrategy(),
  });
  const kept = summarized.appliedStrategy === undefined && summarized.error === undefined;
  const summaryIndex = kept ? summarized.messages.findIndex((m) => m.metadata?.summary === true) : -1;
  const billed = billedSize(input, reportedRequests(input), sizes);
  const report: InspectReport = {
    file,
    model,
    modelSource,
    tokenizer: tokenizerLabel(model),
    messages: input.messages.length,
    tokens,
    ...window,
    byRole: [...byRole.values()],
    byTool: [...byTool.values()].sort((a, b) => b.tokens - a.tokens),
    toolDefinitions: { tools: input.tools?.length ?? 0, tokens: toolDefinitionTokens(input.tools, profile) },
    superseded,
    ...(input.reported === undefined ? {} : { reported: input.reported }),
    ...(billed === undefined ? {} : { billed }),
    prune: { tokensAfter: pruned.tokensAfter, results: pruned.prunedToolCallIds.length },
    summarize: {
      tokensAfter: summaryIndex < 0 ? tokens : summarized.tokensAfter,
      messagesSummarized: summaryIndex < 0 ? 0 : input.messages.length - (summarized.messages.length - 1),
    },
  };
  const info = getModelInfo(model);
  // At the billed size where the file records it: what sending it would cost.
  const sent = tokens + (billed?.beyond ?? 0);
  if (info?.inputPricePerMillion !== undefined) report.inputCostUsd = (sent * info.inputPricePerMillion) / 1e6;
  return report;
}
