import type { ModelRequest } from './model-request.js';
import type { ModelResponse, ModelStreamPart } from './model-response.js';
import type { ProviderCompactionResponse } from './provider-compaction.js';

/**
 * A model the runtime can call. Built-in providers come from `resolveProvider('vendor/model')`;
 * `mockModel()` in `@lousho/build-ai-agent/testing` is a scripted one.
 */
export interface LLMProvider {
  /** The vendor, e.g. 'openai', 'anthropic', 'ollama', 'mock'. */
  readonly provider: string;
  /** The model id sent to the vendor, e.g. 'gpt-4o-mini'. */
  readonly modelId: string;
  /** Sends one request and resolves to the whole reply. */
  generate(request: ModelRequest): Promise<ModelResponse>;
  /** Sends one request and yields the reply as it arrives. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
  /**
   * The context window the serving side runs the model with, when it can tell (a local
   * server's loaded context length). Used only when neither the user nor the registry gives one.
   */
  contextWindow?(): Promise<number | undefined>;
  /**
   * Compacts a conversation on the provider's side, where the vendor offers it (OpenAI's
   * `/responses/compact`, Anthropic's on-demand compaction): `request.messages` (its system
   * messages as instructions, `request.tools` as the tools the conversation used) become a
   * shorter window holding the provider's compaction. Used by `providerCompactionStrategy()`;
   * absent when the provider cannot compact. Rejects with a LoushoError like generate().
   */
  compact?(request: ModelRequest): Promise<ProviderCompactionResponse>;
}

/** `"provider/model"` string or a provider object. */
export type ModelSpec = string | LLMProvider;
