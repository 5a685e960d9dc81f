import type { Message } from '../messages/types.js';
import type { ModelRequest } from './model-request.js';

/** What a request's size is measured from. A ModelRequest fits. */
export type SizedRequest = Pick<ModelRequest, 'model' | 'messages' | 'tools' | 'outputSchema'>;

/** Where a context window came from, in the order they are consulted. */
export type WindowSource = 'option' | 'registered' | 'provider' | 'registry' | 'fallback';

/** Which feature asks for the window, for the one-time warning when none is known. */
export interface WindowQuery {
  /** The feature's own setting (e.g. compaction.contextWindow); it wins over every other source. */
  option?: number | undefined;
  /**
   * The feature that asks, for the one-time warning when no source knows the window: its
   * name and setting (e.g. 'Compaction', 'compaction.contextWindow') and the function that
   * warns once per feature.
   */
  feature?: {
    /** The feature's name as the warning gives it, e.g. 'Compaction'. */
    name: string;
    /** The setting the warning tells the user to set, e.g. 'compaction.contextWindow'. */
    setting: string;
    /** Called with a key (`fallback:<model>`) and the warning text; it should say each key only once. */
    warn: (key: string, message: string) => void;
  };
  /**
   * What to do when no source knows the window: 'assume' takes 128,000 tokens and warns
   * once (the default), 'none' resolves to undefined.
   */
  unknown?: 'assume' | 'none';
}

/**
 * The one owner of a run's request sizes: the token count of a request (one formula:
 * request framing, tool definitions, output schema, messages, plus what the provider
 * counted beyond the estimate on the run's previous call), and the context window it must
 * fit in. Every part of a run asks it: the compaction hook, tool search, the preflight
 * fit and the recoveries. It counts only what changed since it was last asked.
 */
export interface RequestBudget {
  /** The request's size in tokens, calibration included. */
  measure(request: SizedRequest): number;
  /** The size of `request` with `messages` in place of its own, calibration included (for strategies). */
  measureWith(request: SizedRequest, messages: readonly Message[]): number;
  /** Tokens of one message under the request model's tokenizer. */
  messageTokens(message: Message, model: string): number;
  /** Tokens the provider counted beyond the estimate on the last call that reported them. */
  readonly calibration: number;
  /** After a call: what the provider reported for `request` (its prompt tokens) sets the calibration. */
  calibrate(request: SizedRequest, reportedInputTokens: number | undefined): void;
  /**
   * The context window of the run's model: the feature's option, else a model added with
   * registerModel(), else what the serving provider reports (a local server's loaded
   * length), else the built-in table, else 128,000 with a one-time warning; capped by a
   * window a provider stated when it rejected a request as too long. A feature's option is
   * also remembered as the run's window for the features that have none (the preflight).
   */
  contextWindow(query?: WindowQuery & { unknown?: 'assume' }): Promise<number>;
  /**
   * The same lookup with `unknown: 'none'`: no 128,000 fallback and no warning; when no source
   * knows the window, the window learned from an overflow, else undefined.
   */
  contextWindow(query: WindowQuery & { unknown: 'none' }): Promise<number | undefined>;
  /** Records the window a provider stated in an overflow error; it caps every later lookup of the run. */
  learnWindow(limit: number): void;
  /** The window learned from an overflow, if any. */
  readonly learnedWindow: number | undefined;
}
