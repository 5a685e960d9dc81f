/**
 * The bill of one multi-step Anthropic run, with and without the provider's prompt-cache
 * breakpoints: the same 20-step run (src/test-support/anthropic-cache-run.ts) against a
 * loopback server that reports usage as Anthropic's cache would (AnthropicCacheModel),
 * priced at claude-sonnet-4-5's list prices. `promptCache: false` sends what the provider
 * sent before it placed breakpoints: none.
 */
import type { CreateAgentOptions } from '../src/agent/agent-types.js';
import type { RunUsage } from '../src/contracts/run-usage.js';
import { getModelInfo } from '../src/models/registry.js';
import { AnthropicCacheModel } from '../src/test-support/anthropic-cache-model.js';
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

/** The compacting run: steps with thinking and one tool call each, on a small window. */
export const COMPACTING_STEPS = 40;
export const COMPACTING_WINDOW = 16_000;

/** One compacting run's bill in input-price units: uncached input, cache writes at 1.25x, reads at 0.1x (Sonnet 4.5's factors). */
export interface CompactingBillRow {
  name: string;
  requests: number;
  /** Requests whose messages rewrote what the request before them sent. */
  rewrites: number;
  reads: number;
  writes: number;
  uncached: number;
  units: number;
}

function compactingRow(name: string, run: AnthropicCacheRun): CompactingBillRow {
  const reads = run.cache.reduce((a, c) => a + c.cache_read_input_tokens, 0);
  const writes = run.cache.reduce((a, c) => a + c.cache_creation_input_tokens, 0);
  const uncached = run.cache.reduce((a, c) => a + c.input_tokens, 0);
  const bodies = run.requests.map((r) => r.body as Record<string, unknown>);
  const rewrites = bodies.filter((b, i) => i > 0 && AnthropicCacheModel.rewrote(bodies[i - 1] ?? {}, b)).length;
  return {
    name,
    requests: run.requests.length,
    rewrites,
    reads,
    writes,
    uncached,
    units: uncached + 1.25 * writes + 0.1 * reads,
  };
}

/** The compacting run with no compaction, the default compaction and lean mode. */
export async function runCompactingBill(): Promise<CompactingBillRow[]> {
  const run = (compaction: CreateAgentOptions['compaction']) =>
    runAnthropicCacheRun(COMPACTING_STEPS, {}, { thinking: true, ...(compaction === undefined ? {} : { compaction }) });
  return [
    compactingRow('no compaction', await run(undefined)),
    compactingRow('compaction: { contextWindow } (the default prune)', await run({ contextWindow: COMPACTING_WINDOW })),
    compactingRow("lean (mode: 'lean')", await run({ contextWindow: COMPACTING_WINDOW, mode: 'lean' })),
  ];
}

const usd = (n: number | undefined) => (n === undefined ? '–' : `$${n.toFixed(6)}`);
const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
const int = (n: number) => n.toLocaleString('en-US');

/** The section of bench/RESULTS.md. */
export function renderAnthropicBillMarkdown(
  rows: readonly AnthropicBillRow[],
  compacting: readonly CompactingBillRow[] = [],
): string {
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
    ...(compacting.length === 0
      ? []
      : [
          `A run that compacts: ${COMPACTING_STEPS} steps, each a signed thinking block and one tool call whose result is the same ` +
            `file text, at a ${int(COMPACTING_WINDOW)}-token window, against the same cache model. The bill is in input-price units ` +
            '(uncached input, cache writes at 1.25×, cache reads at 0.1×). After a compaction the provider points a breakpoint ' +
            'at the longest prefix an earlier request cached that the new request did not change, and keeps one on the end of ' +
            'the newest rewrite, so the next compaction reads back everything before where it starts.',
          '',
          '| configuration | requests | requests that rewrote earlier messages | cache reads | cache writes | uncached input | billed (input-price units) | × no compaction |',
          '|---|---:|---:|---:|---:|---:|---:|---:|',
          ...compacting.map(
            (r) =>
              `| ${r.name} | ${r.requests} | ${r.rewrites} | ${int(r.reads)} | ${int(r.writes)} | ${int(r.uncached)} | ` +
              `${int(Math.round(r.units))} | ${(r.units / (compacting[0]?.units ?? r.units)).toFixed(2)}× |`,
          ),
          '',
        ]),
  ].join('\n');
}
