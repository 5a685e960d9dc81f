import { LoushoError } from '../errors/lousho-error.js';
import { RunState } from '../executor/run-state.js';
import type { Message } from '../messages/types.js';

function notOurs(framework: string): never {
  throw new LoushoError(
    'LOUSHO_CONFIG_INVALID',
    `This conversation's model calls are made by ${framework}; a hook cannot call run.provider here.`,
  );
}

/**
 * A run as the compaction hook sees it, for a loop that another framework (the AI SDK, the
 * OpenAI Agents SDK) drives: our RunState (its steps, its transcript, the summarizer calls of
 * its compactions in `usage`, a chat span for each of them), with a provider of its own that
 * refuses calls, since the framework makes them.
 */
export class ForeignRun extends RunState {
  constructor(messages: Message[], framework: string, modelId: string) {
    super({
      messages,
      provider: {
        provider: framework,
        modelId,
        generate: () => notOurs(framework),
        stream: () => notOurs(framework),
      },
      abortSignal: undefined,
      emit: undefined,
      idPrefix: framework.replace(/\W+/g, '-').toLowerCase(),
    });
  }
}
