import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelResponse } from '../contracts/model-response.js';
import { parseToolArguments } from '../messages/tool-arguments.js';
import type { ToolCall } from '../messages/types.js';
import { aiSDKFinishReason } from './ai-sdk-finish-reason.js';
import type { AISDKGenerateResult, AISDKPart } from './ai-sdk-spec.js';
import { aiSDKUsage } from './ai-sdk-usage.js';

/** A field of a part whose type the spec leaves open (read as unknown, then checked). */
export function aiSDKPartField(part: AISDKPart, name: string): unknown {
  return (part as unknown as Record<string, unknown>)[name];
}

/** A 'tool-call' part as our ToolCall; undefined for calls the provider ran itself (its built-in tools). */
export function aiSDKToolCall(part: AISDKPart): ToolCall | undefined {
  if (aiSDKPartField(part, 'providerExecuted') === true) return undefined;
  const id = aiSDKPartField(part, 'toolCallId');
  const name = aiSDKPartField(part, 'toolName');
  return {
    id: typeof id === 'string' ? id : '',
    name: typeof name === 'string' ? name : '',
    arguments: parseToolArguments(aiSDKPartField(part, 'input')),
  };
}

/**
 * What doGenerate resolved to, as our response: the text parts joined (or v4's
 * structuredOutputText when the request asked for structured output), the tool calls
 * the caller must run, and the model that answered (`modelId` when the reply names none).
 */
export function aiSDKResponse(result: AISDKGenerateResult, request: ModelRequest, modelId: string): ModelResponse {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const part of result.content) {
    if (part.type === 'text') {
      const piece = aiSDKPartField(part, 'text');
      if (typeof piece === 'string') text += piece;
    } else if (part.type === 'tool-call') {
      const call = aiSDKToolCall(part);
      if (call !== undefined) toolCalls.push(call);
    }
  }
  if (request.outputSchema !== undefined && typeof result.structuredOutputText === 'string') {
    text = result.structuredOutputText;
  }
  return {
    text,
    toolCalls,
    finishReason: aiSDKFinishReason(result.finishReason),
    usage: aiSDKUsage(result.usage),
    modelId: result.response?.modelId ?? modelId,
  };
}
