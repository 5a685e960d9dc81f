import type { Context } from '@opentelemetry/api';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelResponse } from '../contracts/model-response.js';
import { ReplyAssembler } from '../providers/reply-assembler.js';
import { endChatSpan, startChatSpan } from '../telemetry/tracing.js';
import { limitToolArguments } from './tool-limits.js';

/**
 * One model call of a step. With listeners it streams, reporting text as it arrives;
 * without, it waits for the whole reply. Tool calls whose arguments pass a limit come back
 * with stand-in arguments (see limitToolArguments).
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
    // Arguments nested too deep or too long are refused here, before anything serializes them.
    const response = limitToolArguments(await callModelOnce(provider, request, emit, where));
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
  const reply = new ReplyAssembler();
  for await (const part of provider.stream(request)) {
    reply.accept(part);
    if (part.type === 'text-delta') {
      emit({ type: 'text.delta', runId: where.runId, step: where.step, text: part.text });
    } else if (part.type === 'reasoning-delta') {
      emit({ type: 'reasoning.delta', runId: where.runId, step: where.step, text: part.text });
    }
  }
  return reply.response(`${provider.provider}/${provider.modelId}`);
}
