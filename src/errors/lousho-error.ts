const MARKER = Symbol.for('@lousho/build-ai-agent.error');

/**
 * Every stable error code the library throws. Codes never change meaning between
 * versions; match on `error.code`, not on the message. Every code names the thing first
 * and then its state, `LOUSHO_<THING>_<STATE>` (`LOUSHO_SESSION_BUSY`,
 * `LOUSHO_API_KEY_MISSING`); `LOUSHO_ABORTED` is the one whose thing (the run, or the
 * call) goes without saying.
 */
export type LoushoErrorCode =
  /** An option passed to a factory or function is invalid. The message names the option. */
  | 'LOUSHO_CONFIG_INVALID'
  /** A message does not have the shape of a `Message`. The message names the index and the field. */
  | 'LOUSHO_MESSAGE_INVALID'
  /** A `"provider/model"` spec names a provider the library does not know. */
  | 'LOUSHO_PROVIDER_NOT_FOUND'
  /** A provider needs an API key and none was given or found in the environment. */
  | 'LOUSHO_API_KEY_MISSING'
  /** The provider rejected the request because it is longer than the context window. */
  | 'LOUSHO_CONTEXT_OVERFLOW'
  /** The provider rejected an image or file as too large. */
  | 'LOUSHO_MEDIA_TOO_LARGE'
  /** The provider answered 429. `retryAfterMs` is set when it said how long to wait. */
  | 'LOUSHO_RATE_LIMITED'
  /** The provider rejected the API key. */
  | 'LOUSHO_AUTHENTICATION_FAILED'
  /** The provider failed (5xx) or answered with something that could not be read. */
  | 'LOUSHO_PROVIDER_FAILED'
  /** A run reached one of its limits (maxSteps, maxTokens, maxCostUsd). */
  | 'LOUSHO_LIMIT_EXCEEDED'
  /** A run or model call was aborted through its AbortSignal. */
  | 'LOUSHO_ABORTED'
  /** An optional package a feature needs is not installed (openai, @anthropic-ai/sdk). The message names it. */
  | 'LOUSHO_DEPENDENCY_MISSING'
  /**
   * A session was asked to do something while one of its turns is running, in this process or
   * in another one that holds the session's lease (see `DEFAULT_LEASE_MS`).
   */
  | 'LOUSHO_SESSION_BUSY'
  /**
   * A session has a turn that a crash left unfinished: call `session.resume()` to continue it or
   * `session.cancelPending()` to drop it before sending, streaming or compacting.
   */
  | 'LOUSHO_SESSION_TURN_PENDING'
  /**
   * A session's turn stopped before tool calls that need approval: decide each with
   * `session.approve(id)` / `session.reject(id)`, then `session.resume()`.
   */
  | 'LOUSHO_SESSION_AWAITING_APPROVAL'
  /** `session.resume()` was called on a session with no unfinished turn; `send()` starts a new one. */
  | 'LOUSHO_SESSION_IDLE'
  /**
   * A call that waited for approval already has the other decision: a decision is final, so the
   * second one was refused and nothing changed (the same decision again is a no-op).
   */
  | 'LOUSHO_SESSION_DECISION_FINAL'
  /**
   * `session.send(input, { idempotencyKey })` was given a key whose turn was dropped (by
   * `cancelPending()` or `rewind()`); no second turn is started for a key. Send with a new key.
   */
  | 'LOUSHO_SESSION_TURN_CANCELLED'
  /**
   * Someone else wrote to the session since this process read it (its lease expired and
   * another process took the session over, or the session was cleared). Nothing was written;
   * reopen the session to see its current state.
   */
  | 'LOUSHO_SESSION_CONFLICT'
  /** What a session store holds is not what this library wrote (or not where it belongs); it was left as it is. */
  | 'LOUSHO_STORE_INVALID'
  /** A compaction strategy (or the summarizer it called) threw or gave nothing usable; the run went on without it. */
  | 'LOUSHO_STRATEGY_FAILED'
  /** A compaction strategy returned a result that breaks the transcript or makes it larger; it was not applied. */
  | 'LOUSHO_STRATEGY_RESULT_INVALID'
  /** A summary left the request above the threshold or made it larger; the pruned conversation was kept. */
  | 'LOUSHO_SUMMARY_REJECTED'
  /**
   * A transcript file matches no format the converters read, or reading it gave no messages.
   * The message lists the formats read; nothing was written.
   */
  | 'LOUSHO_TRANSCRIPT_UNRECOGNIZED'
  /** A session store could not be read or written (permissions, a folder it cannot create, a lost connection). */
  | 'LOUSHO_STORE_FAILED'
  /** A session id a store cannot keep (empty, or too long for the file system). */
  | 'LOUSHO_STORE_ID_INVALID'
  /** A hook threw; the run ended. The hook's error is the cause. */
  | 'LOUSHO_HOOK_FAILED'
  /** A scripted model (testing) was called more often than its script allows, or left steps unused. */
  | 'LOUSHO_MOCK_SCRIPT_MISMATCH'
  /** An MCP server (named in the message and in details.server) could not be started, listed or reached, or it crashed. */
  | 'LOUSHO_MCP_SERVER_FAILED'
  /** The model's final answer did not match createAgent({ outputSchema }), even after one retry; details.text is the raw reply. */
  | 'LOUSHO_OUTPUT_INVALID'
  /** A provider call took longer than its timeout (details.limit names it: requestTimeoutMs or streamIdleTimeoutMs). Retryable. */
  | 'LOUSHO_PROVIDER_TIMEOUT'
  /** A tool call's arguments are nested deeper or are larger than the tools accept; the message says which. */
  | 'LOUSHO_TOOL_ARGUMENTS_INVALID';

/** What a LoushoError carries besides its code and message. */
export interface LoushoErrorOptions {
  /** What caused it (the provider's error, the value a tool threw); becomes `error.cause`. */
  cause?: unknown;
  /** True when repeating the same call later may succeed (rate limits, server errors). */
  isRetryable?: boolean;
  /** Structured facts about the failure, e.g. `{ option: 'thresholdPercent' }`. */
  details?: Record<string, unknown>;
  /** What a run had done when it failed (an AgentResult); read it with partialResult(error). */
  partialResult?: unknown;
}

/** The serialisable form of a {@link LoushoError}, e.g. for storing it with a session. */
export interface SerializedLoushoError {
  /** Always 'LoushoError', to tell it from other stored errors. */
  name: 'LoushoError';
  /** The error's stable code. */
  code: LoushoErrorCode;
  /** What was wrong and how to fix it. */
  message: string;
  /** True when repeating the same call later may succeed. */
  isRetryable: boolean;
  /** Structured facts about the failure, when there are any. */
  details?: Record<string, unknown>;
}

/**
 * The one error class of the library. Each instance has a stable {@link LoushoErrorCode}
 * and a message that says what was wrong and how to fix it.
 *
 * @example
 * try { await agent.send('hi'); } catch (e) {
 *   if (LoushoError.isInstance(e) && e.code === 'LOUSHO_RATE_LIMITED') ...
 * }
 */
export class LoushoError extends Error {
  /** The stable code to match on, e.g. 'LOUSHO_RATE_LIMITED'. */
  readonly code: LoushoErrorCode;
  /** True when repeating the same call later may succeed (rate limits, server errors). */
  readonly isRetryable: boolean;
  /** Structured facts about the failure, e.g. `{ option: 'thresholdPercent' }`; undefined when none. */
  readonly details: Record<string, unknown> | undefined;
  /** What a run had done when it failed (an AgentResult), when the error ended a run. */
  readonly partialResult: unknown;
  /** Marks the instance for isInstance(), which works across copies of the package. */
  readonly [MARKER] = true;

  constructor(code: LoushoErrorCode, message: string, options: LoushoErrorOptions = {}) {
    super(joinedSentences(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LoushoError';
    this.code = code;
    this.isRetryable = options.isRetryable ?? false;
    this.details = options.details;
    this.partialResult = options.partialResult;
  }

  /** True for any LoushoError, even one created by another copy of the package. */
  static isInstance(value: unknown): value is LoushoError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** The code, message, isRetryable and details (not the cause or partial result), for JSON.stringify. */
  toJSON(): SerializedLoushoError {
    return {
      name: 'LoushoError',
      code: this.code,
      message: this.message,
      isRetryable: this.isRetryable,
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

/**
 * A message whose sentences were joined from other messages, without the doubled full stop
 * such joins leave ("Connection error.. Check the base URL"): a lone ".." before a space or
 * the end becomes ".", while an ellipsis and a path's "../" stay.
 */
export function joinedSentences(message: string): string {
  return message.replace(/(?<!\.)\.\.(?=\s|$)/g, '.');
}

/** Shorthand for the configuration error every factory throws on a bad option. */
export function configError(message: string, details?: Record<string, unknown>): LoushoError {
  return new LoushoError('LOUSHO_CONFIG_INVALID', message, details === undefined ? {} : { details });
}

/**
 * The error of a run or model call stopped through its AbortSignal (LOUSHO_ABORTED), with
 * what was thrown at the abort (the signal's reason, a client's abort error) as its cause.
 * Every part of the library that honours a signal throws this one.
 */
export function abortedError(message?: string, cause?: unknown, partialResult?: unknown): LoushoError {
  return new LoushoError(
    'LOUSHO_ABORTED',
    message ?? 'The run or model call was aborted through its AbortSignal (abortSignal.abort() was called).',
    { ...(cause === undefined ? {} : { cause }), ...(partialResult === undefined ? {} : { partialResult }) },
  );
}

/** Turns anything thrown into an Error, so `error.message` is always there. */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  return new Error(typeof value === 'string' ? value : JSON.stringify(value));
}
