import { inputTokensOf } from './ai-sdk-usage.js';
import { ConversationPool, type FrameworkCompactionOptions } from './conversation-compaction.js';
import { type PromptMessage, PromptMessages } from './model-prompt.js';

/** What the helper reads of prepareStep's argument (ai 5 and 6). */
export interface PrepareStepOptionsShape<M extends PromptMessage> {
  /** The messages the step is about to send, the whole conversation so far. */
  messages: M[];
  /** The number of the step about to run, as the AI SDK counts it. */
  stepNumber: number;
  /** The steps done so far; the last one's usage calibrates the estimate. */
  steps: readonly {
    /** The step's usage. */
    usage: {
      /** Its prompt tokens, when the provider reported them. */
      inputTokens?: number | undefined;
    };
  }[];
  /** The step's model, as an id or a model object. */
  model:
    | string
    | {
        /** The model's id, which picks the token counter and window. */
        modelId: string;
      };
}

/**
 * A `prepareStep` for the AI SDK's generateText, streamText and ToolLoopAgent that compacts
 * the step's messages with our strategies, without our runtime: it returns `{ messages }`
 * once a compaction has changed the conversation (and nothing before), and calibrates its
 * estimate with the prompt tokens each step reported. Messages it did not change are given
 * back as they were. The system prompt given as `system` and the tool definitions are not
 * in `messages`: the calibration counts them from the second step on. Pin a message with
 * `providerOptions: { lousho: { pinned: true } }`.
 *
 * @example
 * await generateText({
 *   model, tools, stopWhen: stepCountIs(100),
 *   prepareStep: compactionPrepareStep({ contextWindow: 128_000 }),
 *   prompt: 'Audit the repository.',
 * });
 */
export function compactionPrepareStep(options: FrameworkCompactionOptions = {}) {
  const pool = new ConversationPool<PromptMessage>(options, 'AI SDK');
  const prompts = new WeakMap<object, PromptMessages>();
  const lastStep = new WeakMap<object, number>();
  return async <M extends PromptMessage>(
    step: PrepareStepOptionsShape<M>,
  ): Promise<
    | {
        /** The compacted messages to send instead. */
        messages: M[];
      }
    | undefined
  > => {
    const conversation = pool.pick(step.messages);
    const prompt = prompts.get(conversation) ?? new PromptMessages('model-messages');
    prompts.set(conversation, prompt);
    // The previous step of this loop was the call compacted last: its usage calibrates this one.
    if (lastStep.get(conversation) === step.stepNumber - 1) {
      await conversation.reported(inputTokensOf(step.steps[step.steps.length - 1]?.usage));
    }
    lastStep.set(conversation, step.stepNumber);
    const modelId = typeof step.model === 'string' ? step.model : step.model.modelId;
    const { messages, compacted, from } = await conversation.compact(step.messages, (added) => prompt.read(added), {
      model: options.model ?? modelId,
    });
    prompt.changedFrom(from);
    return compacted ? { messages: prompt.write(messages) as M[] } : undefined;
  };
}
