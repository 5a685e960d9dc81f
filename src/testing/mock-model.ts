import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { FinishReason, ModelResponse, ModelStreamPart } from '../contracts/model-response.js';
import type { Usage } from '../contracts/usage.js';
import { abortedError, LoushoError } from '../errors/lousho-error.js';
import type { ToolCall } from '../messages/types.js';
import { argumentsText, estimateTokens } from '../models/estimate-tokens.js';
import { countTextTokens } from '../models/tokenizer.js';
import { abortableDelay } from '../providers/retry.js';

/** One scripted tool call; `id` is generated when absent. */
export interface MockToolCall {
  /** The call's id; a generated `call_...` id when absent. */
  id?: string;
  /** The name of the tool called. */
  name: string;
  /** The parsed arguments; {} when absent. */
  arguments?: unknown;
}

/** One scripted reply. */
export interface MockReply {
  /** The reply's text; '' when absent. */
  text?: string;
  /** The tool calls the reply makes, in order. */
  toolCalls?: MockToolCall[];
  /** Why the reply stopped; 'tool-calls' when it makes calls, else 'stop', when absent. */
  finishReason?: FinishReason;
  /** The usage to report; by default the request's estimated size and the reply's token count. */
  usage?: Partial<Usage>;
  /** Wait this long before answering (honours the abort signal). */
  delayMs?: number;
}

/**
 * One step of a script: a text reply, a reply object, an Error to throw, or a function
 * of the request that returns one of those.
 */
export type MockStep =
  | string
  | MockReply
  | Error
  | ((request: ModelRequest, index: number) => string | MockReply | Error);

/** Options of mockModel(): the ids it reports and the window it says it runs with. */
export interface MockModelOptions {
  /** The model id the provider reports (default 'mock-model'). */
  modelId?: string;
  /** The provider name (default 'mock'). */
  provider?: string;
  /** Context window the provider reports through contextWindow(), like a local server would. */
  contextWindow?: number;
}

/** A scripted LLMProvider with the requests it received, for assertions. */
export interface MockModel extends LLMProvider {
  /** Every request received, in order, with its messages as they were at the call. */
  readonly calls: ModelRequest[];
  /** Steps not used yet. */
  readonly remaining: number;
  /** Throws LOUSHO_MOCK_SCRIPT_MISMATCH when scripted steps were left unused. */
  assertAllUsed(): void;
}

/**
 * A scripted model for tests and examples. Each call takes the next step of the script;
 * a call past the end throws LOUSHO_MOCK_SCRIPT_MISMATCH, and assertAllUsed() fails on unused
 * steps. Pass a function instead of an array to script an unbounded run.
 *
 * @example
 * const provider = mockModel(['ok']);
 * const tools = mockModel([{ toolCalls: [{ name: 'read', arguments: { path: 'a.ts' } }] }, 'done']);
 */
export function mockModel(script: readonly MockStep[] | MockStep, options: MockModelOptions = {}): MockModel {
  const steps = Array.isArray(script) ? [...script] : undefined;
  const generator = Array.isArray(script) ? undefined : (script as MockStep);
  const modelId = options.modelId ?? 'mock-model';
  const provider = options.provider ?? 'mock';
  const calls: ModelRequest[] = [];
  let used = 0;

  function nextReply(request: ModelRequest): MockReply {
    const index = calls.length;
    // A snapshot: a run's request.messages is its live transcript, which grows after the call.
    calls.push({ ...request, messages: [...request.messages] });
    let step: MockStep | undefined;
    if (steps !== undefined) {
      if (index >= steps.length) {
        throw new LoushoError(
          'LOUSHO_MOCK_SCRIPT_MISMATCH',
          `mockModel(${modelId}) was called ${index + 1} times but its script has ${steps.length} steps. Add a step for this call.`,
        );
      }
      step = steps[index];
      used++;
    } else {
      step = generator;
    }
    if (typeof step === 'function') step = step(request, index);
    if (step instanceof Error) throw step;
    if (typeof step === 'string') return { text: step };
    return step as MockReply;
  }

  function toResponse(request: ModelRequest, reply: MockReply): ModelResponse {
    const toolCalls: ToolCall[] = (reply.toolCalls ?? []).map((call, i) => ({
      id: call.id ?? `call_${calls.length}_${i}`,
      name: call.name,
      arguments: call.arguments ?? {},
    }));
    const text = reply.text ?? '';
    let outputTokens = countTextTokens(text);
    for (const call of toolCalls)
      outputTokens += countTextTokens(call.name) + countTextTokens(argumentsText(call.arguments));
    const usage: Usage = {
      inputTokens: estimateTokens(request),
      outputTokens,
      cachedInputTokens: undefined,
      ...reply.usage,
    };
    const finishReason = reply.finishReason ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop');
    return { text, toolCalls, finishReason, usage, modelId };
  }

  async function answer(request: ModelRequest): Promise<ModelResponse> {
    if (request.abortSignal?.aborted === true) throw abortedError();
    const reply = nextReply(request);
    if (reply.delayMs !== undefined) await abortableDelay(reply.delayMs, request.abortSignal);
    return toResponse(request, reply);
  }

  return {
    provider,
    modelId,
    calls,
    get remaining() {
      return steps === undefined ? Number.POSITIVE_INFINITY : steps.length - used;
    },
    assertAllUsed() {
      if (steps !== undefined && used < steps.length) {
        throw new LoushoError(
          'LOUSHO_MOCK_SCRIPT_MISMATCH',
          `mockModel(${modelId}) used ${used} of its ${steps.length} steps.`,
        );
      }
    },
    generate: answer,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      const response = await answer(request);
      for (const piece of response.text.match(/\S+\s*|\s+/g) ?? []) {
        if (request.abortSignal?.aborted === true) throw abortedError();
        yield { type: 'text-delta', text: piece };
      }
      for (const toolCall of response.toolCalls) yield { type: 'tool-call', toolCall };
      yield { type: 'finish', finishReason: response.finishReason, usage: response.usage, modelId };
    },
    ...(options.contextWindow === undefined ? {} : { contextWindow: async () => options.contextWindow }),
  };
}
