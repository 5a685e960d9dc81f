import type { AgentEvent } from '../contracts/agent-event.js';
import type { RunContext } from '../contracts/agent-hook.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { abortedError } from '../errors/lousho-error.js';
import { noteEdit } from '../messages/edits.js';
import type { Message } from '../messages/types.js';
import { type CompactionInfo, compactionDoneEvent, compactionInfo, compactionStartEvent } from './compaction-report.js';
import { hookMemory, readAgain } from './hook-memory.js';
import type { PrunedResultStore } from './pruned-store.js';
import { keepForRecall } from './recall-layer.js';
import { type CompactionOutcome, runCompaction } from './run-compaction.js';
import type { CompactionInput, CompactionStrategy } from './types.js';

/** One compaction the hook runs on a run's request: what runs, on what sizes, and how it is reported. */
export interface HookAttempt {
  request: ModelRequest;
  run: RunContext;
  emit: ((event: AgentEvent) => void) | undefined;
  strategy: CompactionStrategy;
  /** Whose result is kept when a summary is rejected. */
  fallback: CompactionStrategy;
  tokensBefore: number;
  contextWindow: number;
  thresholdTokens: number;
  protectedTokens: number;
  /** 'overflow' for the overflow recovery; absent above the threshold. */
  trigger?: 'overflow';
  /** Report only what changed (lean mode's per-step prune; a transcript that could not shrink before). */
  quiet: boolean;
  recall: PrunedResultStore | undefined;
  onCompaction: ((info: CompactionInfo) => void) | undefined;
}

/** What a compaction the run's abort cut short reports: nothing changed, the abort as its error. */
function abortedOutcome(a: HookAttempt): CompactionOutcome {
  return {
    messages: a.request.messages,
    changed: false,
    strategy: a.strategy.name,
    tokensBefore: a.tokensBefore,
    tokensAfter: a.tokensBefore,
    prunedToolCallIds: [],
    error: abortedError(
      'The run was aborted through its AbortSignal during a compaction; the transcript was kept as it was.',
    ),
    summaryRejected: false,
  };
}

/** The strategy's input for the run's request: the transcript itself, measured incrementally by the run's budget. */
function inputFor(a: HookAttempt): CompactionInput {
  const { request, run } = a;
  const messages = request.messages;
  return {
    messages,
    // The transcript itself was just measured (incrementally): only other lists are measured in full.
    estimateTokens: (list: readonly Message[]) =>
      list === messages ? a.tokensBefore : run.budget.measureWith(request, list),
    countMessage: (message) => run.budget.messageTokens(message, request.model),
    contextWindow: a.contextWindow,
    protectedTokens: a.protectedTokens,
    thresholdTokens: a.thresholdTokens,
    model: request.model,
    ...(run.abortSignal === undefined ? {} : { abortSignal: run.abortSignal }),
    onModelCall: (call) => run.recordModelCall(call),
    provider: run.provider,
    ...(request.tools === undefined ? {} : { tools: request.tools }),
    ...(request.cacheKey === undefined ? {} : { cacheKey: request.cacheKey }),
  };
}

/**
 * Runs the strategy through the one runner, rewrites the run's transcript in place when it
 * changed (saving originals for recall first), and reports it: compaction.start before the
 * strategy runs and compaction.done after it, or, when quiet, both only if something
 * changed or failed; onCompaction for a change or an error.
 */
export async function attemptCompaction(a: HookAttempt): Promise<CompactionOutcome> {
  const { request, run, emit } = a;
  const where = { runId: run.runId, step: run.step, ...(a.trigger === undefined ? {} : { trigger: a.trigger }) };
  const start = compactionStartEvent(where, {
    strategy: a.strategy.name,
    tokensBefore: a.tokensBefore,
    contextWindow: a.contextWindow,
    thresholdTokens: a.thresholdTokens,
  });
  if (!a.quiet) emit?.(start);
  const messages = request.messages;
  // An abort ends the run at once: its compaction.done goes out right then, before the run's own end.
  let aborted: CompactionOutcome | undefined;
  const onAbort = () => {
    aborted = abortedOutcome(a);
    if (a.quiet) emit?.(start);
    emit?.(compactionDoneEvent(where, aborted));
  };
  run.abortSignal?.addEventListener('abort', onAbort, { once: true });
  let outcome: CompactionOutcome;
  try {
    outcome = await runCompaction({
      strategy: a.strategy,
      fallback: a.fallback,
      input: inputFor(a),
      tokensBefore: a.tokensBefore,
    });
  } finally {
    run.abortSignal?.removeEventListener('abort', onAbort);
  }
  if (aborted !== undefined) return aborted;
  if (outcome.changed) {
    const memory = hookMemory(run);
    let next = outcome.messages;
    if (a.recall !== undefined) {
      const kept = await keepForRecall(a.recall, messages, next, outcome.prunedToolCallIds);
      next = kept.messages;
      memory.recallable += kept.saved;
    }
    // Messages removed (a fold, a summary) move lean mode's position: it looks at everything again.
    if (next.length !== messages.length) readAgain(memory);
    replaceFrom(messages, next, outcome.from ?? 0);
    memory.length = messages.length;
  }
  if (a.quiet && !outcome.changed && outcome.error === undefined) return outcome;
  if (a.quiet) emit?.(start);
  emit?.(compactionDoneEvent(where, outcome));
  if ((outcome.changed || outcome.error !== undefined) && a.onCompaction !== undefined) {
    try {
      a.onCompaction(compactionInfo(outcome, a));
    } catch (callbackError) {
      console.error('@lousho/build-ai-agent: onCompaction threw; the run goes on.', callbackError);
    }
  }
  return outcome;
}

/**
 * Makes `messages` hold `next`, in place, from `from` on (the runner found the messages
 * before it the same; the recall layer changes only pruned results, which come after), noted
 * as an edit there, so that the run's token count and a framework's conversation recount and
 * rewrite only from there (a prune of the newest results changes only the end).
 */
function replaceFrom(messages: Message[], next: readonly Message[], from: number): void {
  messages.length = from;
  for (let i = from; i < next.length; i++) messages.push(next[i] as Message);
  noteEdit(messages, from);
}
