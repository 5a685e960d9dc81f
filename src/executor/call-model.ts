import type { Context } from '@opentelemetry/api';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelResponse, ModelStreamPart } from '../contracts/model-response.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { ToolCall } from '../messages/types.js';
import { endChatSpan, startChatSpan } from '../telemetry/tracing.js';

/**
 * One model call of a step. With listeners it streams, reporting text as it arrives;
 * without, it waits for the whole reply.
 */
export async function callModel(
  provider: LLMProvider,
  request: ModelRequest,
  emit: ((event: AgentEvent) => void) | undefined,
  where: { runId: string; step: number; trace?: Context | undefined },
): Promise<ModelResponse> {
  const span = startChatSpan(where.trace, {
    provider: provider.provider,
    model: provider.modelId,
    purpose: 'generate',
    request,
  });
  try {
    const response = await callModelOnce(provider, request, emit, where);
    endChatSpan(span, { response });
    return response;
  } catch (error) {
    endChatSpan(span, { error });
    throw error;
  }
}

async function callModelOnce(
  provider: LLMProvider,
  request: ModelRequest,
  emit: ((event: AgentEvent) => void) | undefined,
  where: { runId: string; step: number },
): Promise<ModelResponse> {
  if (emit === undefined) return provider.generate(request);
  let text = '';
  const toolCalls: ToolCall[] = [];
  let finish: Extract<ModelStreamPart, { type: 'finish' }> | undefined;
  for await (const part of provider.stream(request)) {
    if (part.type === 'text-delta') {
      text += part.text;
      emit({ type: 'text.delta', runId: where.runId, step: where.step, text: part.text });
    } else if (part.type === 'tool-call') {
      toolCalls.push(part.toolCall);
    } else {
      finish = part;
    }
  }
  if (finish === undefined) {
    throw new LoushoError(
      'LOUSHO_PROVIDER_FAILED',
      `The stream of ${provider.provider}/${provider.modelId} ended without a finish part.`,
    );
  }
  return {
    text,
    toolCalls,
    finishReason: finish.finishReason,
    usage: finish.usage,
    ...(finish.modelId === undefined ? {} : { modelId: finish.modelId }),
  };
}
