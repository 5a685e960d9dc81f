/**
 * The replay benchmark: every trajectory of the corpus replayed step by step as an agent
 * run, under each context policy and each window. At step t the request is what the
 * model saw before writing the t-th assistant message, after the policy ran on it; the
 * policy keeps its own transcript between steps (the new messages are appended to it),
 * as in a real run where the hook rewrites the transcript in place. Our configurations
 * run through the real compaction hook and the executor's last-resort fit
 * (./replay-policies.ts); the other frameworks' policies come from ./baselines.ts. Every
 * run is billed under two prompt-cache price models, per trajectory and in total: OpenAI's
 * (every prefix shared with the previous request cached) and Anthropic's, where only what
 * the Anthropic provider's cache_control breakpoints make cached is read at the cache price
 * (./anthropic-breakpoint-meter.ts).
 *
 * Run it alone with `npx tsx bench/replay.ts`.
 */
import { pathToFileURL } from 'node:url';
import type { ToolDefinition } from '../src/contracts/tool-definition.js';
import type { Message } from '../src/messages/types.js';
import { estimateTokens, messageTokens, tokenProfile } from '../src/models/estimate-tokens.js';
import { AnthropicBreakpointMeter } from './anthropic-breakpoint-meter.js';
import { BASH_TOOL, readCorpus, type Trajectory } from './corpus.js';
import { type ReplayBounds, replayBounds } from './replay-bounds.js';
import {
  ANTHROPIC_PRICES,
  BillingMeter,
  lostShare,
  OPENAI_PRICES,
  PRICE_MODELS,
  type PriceModel,
  ReferenceIndex,
  type TrackedReference,
} from './replay-metrics.js';
import { REPLAY_MODEL, type ReplayConfiguration, replayConfigurations } from './replay-policies.js';
import { renderReplayMarkdown } from './replay-report.js';
import { median } from './stats.js';

export {
  baselineConfiguration,
  hookConfiguration,
  noCompaction,
  REPLAY_MODEL,
  type ReplayConfiguration,
  replayConfigurations,
} from './replay-policies.js';
export { renderReplayMarkdown, renderReplaySvg } from './replay-report.js';

/** The context windows replayed. */
export const REPLAY_WINDOWS: readonly number[] = [16_384, 32_768, 65_536];

const PROFILE = tokenProfile(REPLAY_MODEL);
const countMessage = (message: Message): number => messageTokens(message, PROFILE);
/** Framing and the bash tool's definition: the part of every request that is not messages. */
const FIXED_TOKENS = estimateTokens({ model: REPLAY_MODEL, messages: [], tools: [BASH_TOOL] });

interface FixedPart {
  tokens: number;
  key: string;
  definitions: readonly ToolDefinition[];
}
const fixedCache = new Map<string, FixedPart>();

/** The fixed part of a request that sends `tools` (the recall tool besides bash), keyed by their names. */
function fixedOf(tools: readonly ToolDefinition[]): FixedPart {
  const key = tools.map((t) => t.name).join(',');
  let fixed = fixedCache.get(key);
  if (fixed === undefined) {
    fixed = {
      tokens: estimateTokens({ model: REPLAY_MODEL, messages: [], tools: [...tools] }),
      key,
      definitions: tools,
    };
    fixedCache.set(key, fixed);
  }
  return fixed;
}

/** What one configuration billed at one window under one price model. */
export interface ReplayBill {
  prices: string;
  /** Input tokens billed over every trajectory, the cached prefix at its price. */
  billedTokens: number;
  /** billedTokens over the uncompacted run's. */
  ratio: number;
  /** The median over trajectories of each trajectory's bill over its uncompacted bill. */
  medianRatio: number;
  /** The largest of those ratios. */
  maxRatio: number;
  /** Trajectories that bill more than with no compaction. */
  trajectoriesOver: number;
}

/** The totals of one configuration at one window, over every trajectory. */
export interface ReplayRow {
  configuration: string;
  /** True for the other frameworks' policies. */
  peer: boolean;
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
  /** The OpenAI bill (cached input at 10%), as before: bills.OpenAI.billedTokens. */
  billedTokens: number;
  billedRatio: number;
  /** The bill under each price model. */
  bills: ReplayBill[];
  /** inputTokens over the uncompacted run's at the same window. */
  inputRatio: number;
  /** Requests at which the policy changed the transcript (the fit included). */
  compactions: number;
  /** Requests the executor's last-resort fit had to compact before sending, and the tokens it took off them. */
  fits: number;
  fitDroppedTokens: number;
  /** Mean over tool calls of the share of the names they use (seen before) that the request no longer shows. */
  identifierLoss: number;
  /** Tool calls that used at least one name seen before (the calls identifierLoss averages over). */
  checkedCalls: number;
}

/** Our cache model against the cached_tokens the provider reported for the uncompacted run. */
export interface CacheModelCheck {
  /** Calls with a recorded cached_tokens (the first call of each trajectory has none to share). */
  calls: number;
  /** Sum of the cached tokens our model gives those calls, and of what the provider reported. */
  modeledTokens: number;
  recordedTokens: number;
  /** Median over those calls of modeled / recorded (calls with a recorded 0 left out). */
  medianRatio: number;
  /** Share of the calls whose modeled count is within 10% (or 256 tokens) of the recorded one. */
  withinTenPercent: number;
}

export interface ReplayReport {
  trajectories: number;
  /** Requests replayed per configuration and window. */
  requests: number;
  windows: number[];
  configurations: string[];
  prices: string[];
  rows: ReplayRow[];
  cacheCheck: CacheModelCheck;
  /** What no policy can go under, per price model (./replay-bounds.ts). */
  bounds: (ReplayBounds & { prices: string })[];
  /** Per row (configuration and window): for each trajectory that bills more than with no compaction under the first price model, its steps and the step of its last compaction. */
  overTrajectories: { configuration: string; window: number; steps: number; lastCompaction: number }[];
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
  /** The cached_tokens the provider reported for this call of the uncompacted run. */
  recordedCached: number | undefined;
  refs: TrackedReference[];
}

function prepare(trajectory: Trajectory): PreparedStep[] {
  const calls = new Map(trajectory.calls.map((c) => [c.prefixLength, c]));
  const index = new ReferenceIndex(trajectory.messages);
  const steps: PreparedStep[] = [];
  let previous = 0;
  let estimate = FIXED_TOKENS;
  trajectory.messages.forEach((message, i) => {
    if (message.role === 'assistant') {
      const call = calls.get(i);
      steps.push({
        added: trajectory.messages.slice(previous, i),
        residual: call === undefined ? undefined : call.promptTokens - estimate,
        recordedCached: call?.cachedTokens,
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
  /** Per price model: the bill of each trajectory, in corpus order. */
  bills: number[][];
  compactions: number;
  fits: number;
  fitDroppedTokens: number;
  lossSum: number;
  checkedCalls: number;
  /** Per trajectory, in corpus order: its steps and the last step at which the policy changed the transcript (-1: never). */
  shapes: { steps: number; lastCompaction: number }[];
}

function emptyTotals(): Totals {
  return {
    requests: 0,
    overWindow: 0,
    peakTokens: 0,
    inputTokens: 0,
    cachedTokens: 0,
    bills: PRICE_MODELS.map(() => []),
    compactions: 0,
    fits: 0,
    fitDroppedTokens: 0,
    lossSum: 0,
    checkedCalls: 0,
    shapes: [],
  };
}

/** Replays one trajectory under one configuration; returns the cached tokens it modeled per step. */
async function replayOne(
  steps: readonly PreparedStep[],
  originals: ReadonlySet<Message>,
  policy: ReturnType<ReplayConfiguration['start']>,
  window: number,
  totals: Totals,
): Promise<number[]> {
  const meters = PRICE_MODELS.map((prices: PriceModel) =>
    // Anthropic caches only what the provider's breakpoints mark; OpenAI caches every shared prefix.
    prices === ANTHROPIC_PRICES
      ? new AnthropicBreakpointMeter(countMessage, prices)
      : new BillingMeter(countMessage, FIXED_TOKENS, prices),
  );
  const cached: number[] = [];
  const isOriginal = (m: Message) => originals.has(m);
  let lastCompaction = -1;
  for (const [index, step] of steps.entries()) {
    const { request, changed, fit, tools } = await policy.step(step.added, step.residual);
    const fixed = fixedOf(tools ?? [BASH_TOOL]);
    const bills = meters.map((meter) => meter.add(request, fixed));
    const bill = bills[0] as (typeof bills)[number];
    cached.push(bill.cachedTokens);
    totals.requests++;
    if (bill.tokens > window) totals.overWindow++;
    totals.peakTokens = Math.max(totals.peakTokens, bill.tokens);
    if (changed) {
      totals.compactions++;
      lastCompaction = index;
    }
    if (fit !== undefined) {
      totals.fits++;
      totals.fitDroppedTokens += fit.before - fit.after;
    }
    const lost = lostShare(step.refs, request, isOriginal);
    if (lost !== undefined) {
      totals.lossSum += lost;
      totals.checkedCalls++;
    }
  }
  totals.shapes.push({ steps: steps.length, lastCompaction });
  const [first] = meters;
  totals.inputTokens += first?.tokens ?? 0;
  totals.cachedTokens += first?.cachedTokens ?? 0;
  meters.forEach((meter, k) => {
    totals.bills[k]?.push(meter.billedTokens);
  });
  return cached;
}

/** Compares the cached tokens modeled for the uncompacted run with what the provider reported. */
function checkCacheModel(pairs: readonly { modeled: number; recorded: number }[]): CacheModelCheck {
  const ratios = pairs.filter((p) => p.recorded > 0).map((p) => p.modeled / p.recorded);
  const close = pairs.filter((p) => Math.abs(p.modeled - p.recorded) <= Math.max(256, p.recorded * 0.1)).length;
  return {
    calls: pairs.length,
    modeledTokens: pairs.reduce((a, p) => a + p.modeled, 0),
    recordedTokens: pairs.reduce((a, p) => a + p.recorded, 0),
    medianRatio: median(ratios),
    withinTenPercent: pairs.length === 0 ? 0 : close / pairs.length,
  };
}

function billsOf(t: Totals, reference: Totals | undefined): ReplayBill[] {
  return PRICE_MODELS.map((prices, k) => {
    const own = t.bills[k] ?? [];
    const base = reference?.bills[k] ?? [];
    const ratios = own.map((b, i) => b / (base[i] ?? Number.NaN));
    const total = own.reduce((a, b) => a + b, 0);
    const baseTotal = base.reduce((a, b) => a + b, 0);
    return {
      prices: prices.name,
      billedTokens: Math.round(total),
      ratio: total / baseTotal,
      medianRatio: median(ratios),
      maxRatio: Math.max(...ratios),
      // A rounding hair above 1 is not a trajectory that bills more.
      trajectoriesOver: ratios.filter((r) => r > 1 + 1e-9).length,
    };
  });
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
  const cachePairs: { modeled: number; recorded: number }[] = [];
  let requests = 0;
  for (const trajectory of trajectories) {
    const steps = prepare(trajectory);
    requests += steps.length;
    const originals = new Set(trajectory.messages);
    for (const [w, window] of windows.entries()) {
      for (const [c, configuration] of configurations.entries()) {
        const k = key(configuration.name, window);
        let t = totals.get(k);
        if (t === undefined) {
          t = emptyTotals();
          totals.set(k, t);
        }
        const policy = configuration.start(window, `replay_${trajectory.id}_${window}`);
        const cached = await replayOne(steps, originals, policy, window, t);
        if (c === 0 && w === 0) {
          steps.forEach((step, i) => {
            if (step.recordedCached !== undefined && i > 0)
              cachePairs.push({ modeled: cached[i] ?? 0, recorded: step.recordedCached });
          });
        }
      }
    }
  }
  const rows: ReplayRow[] = [];
  const overTrajectories: ReplayReport['overTrajectories'] = [];
  for (const window of windows) {
    const reference = configurations[0] === undefined ? undefined : totals.get(key(configurations[0].name, window));
    for (const configuration of configurations) {
      const t = totals.get(key(configuration.name, window)) ?? emptyTotals();
      const bills = billsOf(t, reference);
      const openai = bills.find((b) => b.prices === OPENAI_PRICES.name) as ReplayBill;
      const own = t.bills[0] ?? [];
      own.forEach((bill, i) => {
        const shape = t.shapes[i];
        if (shape !== undefined && bill > (reference?.bills[0]?.[i] ?? Number.POSITIVE_INFINITY) * (1 + 1e-9)) {
          overTrajectories.push({ configuration: configuration.name, window, ...shape });
        }
      });
      rows.push({
        configuration: configuration.name,
        peer: configuration.peer === true,
        window,
        requests: t.requests,
        overWindow: t.overWindow,
        peakTokens: t.peakTokens,
        inputTokens: t.inputTokens,
        cachedTokens: t.cachedTokens,
        billedTokens: openai.billedTokens,
        billedRatio: openai.ratio,
        bills,
        inputRatio: reference === undefined ? Number.NaN : t.inputTokens / reference.inputTokens,
        compactions: t.compactions,
        fits: t.fits,
        fitDroppedTokens: t.fitDroppedTokens,
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
    prices: PRICE_MODELS.map((p) => p.name),
    rows,
    cacheCheck: checkCacheModel(cachePairs),
    bounds: PRICE_MODELS.map((prices) => ({
      prices: prices.name,
      ...replayBounds(trajectories, countMessage, FIXED_TOKENS, prices),
    })),
    overTrajectories,
    seconds: (performance.now() - started) / 1000,
  };
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
