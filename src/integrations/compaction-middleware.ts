import type { ToolDefinition } from '../contracts/tool-definition.js';
import { type AISDKUsageShape, inputTokensOf } from './ai-sdk-usage.js';
import { ConversationPool, type FrameworkCompactionOptions } from './conversation-compaction.js';
import { type PromptMessage, PromptMessages } from './model-prompt.js';

/** What the middleware reads of a language-model call's options (v2 and v3). */
export interface AISDKCallOptionsShape {
  /** The whole conversation the call sends, as the AI SDK's prompt messages. */
  prompt: PromptMessage[];
  /** The tools sent with the call, counted in the request's size. */
  tools?: {
    /** 'function', or the kind of a provider-defined tool. */
    type: string;
    /** The tool's name. */
    name: string;
    /** The tool's description. */
    description?: string;
    /** The JSON Schema of the tool's arguments. */
    inputSchema?: unknown;
  }[];
  /** The answer's format; a 'json' one with a schema is counted in the request's size. */
  responseFormat?: {
    /** 'text' or 'json'. */
    type: string;
    /** The JSON Schema of a 'json' answer. */
    schema?: unknown;
  };
  /** The call's abort signal, passed to a summarizer. */
  abortSignal?: AbortSignal;
}

/** A language-model middleware for the AI SDK's wrapLanguageModel (ai 5 and 6). */
export interface CompactionMiddleware {
  /** The version of the AI SDK's middleware interface it implements. */
  readonly specificationVersion: 'v3';
  /** Compacts the call's prompt when the request is over the threshold; resolves to the params to send. */
  transformParams<T extends AISDKCallOptionsShape>(options: {
    type: 'generate' | 'stream';
    params: T;
    model: { modelId: string };
  }): Promise<T>;
  /** Runs the call and reports its prompt tokens, which calibrate the next estimate. */
  wrapGenerate<
    R extends {
      /** The call's usage, whose prompt tokens are read. */
      usage: AISDKUsageShape;
    },
  >(options: { doGenerate: () => PromiseLike<R>; params: object }): Promise<R>;
  /** Runs the call and reports the prompt tokens of its stream's finish part, passing every part on. */
  wrapStream<
    R extends {
      /** The stream of parts, read for its finish part. */
      stream: ReadableStream<unknown>;
    },
  >(options: { doStream: () => PromiseLike<R>; params: object }): Promise<R>;
}

function toolDefinitions(tools: AISDKCallOptionsShape['tools']): ToolDefinition[] | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  return tools.map((t) => ({
    name: t.name,
    ...(t.description === undefined ? {} : { description: t.description }),
    parameters: (t.inputSchema ?? {}) as Record<string, unknown>,
  }));
}

/**
 * A language-model middleware that compacts the prompt before each call with our
 * strategies, for `wrapLanguageModel({ model, middleware })` of the AI SDK (ai 5 and 6):
 * generateText, streamText and ToolLoopAgent loops then stay under the window without
 * our runtime. It works as the compaction hook does (threshold, protected tail, pinned
 * messages, quiet when nothing shrinks) and calibrates its estimate with the prompt tokens
 * the provider reports. Each conversation is compacted once and the result kept: the next
 * call, which sends the whole conversation again, only adds what is new. Pin a message
 * with `providerOptions: { lousho: { pinned: true } }`.
 *
 * @example
 * const model = wrapLanguageModel({
 *   model: openai('gpt-4o-mini'),
 *   middleware: compactionMiddleware({ strategy: twoPhaseStrategy({ model: 'openai/gpt-4o-mini' }) }),
 * });
 * await generateText({ model, tools, stopWhen: stepCountIs(100), prompt: 'Audit the repository.' });
 */
export function compactionMiddleware(options: FrameworkCompactionOptions = {}): CompactionMiddleware {
  const pool = new ConversationPool<PromptMessage>(options, 'AI SDK');
  const sent = new WeakMap<object, (inputTokens: number | undefined) => Promise<void>>();
  const prompts = new WeakMap<object, PromptMessages>();
  return {
    specificationVersion: 'v3',
    async transformParams({ params, model }) {
      const conversation = pool.pick(params.prompt);
      const prompt = prompts.get(conversation) ?? new PromptMessages('prompt');
      prompts.set(conversation, prompt);
      const schema = params.responseFormat?.type === 'json' ? params.responseFormat.schema : undefined;
      const tools = toolDefinitions(params.tools);
      const { messages, compacted, from } = await conversation.compact(
        params.prompt,
        (added) => prompt.read(added),
        {
          model: options.model ?? model.modelId,
          ...(tools === undefined ? {} : { tools }),
          ...(schema === undefined ? {} : { outputSchema: schema as Record<string, unknown> }),
        },
        params.abortSignal,
      );
      prompt.changedFrom(from);
      const next = compacted ? { ...params, prompt: prompt.write(messages) } : { ...params };
      sent.set(next, (tokens) => conversation.reported(tokens));
      return next;
    },
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      await sent.get(params)?.(inputTokensOf(result.usage));
      return result;
    },
    async wrapStream({ doStream, params }) {
      const result = await doStream();
      const report = sent.get(params);
      if (report === undefined) return result;
      const stream = result.stream.pipeThrough(
        new TransformStream<unknown, unknown>({
          async transform(part, controller) {
            const finish = part as { type?: unknown; usage?: AISDKUsageShape };
            if (finish.type === 'finish') await report(inputTokensOf(finish.usage));
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
