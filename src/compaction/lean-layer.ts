import { latestAssistantIndex } from '../messages/turns.js';
import { digestMarkers } from './marker-writers.js';
import { pruneWith } from './prune-tool-results.js';
import { type CompactionResult, type CompactionStrategy, layered, type TranscriptAt, transcriptOf } from './types.js';

/** A result is pruned at every step in lean mode only when it has this many times its marker's tokens. */
export const LEAN_MIN_GAIN_RATIO = 3;

/** What lean mode remembers of one transcript between its steps. */
interface LeanState {
  /** Results before this index were already looked at. */
  readFrom: number;
  /** The names the transcript shows before `readFrom`, which a digest need not repeat. */
  shown: Set<string>;
  /** The transcript's length after the last step: shorter now means something removed messages. */
  length: number;
}

/**
 * Lean mode (`mode: 'lean'`), a layer around the strategy: at every step, each tool result the
 * model has answered since the last step is pruned to a digest marker when it pays for its
 * marker (LEAN_MIN_GAIN_RATIO times its tokens), only the newest turn and `protectedTokens`
 * (when set) kept whole; only the end of the transcript changes, so the prompt cache keeps the
 * rest. Above the threshold, the strategy it wraps then runs on what is left. It wants to run
 * at every step the model answered. Its state is per transcript.
 *
 * Pick it when the bill matters more than the model re-reading an old output in full.
 */
export function leanLayer(
  strategy: CompactionStrategy,
  options: { protectedTokens?: number | undefined; digestChars?: number | undefined } = {},
): CompactionStrategy {
  const states = new WeakMap<object, LeanState>();
  const stateOf = (at: TranscriptAt): LeanState => {
    let state = states.get(transcriptOf(at));
    // Something removed messages (a fold, a summary, the overflow recovery): look at everything again.
    if (state === undefined || at.messages.length < state.length) {
      state = { readFrom: 0, shown: new Set(), length: at.messages.length };
      states.set(transcriptOf(at), state);
    }
    return state;
  };
  return layered(
    strategy,
    async (input): Promise<CompactionResult> => {
      const state = stateOf(input);
      const from = state.readFrom;
      state.readFrom = Math.max(0, latestAssistantIndex(input.messages));
      const read = pruneWith(
        { ...input, protectedTokens: options.protectedTokens ?? 0 },
        digestMarkers(options.digestChars, state.shown),
        { from, minGainRatio: LEAN_MIN_GAIN_RATIO },
      );
      state.length = read.messages.length;
      if (read.tokensAfter <= input.thresholdTokens) return read;
      const rest = await strategy.compact({ ...input, messages: read.messages });
      if (rest.messages.length !== read.messages.length) states.delete(transcriptOf(input));
      if (rest.messages === read.messages) return read;
      return {
        ...rest,
        tokensBefore: read.tokensBefore,
        prunedToolCallIds: [...read.prunedToolCallIds, ...rest.prunedToolCallIds],
      };
    },
    {
      wants: (at) => latestAssistantIndex(at.messages) > stateOf(at).readFrom,
    },
  );
}
