import type { JSONSchema } from '../contracts/json-schema.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { type AISDKPromptForm, type AISDKPromptMessage, toAISDKPrompt } from './ai-sdk-prompt.js';
import type { AISDKCallOptions } from './ai-sdk-spec.js';

/** The call options the adapter builds (a precise form of {@link AISDKCallOptions}). */
export interface AISDKRequestOptions extends AISDKCallOptions {
  prompt: AISDKPromptMessage[];
  tools?: { type: 'function'; name: string; description?: string; inputSchema: JSONSchema }[];
  responseFormat?: { type: 'json'; schema: JSONSchema };
}

/** Our request as the options of doGenerate / doStream, the prompt in the model's spec version's form. */
export function toAISDKCallOptions(request: ModelRequest, form: AISDKPromptForm): AISDKRequestOptions {
  const tools = request.tools ?? [];
  return {
    prompt: toAISDKPrompt(request.messages, form),
    ...(tools.length === 0
      ? {}
      : {
          tools: tools.map((t) => ({
            type: 'function' as const,
            name: t.name,
            ...(t.description === undefined ? {} : { description: t.description }),
            inputSchema: t.parameters,
          })),
        }),
    ...(request.outputSchema === undefined ? {} : { responseFormat: { type: 'json', schema: request.outputSchema } }),
    ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.abortSignal === undefined ? {} : { abortSignal: request.abortSignal }),
  };
}
