import { LoushoError, type LoushoErrorCode } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { findPairingProblem, validateMessage, validateMessageShapes } from '../messages/validate.js';
import { type CompactionInput, type CompactionResult, type CompactionStrategy, messageCounter } from './types.js';

/** What a compaction did: the new transcript and everything the events and onCompaction report. */
export interface CompactionOutcome {
  /** The transcript to keep: `input.messages` itself when nothing changed. */
  messages: Message[];
  changed: boolean;
  /** When it changed: the first message of `messages` that is not the input's (the ones before are the same objects). */
  from?: number;
  /** The strategy that ran. */
  strategy: string;
  /** The strategy whose result was kept, when it differs (a fallback or a rejected summary). */
  appliedStrategy?: string;
  /** The request's estimated size before, in tokens. */
  tokensBefore: number;
  /** Its estimated size after, in tokens (tokensBefore when nothing changed). */
  tokensAfter: number;
  /** The toolCallIds whose results were replaced by a marker (empty when nothing changed). */
  prunedToolCallIds: string[];
  /** The summary text, when old turns were replaced by one. */
  summary?: string;
  /** What went wrong, when something did; the run goes on either way. */
  error?: LoushoError;
}

/** The first index where `b` holds another message than `a` (or one of them ends), undefined when they are the same. */
function firstDifference(a: readonly Message[], b: readonly Message[]): number | undefined {
  if (a === b) return undefined;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i === a.length && i === b.length ? undefined : i;
}

/** Anything a strategy threw or reported, as a LoushoError (a LoushoError is kept as it is). */
export function compactionError(value: unknown, code: LoushoErrorCode, strategy: string): LoushoError {
  if (LoushoError.isInstance(value)) return value;
  const message = value instanceof Error ? value.message : typeof value === 'string' ? value : JSON.stringify(value);
  return new LoushoError(code, `Strategy '${strategy}' failed: ${message}. The conversation was kept as it was.`, {
    cause: value,
    details: { strategy },
  });
}

function invalid(strategy: string, problem: string): LoushoError {
  return new LoushoError(
    'LOUSHO_STRATEGY_RESULT_INVALID',
    `Strategy '${strategy}' ${problem}; its result was not applied. A strategy returns { messages, tokensBefore, tokensAfter, ` +
      'prunedToolCallIds }, keeps every tool call with its result, and never makes the conversation larger.',
    { details: { strategy } },
  );
}

/** The indices where `next` holds another message than `input`, when it is the same length and changed only tool results' content. */
function resultsOnlyChanges(input: readonly Message[], next: readonly unknown[]): number[] | undefined {
  if (next.length !== input.length) return undefined;
  const changed: number[] = [];
  for (let i = 0; i < next.length; i++) {
    const before = input[i] as Message;
    const after = next[i] as Message | null | undefined;
    if (after === before) continue;
    if (typeof after !== 'object' || after === null) return undefined;
    if (before.role !== 'tool' || after.role !== 'tool' || after.toolCallId !== before.toolCallId) return undefined;
    changed.push(i);
  }
  return changed;
}

/** Checks a strategy's result: a messages array of valid messages, every tool call still with its result. */
function checkResult(result: unknown, strategy: string, input: readonly Message[]): CompactionResult {
  const r = result as Partial<CompactionResult> | null;
  if (typeof r !== 'object' || r === null || !Array.isArray(r.messages))
    throw invalid(strategy, 'returned no messages array');
  // A result that only replaced the content of tool results (a prune) keeps every pairing:
  // only the replaced messages need checking, so a prune costs what it changed.
  const changed = resultsOnlyChanges(input, r.messages);
  try {
    if (changed === undefined) validateMessageShapes(r.messages);
    else for (const i of changed) validateMessage(r.messages[i], i);
  } catch (cause) {
    throw invalid(strategy, `returned a malformed message (${(cause as Error).message})`);
  }
  const broken = changed === undefined ? findPairingProblem(r.messages) : undefined;
  if (broken !== undefined && findPairingProblem(input) === undefined)
    throw invalid(strategy, `broke the transcript (${broken})`);
  return { ...r, prunedToolCallIds: Array.isArray(r.prunedToolCallIds) ? r.prunedToolCallIds : [] } as CompactionResult;
}

/**
 * The request's size with `result` in place of the input: for a result that only replaced
 * tool results, the size before plus what those messages changed (a request's size is the
 * sum of its messages'), so a prune costs what it changed; else measured in full.
 */
function sizeOf(result: readonly Message[], input: CompactionInput, tokensBefore: number): number {
  const changed = resultsOnlyChanges(input.messages, result);
  if (changed === undefined) return input.estimateTokens(result);
  const count = messageCounter(input);
  let size = tokensBefore;
  for (const i of changed) size += count(result[i] as Message) - count(input.messages[i] as Message);
  return size;
}

/**
 * Runs one compaction the same way for the hook, session.compact() and compactMessages(),
 * and only validates it: the strategy (its layers around it) runs on `input` (never
 * modified); its result must be a valid transcript that keeps every tool call with its
 * result and is not larger than the input. Nothing here throws: every failure is the
 * outcome's `error`, a LoushoError with a code, and the transcript stays as it was.
 * `name` is what the events call the strategy that ran (see CompactionStrategy.running).
 */
export async function runCompaction(
  strategy: CompactionStrategy,
  input: CompactionInput,
  tokensBefore: number,
  name = strategy.name,
): Promise<CompactionOutcome> {
  const messages = input.messages;
  const unchanged = (error: LoushoError): CompactionOutcome => ({
    messages,
    changed: false,
    strategy: name,
    tokensBefore,
    tokensAfter: tokensBefore,
    prunedToolCallIds: [],
    error,
  });
  let result: CompactionResult;
  try {
    result = checkResult(await strategy.compact(input), name, messages);
  } catch (cause) {
    return unchanged(LoushoError.isInstance(cause) ? cause : compactionError(cause, 'LOUSHO_STRATEGY_FAILED', name));
  }
  const error = result.error === undefined ? undefined : compactionError(result.error, 'LOUSHO_STRATEGY_FAILED', name);
  const from = firstDifference(messages, result.messages);
  const tokensAfter = from === undefined ? tokensBefore : sizeOf(result.messages, input, tokensBefore);
  if (from !== undefined && tokensAfter > tokensBefore)
    return unchanged(invalid(name, `made the request larger (${tokensBefore} -> ${tokensAfter} tokens)`));
  const reported = {
    strategy: name,
    ...(result.appliedStrategy === undefined ? {} : { appliedStrategy: result.appliedStrategy }),
    tokensBefore,
    ...(error === undefined ? {} : { error }),
  };
  if (from === undefined)
    return { messages, changed: false, tokensAfter: tokensBefore, prunedToolCallIds: [], ...reported };
  return {
    messages: result.messages,
    changed: true,
    from,
    ...reported,
    tokensAfter,
    prunedToolCallIds: result.prunedToolCallIds,
    ...(result.summary === undefined ? {} : { summary: result.summary }),
  };
}
