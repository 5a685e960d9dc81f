import type { AgentEvent } from '../contracts/agent-event.js';
import type { RunContext } from '../contracts/agent-hook.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { abortedError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { type CompactionInfo, compactionDoneEvent, compactionInfo, compactionStartEvent } from './compaction-report.js';
import { type CompactionOutcome, runCompaction } from './run-compaction.js';
import type { CompactionInput, CompactionStrategy } from './types.js';

/** One compaction of a run's request: what runs, on what sizes, and how it is reported. */
export interface RunCompaction {
  request: ModelRequest;
  run: RunContext;
  emit: ((event: AgentEvent) => void) | undefined;
  /** The layered strategy (or the layered overflow recovery). */
  strategy: CompactionStrategy;
  tokensBefore: number;
  contextWindow: number;
  thresholdTokens: number;
  protectedTokens: number;
  /** 'overflow' for the overflow recovery; absent above the threshold. */
  trigger?: 'overflow';
  /** Report only what changed (a layer's work below the threshold; a transcript that could not shrink before). */
  quiet: boolean;
  onCompaction: ((info: CompactionInfo) => void) | undefined;
}

/** The strategy's input for the run's request: the transcript itself, measured incrementally by the run's budget. */
function inputFor(c: RunCompaction): CompactionInput {
  const { request, run } = c;
  const messages = request.messages;
  return {
    messages,
    // The transcript itself was just measured (incrementally): only other lists are measured in full.
    estimateTokens: (list: readonly Message[]) =>
      list === messages ? c.tokensBefore : run.budget.measureWith(request, list),
    countMessage: (message) => run.budget.messageTokens(message, request.model),
    contextWindow: c.contextWindow,
    protectedTokens: c.protectedTokens,
    thresholdTokens: c.thresholdTokens,
    model: request.model,
    ...(run.abortSignal === undefined ? {} : { abortSignal: run.abortSignal }),
    onModelCall: (call) => run.recordModelCall(call),
    provider: run.provider,
    ...(request.tools === undefined ? {} : { tools: request.tools }),
    ...(request.cacheKey === undefined ? {} : { cacheKey: request.cacheKey }),
    // The run's transcript is the same array at every step: what layers keep their state by.
    transcript: messages,
  };
}

/**
 * Compacts a run's request: the strategy runs through the one runner, the run's transcript
 * is rewritten in place when it changed, and it is reported: compaction.start before the
 * strategy runs and compaction.done after it (when quiet, both only if something changed or
 * failed), onCompaction for a change or an error. An abort ends the compaction at once,
 * reported as unchanged with the abort as its error.
 */
export async function compactInRun(c: RunCompaction): Promise<CompactionOutcome> {
  const { request, run, emit } = c;
  const input = inputFor(c);
  const name = c.strategy.running?.(input) ?? c.strategy.name;
  const where = { runId: run.runId, step: run.step, ...(c.trigger === undefined ? {} : { trigger: c.trigger }) };
  const sizes = { contextWindow: c.contextWindow, thresholdTokens: c.thresholdTokens };
  const start = compactionStartEvent(where, { strategy: name, tokensBefore: c.tokensBefore, ...sizes });
  if (!c.quiet) emit?.(start);
  // An abort ends the run at once: its compaction.done goes out right then, before the run's own end.
  let aborted: CompactionOutcome | undefined;
  const onAbort = () => {
    aborted = {
      messages: request.messages,
      changed: false,
      strategy: name,
      tokensBefore: c.tokensBefore,
      tokensAfter: c.tokensBefore,
      prunedToolCallIds: [],
      error: abortedError(
        'The run was aborted through its AbortSignal during a compaction; the transcript was kept as it was.',
      ),
    };
    if (c.quiet) emit?.(start);
    emit?.(compactionDoneEvent(where, aborted));
  };
  run.abortSignal?.addEventListener('abort', onAbort, { once: true });
  let outcome: CompactionOutcome;
  try {
    outcome = await runCompaction(c.strategy, input, c.tokensBefore, name);
  } finally {
    run.abortSignal?.removeEventListener('abort', onAbort);
  }
  if (aborted !== undefined) return aborted;
  if (outcome.changed) {
    // Through the run's transcript when these are its messages: its token count, and a
    // framework's conversation, recount and rewrite only from where it changed.
    const from = outcome.from ?? 0;
    const next = outcome.messages.slice(from);
    if (run.transcript?.messages === request.messages) run.transcript.replaceFrom(from, next);
    else {
      request.messages.length = from;
      for (const message of next) request.messages.push(message);
    }
  }
  if (c.quiet && !outcome.changed && outcome.error === undefined) return outcome;
  if (c.quiet) emit?.(start);
  emit?.(compactionDoneEvent(where, outcome));
  if ((outcome.changed || outcome.error !== undefined) && c.onCompaction !== undefined) {
    try {
      c.onCompaction(compactionInfo(outcome, sizes));
    } catch (callbackError) {
      console.error('@lousho/build-ai-agent: onCompaction threw; the run goes on.', callbackError);
    }
  }
  return outcome;
}
