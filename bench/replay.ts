/**
 * The replay benchmark: every trajectory of the corpus replayed step by step as an agent
 * run, under each context policy and each window. At step t the request is what the
 * model saw before writing the t-th assistant message, after the policy ran on it; the
 * policy keeps its own transcript between steps (the new messages are appended to it),
 * as in a real run where the hook rewrites the transcript in place. Our configurations
 * run through the real compaction hook (preGenerate, then postGenerate with the
 * provider's count); the other frameworks' policies come from ./baselines.ts.
 *
 * Run it alone with `npx tsx bench/replay.ts`.
 */
import { pathToFileURL } from 'node:url';
import { createCompactionHook } from '../src/compaction/compaction-hook.js';
import { compactorStrategy } from '../src/compaction/compactor-strategy.js';
import { pruneToolResultsStrategy } from '../src/compaction/prune-tool-results.js';
import { twoPhaseStrategy } from '../src/compaction/two-phase.js';
import type { CompactionStrategy } from '../src/compaction/types.js';

import type { LLMProvider } from '../src/contracts/llm-provider.js';
import type { ModelRequest } from '../src/contracts/model-request.js';
import { TruncatingSummarizer } from '../src/core/summarizer.js';
import { RunState } from '../src/executor/run-state.js';
import type { Message } from '../src/messages/types.js';
import { estimateTokens, messageTokens, tokenProfile } from '../src/models/estimate-tokens.js';
import { BASELINES, type Baseline } from './baselines.js';
import { BASH_TOOL, readCorpus, type Trajectory } from './corpus.js';
import { BillingMeter, lostShare, ReferenceIndex, type TrackedReference } from './replay-metrics.js';

/** The model of the corpus (o200k tokens). */
export const REPLAY_MODEL = 'gpt-5-mini';
/** The context windows replayed. */
export const REPLAY_WINDOWS: readonly number[] = [16_384, 32_768, 65_536];

const PROFILE = tokenProfile(REPLAY_MODEL);
const countMessage = (message: Message): number => messageTokens(message, PROFILE);
/** Framing and the bash tool's definition: the part of every request that is not messages. */
const FIXED_TOKENS = estimateTokens({ model: REPLAY_MODEL, messages: [], tools: [BASH_TOOL] });

// ---------------------------------------------------------------------------------------
// Policies
// ---------------------------------------------------------------------------------------

/** What a policy does at one step. */
export interface PolicyStep {
  /** The messages of the request (read before the next step: a hook rewrites it in place). */
  request: readonly Message[];
  /** True when the policy changed the transcript at this step. */
  changed: boolean;
}

/** A policy running on one trajectory at one window. */
export interface PolicyRun {
  /**
   * Appends the messages that arrived since the previous step, runs the policy and
   * returns the request. `residual` is how many tokens the provider counted beyond our
   * estimate on the uncompacted request of this step (undefined when the corpus has no count).
   */
  step(added: readonly Message[], residual: number | undefined): Promise<PolicyStep>;
}

/** A configuration of the benchmark: a name and how to start it on one trajectory. */
export interface ReplayConfiguration {
  name: string;
  start(window: number, runId: string): PolicyRun;
}

/** No compaction: the transcript only grows. */
export function noCompaction(name = 'no compaction'): ReplayConfiguration {
  return {
    name,
    start() {
      const messages: Message[] = [];
      return {
        async step(added) {
          messages.push(...added);
          return { request: messages, changed: false };
        },
      };
    },
  };
}

const REPLAY_PROVIDER: LLMProvider = {
  provider: 'replay',
  modelId: REPLAY_MODEL,
  generate: () => Promise.reject(new Error('The replay never calls the model.')),
  stream: () => ({
    [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('The replay never calls the model.')) }),
  }),
};

/** A real RunState over the replayed transcript (its step moved on by the replay). */
function replayRunContext(messages: Message[]): RunState {
  return new RunState({ messages, provider: REPLAY_PROVIDER, abortSignal: undefined, emit: undefined });
}

/**
 * One of our strategies through the real compaction hook (createCompactionHook with the
 * window), called as a run calls it: preGenerate before the model call, then postGenerate
 * with the provider's prompt count. The provider would count the request actually sent:
 * our estimate of it plus the residual the corpus shows for this step.
 */
export function hookConfiguration(name: string, strategy: () => CompactionStrategy): ReplayConfiguration {
  return {
    name,
    start(window) {
      const hook = createCompactionHook({ strategy: strategy(), contextWindow: window });
      const messages: Message[] = [];
      const run = replayRunContext(messages);
      return {
        async step(added, residual) {
          messages.push(...added);
          run.step++;
          let changed = false;
          const request: ModelRequest = { model: REPLAY_MODEL, messages, tools: [BASH_TOOL] };
          await hook.preGenerate?.({
            request,
            run,
            emit: (event) => {
              if (event.type === 'compaction.done' && event.unchanged !== true) changed = true;
            },
          });
          if (residual !== undefined) {
            // As the step loop does after each call: the provider's prompt count calibrates the run's budget.
            run.budget.calibrate(request, Math.max(0, estimateTokens(request) + residual));
          }
          return { request: messages, changed };
        },
      };
    },
  };
}

/** A baseline: a persistent one keeps its output as its transcript; the others rewrite the full history each time. */
export function baselineConfiguration(baseline: Baseline): ReplayConfiguration {
  return {
    name: baseline.name,
    start(window) {
      let transcript: Message[] = [];
      return {
        async step(added) {
          const input = transcript.concat(added);
          const output = baseline.apply(input, window);
          transcript = baseline.persistent ? output : input;
          return { request: output, changed: output !== input };
        },
      };
    },
  };
}

/** The configurations of the benchmark, in report order. */
export function replayConfigurations(): ReplayConfiguration[] {
  return [
    noCompaction(),
    hookConfiguration('prune (hook default)', () => pruneToolResultsStrategy()),
    hookConfiguration('two-phase + TruncatingSummarizer', () =>
      twoPhaseStrategy({ summarizer: new TruncatingSummarizer<Message>() }),
    ),
    hookConfiguration('Compactor (compactorStrategy)', () => compactorStrategy()),
    ...BASELINES.map(baselineConfiguration),
  ];
}

// ---------------------------------------------------------------------------------------
// The replay
// ---------------------------------------------------------------------------------------

/** The totals of one configuration at one window, over every trajectory. */
export interface ReplayRow {
  configuration: string;
  window: number;
  /** Requests replayed (one per assistant message of the corpus). */
  requests: number;
  /** Requests whose estimate (messages and the bash tool) is above the window. */
  overWindow: number;
  /** The largest request, in estimated tokens. */
  peakTokens: number;
  /** Every prompt token of every request, as if nothing were cached. */
  inputTokens: number;
  /** The part of inputTokens served from the prompt cache (the prefix shared with the previous request). */
  cachedTokens: number;
  /** Input tokens billed: cached ones at 10%, the rest in full. */
  billedTokens: number;
  /** billedTokens over the uncompacted run's at the same window. */
  billedRatio: number;
  /** inputTokens over the uncompacted run's at the same window. */
  inputRatio: number;
  /** Requests at which the policy changed the transcript. */
  compactions: number;
  /** Mean over tool calls of the share of the names they use (seen before) that the request no longer shows. */
  identifierLoss: number;
  /** Tool calls that used at least one name seen before (the calls identifierLoss averages over). */
  checkedCalls: number;
}

export interface ReplayReport {
  trajectories: number;
  /** Requests replayed per configuration and window. */
  requests: number;
  windows: number[];
  configurations: string[];
  rows: ReplayRow[];
  /** Wall-clock time of the replay, in seconds. */
  seconds: number;
}

export interface ReplayOptions {
  /** The trajectories; readCorpus() when absent. */
  trajectories?: readonly Trajectory[];
  /** The windows; REPLAY_WINDOWS when absent. */
  windows?: readonly number[];
  /** The configurations; replayConfigurations() when absent. The first is the reference of the ratios. */
  configurations?: readonly ReplayConfiguration[];
}

/** What a trajectory's steps are, computed once for every configuration and window. */
interface PreparedStep {
  /** Messages that arrived since the previous step. */
  added: readonly Message[];
  residual: number | undefined;
  refs: TrackedReference[];
}

function prepare(trajectory: Trajectory): PreparedStep[] {
  const promptTokens = new Map(trajectory.calls.map((c) => [c.prefixLength, c.promptTokens]));
  const index = new ReferenceIndex(trajectory.messages);
  const steps: PreparedStep[] = [];
  let previous = 0;
  let estimate = FIXED_TOKENS;
  trajectory.messages.forEach((message, i) => {
    if (message.role === 'assistant') {
      const added = trajectory.messages.slice(previous, i);
      const reported = promptTokens.get(i);
      steps.push({
        added,
        residual: reported === undefined ? undefined : reported - estimate,
        refs: index.visibleReferences(i),
      });
      previous = i;
    }
    estimate += countMessage(message);
  });
  return steps;
}

interface Totals {
  requests: number;
  overWindow: number;
  peakTokens: number;
  inputTokens: number;
  cachedTokens: number;
  billedTokens: number;
  compactions: number;
  lossSum: number;
  checkedCalls: number;
}

function emptyTotals(): Totals {
  return {
    requests: 0,
    overWindow: 0,
    peakTokens: 0,
    inputTokens: 0,
    cachedTokens: 0,
    billedTokens: 0,
    compactions: 0,
    lossSum: 0,
    checkedCalls: 0,
  };
}

async function replayOne(
  trajectory: Trajectory,
  steps: readonly PreparedStep[],
  originals: ReadonlySet<Message>,
  configuration: ReplayConfiguration,
  window: number,
  totals: Totals,
): Promise<void> {
  const policy = configuration.start(window, `replay_${trajectory.id}_${window}`);
  const meter = new BillingMeter(countMessage, FIXED_TOKENS);
  const isOriginal = (m: Message) => originals.has(m);
  for (const step of steps) {
    const { request, changed } = await policy.step(step.added, step.residual);
    const bill = meter.add(request);
    totals.requests++;
    if (bill.tokens > window) totals.overWindow++;
    totals.peakTokens = Math.max(totals.peakTokens, bill.tokens);
    if (changed) totals.compactions++;
    const lost = lostShare(step.refs, request, isOriginal);
    if (lost !== undefined) {
      totals.lossSum += lost;
      totals.checkedCalls++;
    }
  }
  totals.inputTokens += meter.tokens;
  totals.cachedTokens += meter.cachedTokens;
  totals.billedTokens += meter.billedTokens;
}

/**
 * Replays every trajectory under every configuration and window and sums the metrics.
 * Throws when there is no corpus (set LOUSHO_CORPUS, or put it at ../shared/corpus).
 */
export async function runReplay(options: ReplayOptions = {}): Promise<ReplayReport> {
  const started = performance.now();
  const trajectories = options.trajectories ?? readCorpus();
  if (trajectories.length === 0) {
    throw new Error(
      'runReplay(): no trajectories. Put the corpus at ../shared/corpus/trajectories-raw or set LOUSHO_CORPUS.',
    );
  }
  const windows = [...(options.windows ?? REPLAY_WINDOWS)];
  const configurations = options.configurations ?? replayConfigurations();
  const totals = new Map<string, Totals>();
  const key = (name: string, window: number) => `${name}\u0000${window}`;
  let requests = 0;
  for (const trajectory of trajectories) {
    const steps = prepare(trajectory);
    requests += steps.length;
    const originals = new Set(trajectory.messages);
    for (const window of windows) {
      for (const configuration of configurations) {
        const k = key(configuration.name, window);
        let t = totals.get(k);
        if (t === undefined) {
          t = emptyTotals();
          totals.set(k, t);
        }
        await replayOne(trajectory, steps, originals, configuration, window, t);
      }
    }
  }
  const rows: ReplayRow[] = [];
  for (const window of windows) {
    const reference = configurations[0] === undefined ? undefined : totals.get(key(configurations[0].name, window));
    for (const configuration of configurations) {
      const t = totals.get(key(configuration.name, window)) ?? emptyTotals();
      rows.push({
        configuration: configuration.name,
        window,
        requests: t.requests,
        overWindow: t.overWindow,
        peakTokens: t.peakTokens,
        inputTokens: t.inputTokens,
        cachedTokens: t.cachedTokens,
        billedTokens: Math.round(t.billedTokens),
        billedRatio: reference === undefined ? Number.NaN : t.billedTokens / reference.billedTokens,
        inputRatio: reference === undefined ? Number.NaN : t.inputTokens / reference.inputTokens,
        compactions: t.compactions,
        identifierLoss: t.checkedCalls === 0 ? 0 : t.lossSum / t.checkedCalls,
        checkedCalls: t.checkedCalls,
      });
    }
  }
  return {
    trajectories: trajectories.length,
    requests,
    windows,
    configurations: configurations.map((c) => c.name),
    rows,
    seconds: (performance.now() - started) / 1000,
  };
}

// ---------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ratio = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '–');
const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
const compactTokens = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(n >= 1e7 ? 1 : 2)}M` : n >= 1e3 ? `${Math.round(n / 1e3)}K` : `${Math.round(n)}`;

/** One table per window: a row per configuration, a column per metric, then what the columns mean. */
export function renderReplayMarkdown(report: ReplayReport): string {
  const lines: string[] = [
    '## Replay of real agent runs',
    '',
    `${report.trajectories} trajectories of the corpus replayed step by step (${int(report.requests)} requests per ` +
      `configuration and window), in ${report.seconds.toFixed(1)} s. At each step the request is what the model saw ` +
      'before its next tool call, after the policy ran; each policy keeps its own transcript between steps. ' +
      'Our configurations run through the real compaction hook (createCompactionHook with the window; preGenerate, ' +
      "then postGenerate with the provider's prompt count for the request actually sent). The executor's preflight " +
      'recovery, which would cut an oversized newest result before sending, is not replayed: the requests over the ' +
      'window are what each policy achieves alone. Baselines (bench/baselines.ts): the LangChain and opencode ' +
      'thresholds are scaled to the window (the same share of 200K); LangChain and observation masking edit a copy ' +
      'of the full history before every call, as their frameworks do; the AI SDK guide and opencode keep their edit.',
    '',
  ];
  for (const window of report.windows) {
    lines.push(`### Window ${int(window)} tokens`, '');
    lines.push(
      '| configuration | requests over window | peak request | billed input (cache) | × uncompacted | input, no cache | × uncompacted | compactions | identifier loss |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const row of report.rows.filter((r) => r.window === window)) {
      lines.push(
        `| ${row.configuration} | ${int(row.overWindow)} | ${int(row.peakTokens)} | ${int(row.billedTokens)} | ` +
          `${ratio(row.billedRatio)} | ${int(row.inputTokens)} | ${ratio(row.inputRatio)} | ${int(row.compactions)} | ` +
          `${percent(row.identifierLoss)} |`,
      );
    }
    lines.push('');
  }
  lines.push(
    'Columns: *requests over window*: requests whose estimated size (messages and the bash tool, o200k) is above the window. ' +
      '*billed input (cache)*: every request billed with the prefix it shares with the previous request (message by message) at 10%, the rest in full. ' +
      '*input, no cache*: every prompt token at full price. *× uncompacted*: over the no-compaction run. ' +
      '*compactions*: requests at which the policy changed the transcript. ' +
      '*identifier loss*: for each tool call, the share of the paths, identifiers and quoted strings of its command that an earlier message showed ' +
      'and the request no longer shows (a marker or summary naming them counts as showing them); the mean over tool calls.',
    '',
  );
  return lines.join('\n');
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** About 5 round tick values from 0 to at least `max`. */
function ticks(max: number): number[] {
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  const out: number[] = [];
  for (let v = 0; v <= max + step * 1e-9; v += step) out.push(v);
  if ((out[out.length - 1] ?? 0) < max) out.push(out.length * step);
  return out;
}

interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

const COLORS = ['#555555', '#1f77b4', '#2ca02c', '#17becf', '#ff7f0e', '#d62728', '#9467bd', '#8c564b', '#e377c2'];

/**
 * A scatter plot of billed input tokens (x) against identifier loss (y) at one window,
 * a labelled point per configuration: hollow when some of its requests were over the window.
 */
export function renderReplaySvg(report: ReplayReport, window: number): string {
  const rows = report.rows.filter((r) => r.window === window);
  const width = 760;
  const height = 460;
  const m = { left: 70, right: 30, top: 50, bottom: 80 };
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const xTicks = ticks(Math.max(1, ...rows.map((r) => r.billedTokens)) * 1.05);
  const yTicks = ticks(Math.max(0.05, ...rows.map((r) => r.identifierLoss)) * 1.1);
  const xMax = xTicks[xTicks.length - 1] ?? 1;
  const yMax = yTicks[yTicks.length - 1] ?? 1;
  const x = (v: number) => m.left + (v / xMax) * plotW;
  const y = (v: number) => m.top + plotH - (v / yMax) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(`Billed input tokens against identifier loss per configuration, ${int(window)}-token window`)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">` +
      `${escapeXml(`Replay at a ${int(window)}-token window: cost against forgetting`)}</text>`,
  ];
  for (const v of xTicks) {
    out.push(
      `<line x1="${x(v)}" y1="${m.top}" x2="${x(v)}" y2="${m.top + plotH}" stroke="#eeeeee"/>`,
      `<text x="${x(v)}" y="${m.top + plotH + 18}" text-anchor="middle">${compactTokens(v)}</text>`,
    );
  }
  for (const v of yTicks) {
    out.push(
      `<line x1="${m.left}" y1="${y(v)}" x2="${m.left + plotW}" y2="${y(v)}" stroke="#eeeeee"/>`,
      `<text x="${m.left - 8}" y="${y(v) + 4}" text-anchor="end">${(v * 100).toFixed(v * 100 < 10 ? 1 : 0)}%</text>`,
    );
  }
  out.push(
    `<rect x="${m.left}" y="${m.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333333"/>`,
    `<text x="${m.left + plotW / 2}" y="${m.top + plotH + 40}" text-anchor="middle">` +
      'input tokens billed over the corpus (cached prefix at 10%)</text>',
    `<text transform="translate(18 ${m.top + plotH / 2}) rotate(-90)" text-anchor="middle">` +
      'identifier loss (mean share per tool call)</text>',
    `<text x="${m.left}" y="${height - 14}" fill="#555555">` +
      'Filled: no request over the window. Hollow: some requests over the window.</text>',
  );
  const points = rows.map((row, i) => ({
    row,
    color: COLORS[i % COLORS.length] ?? '#000000',
    px: x(row.billedTokens),
    py: y(row.identifierLoss),
  }));
  // Points first, so labels are drawn over them; each label goes to the first free place near its point.
  const taken: Box[] = points.map((p) => ({ x0: p.px - 8, x1: p.px + 8, y0: p.py - 8, y1: p.py + 8 }));
  const inside = (b: Box) =>
    b.x0 >= m.left + 2 && b.x1 <= m.left + plotW - 2 && b.y0 >= m.top + 2 && b.y1 <= m.top + plotH - 2;
  for (const p of points) {
    const fill = p.row.overWindow === 0 ? p.color : '#ffffff';
    out.push(
      `<circle cx="${p.px.toFixed(1)}" cy="${p.py.toFixed(1)}" r="6" fill="${fill}" stroke="${p.color}" stroke-width="2"/>`,
    );
  }
  // The points with the most neighbours are labelled first: they need the places next to them most.
  const neighbours = (p: (typeof points)[number]) =>
    points.filter((q) => q !== p && Math.abs(q.px - p.px) < 120 && Math.abs(q.py - p.py) < 40).length;
  const order = [...points].sort((a, b) => neighbours(b) - neighbours(a));
  for (const p of order) {
    const label = `${p.row.configuration} (${ratio(p.row.billedRatio)})`;
    const labelW = label.length * 6.8;
    let chosen: { box: Box; right: boolean; dy: number } | undefined;
    for (const dy of [0, 14, -14, 28, -28, 42, -42, 56, -56, 70, -70, 84, -84, 98, -98, 112, -112]) {
      for (const right of [true, false]) {
        const x0 = right ? p.px + 10 : p.px - 10 - labelW;
        const box = { x0, x1: x0 + labelW, y0: p.py + dy - 8, y1: p.py + dy + 6 };
        if (inside(box) && !taken.some((b) => overlaps(b, box))) {
          chosen = { box, right, dy };
          break;
        }
      }
      if (chosen !== undefined) break;
    }
    chosen ??= { box: { x0: p.px + 10, x1: p.px + 10 + labelW, y0: p.py - 8, y1: p.py + 6 }, right: true, dy: 0 };
    taken.push(chosen.box);
    const tx = chosen.right ? chosen.box.x0 : chosen.box.x1;
    const ty = p.py + chosen.dy;
    if (chosen.dy !== 0) {
      out.push(
        `<line x1="${p.px.toFixed(1)}" y1="${p.py.toFixed(1)}" x2="${(chosen.right ? tx - 2 : tx + 2).toFixed(1)}" ` +
          `y2="${(ty - 1).toFixed(1)}" stroke="${p.color}" stroke-width="0.8"/>`,
      );
    }
    out.push(
      `<text x="${tx.toFixed(1)}" y="${(ty + 4).toFixed(1)}" text-anchor="${chosen.right ? 'start' : 'end'}" fill="${p.color}">` +
        `${escapeXml(label)}</text>`,
    );
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------
// Command line: npx tsx bench/replay.ts
// ---------------------------------------------------------------------------------------

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runReplay().then(
    (report) => {
      console.log(renderReplayMarkdown(report));
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
