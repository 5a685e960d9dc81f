import type {
  AgentHook,
  PostGenerateContext,
  PreGenerateContext,
  RecoverContext,
  RunContext,
} from '../contracts/agent-hook.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { configError, toError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { findPairingProblem, validateMessages } from '../messages/validate.js';
import {
  messagesTokens,
  messageTokens,
  outputSchemaTokens,
  REQUEST_FRAMING_TOKENS,
  tokenProfile,
  toolDefinitionTokens,
} from '../models/estimate-tokens.js';
import { onceWarner, resolveContextWindow } from './context-window.js';
import {
  checkContextWindow,
  checkStrategy,
  checkThresholdPercent,
  checkTokens,
  thresholdTokens as computeThreshold,
  DEFAULT_THRESHOLD_PERCENT,
} from './options.js';
import { effectiveProtectedTokens } from './protected-tail.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import { TranscriptCounter } from './transcript-counter.js';
import { calibrationAfterCall, rejectSummary, summariesPaused } from './trigger.js';
import type { CompactionInput, CompactionResult, CompactionStrategy } from './types.js';

/** What onCompaction receives. */
export interface CompactionInfo {
  strategy: string;
  appliedStrategy?: string;
  tokensBefore: number;
  tokensAfter: number;
  prunedToolCallIds: string[];
  /** The summary text, when old turns were replaced by one. */
  summary?: string;
  error?: Error;
  contextWindow: number;
  thresholdTokens: number;
}

export interface CompactionHookOptions {
  /** How to compact; pruneToolResultsStrategy() by default. twoPhaseStrategy() is recommended. */
  strategy?: CompactionStrategy;
  /** Compact when the estimated request is above this share of the context window. In (0, 1]; default 0.9. */
  thresholdPercent?: number;
  /** Context window in tokens; by default looked up for request.model, else 128,000 with a one-time warning. */
  contextWindow?: number;
  /** The newest messages that fit in this many tokens are never changed. Default 40,000, at most half the threshold. */
  protectedTokens?: number;
  /** Tokens kept free for the reply: the threshold becomes at most contextWindow - reserveOutputTokens. */
  reserveOutputTokens?: number;
  /** Called after each compaction that changed the conversation or reported an error. */
  onCompaction?: (info: CompactionInfo) => void;
}

interface RunMemory {
  counter: TranscriptCounter;
  /** Tokens the provider counted beyond the estimate on the previous call. */
  calibration: number;
  /** The estimate (without calibration) of the request about to be sent. */
  rawEstimate: number | undefined;
  /** An attempt changed nothing: stay quiet until one does. */
  quiet: boolean;
  /** Summaries are paused until the transcript has this many messages. */
  pausedUntil: number | undefined;
}

function sameMessages(a: readonly Message[], b: readonly Message[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function checkResult(result: unknown, strategy: string, input: readonly Message[]): CompactionResult {
  const r = result as Partial<CompactionResult> | null;
  if (typeof r !== 'object' || r === null || !Array.isArray(r.messages)) {
    throw new Error(
      `Strategy '${strategy}' returned no messages array; compact() must return { messages, tokensBefore, tokensAfter, prunedToolCallIds }.`,
    );
  }
  validateMessages(r.messages);
  const broken = findPairingProblem(r.messages);
  if (broken !== undefined && findPairingProblem(input) === undefined) {
    throw new Error(
      `Strategy '${strategy}' broke the transcript (${broken}); it was not applied. A strategy must keep every tool call with its result.`,
    );
  }
  return { ...r, prunedToolCallIds: Array.isArray(r.prunedToolCallIds) ? r.prunedToolCallIds : [] } as CompactionResult;
}

/**
 * An AgentHook named 'compaction' that keeps a run under its model's context window.
 * Before every model call it estimates the request (messages, tool definitions, output
 * schema, plus what the provider counted beyond the estimate on the run's previous call);
 * above the threshold it runs the strategy and rewrites the run's transcript in place.
 * Compaction never fails a run.
 *
 * @example
 * createAgent({ provider, hooks: [createCompactionHook({ strategy: twoPhaseStrategy({ model: 'openai/gpt-4o-mini' }) })] });
 */
export function createCompactionHook(options: CompactionHookOptions = {}): AgentHook {
  const where = 'createCompactionHook()';
  if (typeof options !== 'object' || options === null) throw configError(`${where} takes an options object.`);
  const strategy = checkStrategy(options.strategy, where) ?? pruneToolResultsStrategy();
  const percent = checkThresholdPercent(options.thresholdPercent, where) ?? DEFAULT_THRESHOLD_PERCENT;
  const windowOption = checkContextWindow(options.contextWindow, where);
  const protectedOption = checkTokens(options.protectedTokens, 'protectedTokens', where);
  const reserve = checkTokens(options.reserveOutputTokens, 'reserveOutputTokens', where) ?? 0;
  const onCompaction = options.onCompaction;
  if (onCompaction !== undefined && typeof onCompaction !== 'function')
    throw configError(`${where}: onCompaction must be a function.`);
  const prune = pruneToolResultsStrategy();
  const warn = onceWarner();
  const runs = new WeakMap<RunContext, RunMemory>();

  const memoryOf = (run: RunContext): RunMemory => {
    let memory = runs.get(run);
    if (memory === undefined) {
      memory = {
        counter: new TranscriptCounter(),
        calibration: 0,
        rawEstimate: undefined,
        quiet: false,
        pausedUntil: undefined,
      };
      runs.set(run, memory);
    }
    return memory;
  };

  /** The request's size now (with calibration), and what it is made of. */
  function measure(request: ModelRequest, memory: RunMemory) {
    const profile = tokenProfile(request.model);
    const fixed =
      REQUEST_FRAMING_TOKENS +
      toolDefinitionTokens(request.tools, profile) +
      outputSchemaTokens(request.outputSchema, profile);
    const raw = fixed + memory.counter.count(request.messages, profile);
    memory.rawEstimate = raw;
    return { profile, fixed, tokens: raw + memory.calibration };
  }

  async function windowOf(request: ModelRequest, run: RunContext): Promise<number> {
    if (run.learnedContextWindow !== undefined) return run.learnedContextWindow;
    const { contextWindow } = await resolveContextWindow({
      option: windowOption,
      model: request.model,
      providerWindow: () => run.providerContextWindow(),
      warn,
      feature: ['Compaction', 'compaction.contextWindow (or createCompactionHook({ contextWindow }))'],
    });
    return contextWindow;
  }

  /**
   * Runs the strategy on the request's transcript (in place) to get under `thresholdTokens`,
   * reports it, and resolves to true when the transcript changed.
   */
  async function compactNow(
    { request, run, emit }: PreGenerateContext,
    sizes: { contextWindow: number; thresholdTokens: number; protectedTokens: number; loud: boolean },
    measured?: ReturnType<typeof measure>,
  ): Promise<boolean> {
    const memory = memoryOf(run);
    const messages = request.messages;
    const { profile, fixed, tokens: tokensBefore } = measured ?? measure(request, memory);
    const { contextWindow, thresholdTokens, protectedTokens } = sizes;
    const paused = summariesPaused(memory.pausedUntil, messages.length);
    if (!paused) memory.pausedUntil = undefined;
    const fallback = strategy.fallback ?? prune;
    const running = paused ? fallback : strategy;
    const start = {
      type: 'compaction.start' as const,
      runId: run.runId,
      step: run.step,
      strategy: running.name,
      tokensBefore,
      contextWindow,
      thresholdTokens,
    };
    const quiet = memory.quiet && !sizes.loud;
    if (!quiet) emit?.(start);

    const extra = fixed + memory.calibration;
    const input: CompactionInput = {
      messages,
      estimateTokens: (list) => extra + messagesTokens(list, profile),
      countMessage: (message) => messageTokens(message, profile),
      contextWindow,
      protectedTokens,
      thresholdTokens,
      model: request.model,
      ...(run.abortSignal === undefined ? {} : { abortSignal: run.abortSignal }),
      onModelCall: (call) => run.recordModelCall(call),
    };
    let result: CompactionResult | undefined;
    let error: Error | undefined;
    try {
      result = checkResult(await running.compact(input), running.name, messages);
      error = result.error;
    } catch (cause) {
      error = toError(cause);
    }
    let appliedStrategy = result?.appliedStrategy;
    if (result?.summary !== undefined) {
      const after = extra + messagesTokens(result.messages, profile);
      if (rejectSummary(tokensBefore, after, thresholdTokens)) {
        const larger = after > tokensBefore;
        error = new Error(
          larger
            ? `The summary was rejected: it made the request larger (${tokensBefore} -> ${after} tokens). Kept the pruned conversation.`
            : `The summary was rejected: the request is still ${after} tokens, above the threshold of ${thresholdTokens}. Kept the pruned conversation.`,
        );
        try {
          result = checkResult(await fallback.compact(input), fallback.name, messages);
        } catch {
          result = undefined; // keep the transcript as it was; the rejection is the error reported
        }
        appliedStrategy = fallback.name;
        memory.pausedUntil = messages.length * 2;
      }
    }
    const changed = result !== undefined && !sameMessages(result.messages, messages);
    if (changed && result !== undefined) messages.splice(0, messages.length, ...result.messages);
    const tokensAfter = changed ? fixed + memory.counter.count(messages, profile) + memory.calibration : tokensBefore;
    memory.rawEstimate = tokensAfter - memory.calibration;
    memory.quiet = !changed;
    run.noteRequestSize({ contextWindow, tokens: tokensAfter });
    if (quiet && !changed && error === undefined) return false;
    if (quiet) emit?.(start);
    const summary = changed ? result?.summary : undefined;
    emit?.({
      type: 'compaction.done',
      runId: run.runId,
      step: run.step,
      strategy: running.name,
      ...(appliedStrategy === undefined ? {} : { appliedStrategy }),
      tokensBefore,
      tokensAfter,
      prunedToolCallIds: changed ? (result?.prunedToolCallIds ?? []) : [],
      ...(summary === undefined ? {} : { summary: true }),
      ...(error === undefined ? {} : { error: { message: error.message } }),
      ...(changed ? {} : { unchanged: true as const }),
    });
    if ((changed || error !== undefined) && onCompaction !== undefined) {
      try {
        onCompaction({
          strategy: running.name,
          ...(appliedStrategy === undefined ? {} : { appliedStrategy }),
          tokensBefore,
          tokensAfter,
          prunedToolCallIds: changed ? (result?.prunedToolCallIds ?? []) : [],
          ...(summary === undefined ? {} : { summary }),
          ...(error === undefined ? {} : { error }),
          contextWindow,
          thresholdTokens,
        });
      } catch (callbackError) {
        console.error('@lousho/build-ai-agent: onCompaction threw; the run goes on.', callbackError);
      }
    }
    return changed;
  }

  async function preGenerate(ctx: PreGenerateContext): Promise<void> {
    const { request, run } = ctx;
    const measured = measure(request, memoryOf(run));
    const { tokens } = measured;
    const contextWindow = await windowOf(request, run);
    const thresholdTokens = computeThreshold(contextWindow, percent, reserve);
    if (tokens <= thresholdTokens) {
      run.noteRequestSize({ contextWindow, tokens });
      return;
    }
    const { protectedTokens, capped } = effectiveProtectedTokens(protectedOption, thresholdTokens);
    if (capped) {
      warn(
        'protected',
        `@lousho/build-ai-agent: compaction protectedTokens (${protectedOption}) is at or above the threshold (${thresholdTokens} tokens) ` +
          `and would protect everything; using ${protectedTokens}. Set protectedTokens below the threshold.`,
      );
    }
    await compactNow(ctx, { contextWindow, thresholdTokens, protectedTokens, loud: false }, measured);
  }

  /** Compacts harder when the request does not fit: to the target, with at most half of it protected. */
  async function recover(ctx: RecoverContext): Promise<boolean> {
    const contextWindow = await windowOf(ctx.request, ctx.run);
    const thresholdTokens = Math.max(1, Math.min(ctx.targetTokens, computeThreshold(contextWindow, percent, reserve)));
    const { protectedTokens } = effectiveProtectedTokens(protectedOption, thresholdTokens);
    const tighter = Math.min(protectedTokens, Math.floor(thresholdTokens / 2));
    return compactNow(
      { request: ctx.request, run: ctx.run, ...(ctx.emit === undefined ? {} : { emit: ctx.emit }) },
      { contextWindow, thresholdTokens, protectedTokens: tighter, loud: true },
    );
  }

  function postGenerate({ response, run }: PostGenerateContext): void {
    const memory = runs.get(run);
    if (memory === undefined) return;
    memory.calibration = calibrationAfterCall(response.usage.inputTokens, memory.rawEstimate, memory.calibration);
  }

  return { name: 'compaction', preGenerate, postGenerate, recover };
}
