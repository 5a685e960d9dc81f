/**
 * The bill of one multi-step Anthropic run, with and without the provider's prompt-cache
 * breakpoints: the same 20-step run (src/test-support/anthropic-cache-run.ts) against a
 * loopback server that reports usage as Anthropic's cache would (AnthropicCacheModel),
 * priced at claude-sonnet-4-5's list prices. `promptCache: false` sends what the provider
 * sent before it placed breakpoints: none.
 */
import type { RunUsage } from '../src/contracts/run-usage.js';
import { getModelInfo } from '../src/models/registry.js';
import { type AnthropicCacheRun, runAnthropicCacheRun } from '../src/test-support/anthropic-cache-run.js';

const STEPS = 20;

/** One run's bill. */
export interface AnthropicBillRow {
  name: string;
  requests: number;
  /** Requests that carried at least one cache_control. */
  marked: number;
  usage: RunUsage;
  /** The same usage with cache writes priced as plain input (how it was priced before). */
  writesAsInputUsd: number;
}

function rowOf(name: string, run: AnthropicCacheRun): AnthropicBillRow {
  const info = getModelInfo('claude-sonnet-4-5');
  const input = info?.inputPricePerMillion ?? Number.NaN;
  const write = info?.cacheWriteInputPricePerMillion ?? Number.NaN;
  return {
    name,
    requests: run.requests.length,
    marked: run.requests.filter((r) => JSON.stringify(r.body).includes('"cache_control"')).length,
    usage: run.usage,
    writesAsInputUsd: (run.usage.costUsd ?? 0) - (run.usage.cacheWriteInputTokens * (write - input)) / 1e6,
  };
}

/** The run without breakpoints, then with the default ones. */
export async function runAnthropicBill(): Promise<AnthropicBillRow[]> {
  return [
    rowOf('no breakpoints (promptCache: false)', await runAnthropicCacheRun(STEPS, { promptCache: false })),
    rowOf('default breakpoints', await runAnthropicCacheRun(STEPS)),
  ];
}

const usd = (n: number | undefined) => (n === undefined ? '–' : `$${n.toFixed(6)}`);
const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
const int = (n: number) => n.toLocaleString('en-US');

/** The section of bench/RESULTS.md. */
export function renderAnthropicBillMarkdown(rows: readonly AnthropicBillRow[]): string {
  return [
    '## The bill of an Anthropic run',
    '',
    `The same ${STEPS}-step tool run (each result 8,169 characters of file text, a system prompt of about 1,000 tokens) against a ` +
      "loopback server that reports usage the way Anthropic's prompt cache works (AnthropicCacheModel: prefixes written " +
      'at breakpoints, read at a breakpoint or up to 20 blocks before one), priced at claude-sonnet-4-5 list prices ' +
      '(input $3, cache reads $0.30, cache writes $3.75, output $15 per million). The last column prices the cache writes ' +
      'as plain input, as the run totals did before they read cache_creation_input_tokens.',
    '',
    '| provider setting | requests with cache_control | input tokens | cache reads | cache writes | cache read share | cost | cost with writes as plain input |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.marked} of ${r.requests} | ${int(r.usage.inputTokens)} | ${int(r.usage.cachedInputTokens)} | ` +
        `${int(r.usage.cacheWriteInputTokens)} | ${percent(r.usage.cachedInputTokens / r.usage.inputTokens)} | ` +
        `${usd(r.usage.costUsd)} | ${usd(r.writesAsInputUsd)} |`,
    ),
    '',
  ].join('\n');
}
