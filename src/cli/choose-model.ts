import type { LLMProvider } from '../contracts/llm-provider.js';
import { ollamaOrigin } from '../providers/local-context.js';

/** The model the main example runs, and why it was chosen. */
export interface ModelChoice {
  /** A "provider/model" spec, or undefined for the scripted model. */
  spec: string | undefined;
  reason: string;
}

async function getJson(url: string): Promise<unknown> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(400) });
    return response.ok ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Picks a real model when one is configured: $LOUSHO_MODEL, else the first API key found
 * (OpenAI, Anthropic, OpenRouter), else the first chat model of a local Ollama or LM Studio
 * server that answers; else none (the scripted model).
 */
export async function chooseModel(env: NodeJS.ProcessEnv = process.env): Promise<ModelChoice> {
  if (env.LOUSHO_MODEL) return { spec: env.LOUSHO_MODEL, reason: 'from LOUSHO_MODEL' };
  if (env.OPENAI_API_KEY) return { spec: 'openai/gpt-4o-mini', reason: 'OPENAI_API_KEY is set' };
  if (env.ANTHROPIC_API_KEY) return { spec: 'anthropic/claude-haiku-4-5', reason: 'ANTHROPIC_API_KEY is set' };
  if (env.OPENROUTER_API_KEY) return { spec: 'openrouter/openai/gpt-4o-mini', reason: 'OPENROUTER_API_KEY is set' };
  const ollama = ollamaOrigin(env.OLLAMA_HOST);
  const tags = (await getJson(`${ollama}/api/tags`)) as { models?: { name?: string }[] } | undefined;
  const local = tags?.models?.find((m) => typeof m.name === 'string' && !/embed/i.test(m.name))?.name;
  if (local !== undefined) return { spec: `ollama/${local}`, reason: `an Ollama server at ${ollama} has it` };
  const lmstudio = (env.LMSTUDIO_BASE_URL ?? 'http://127.0.0.1:1234/v1').replace(/\/+$/, '');
  const models = (await getJson(`${lmstudio}/models`)) as { data?: { id?: string }[] } | undefined;
  const loaded = models?.data?.find((m) => typeof m.id === 'string' && !/embed/i.test(m.id))?.id;
  if (loaded !== undefined) return { spec: `lmstudio/${loaded}`, reason: `an LM Studio server at ${lmstudio} has it` };
  return {
    spec: undefined,
    reason:
      'no LOUSHO_MODEL, no API key (OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENROUTER_API_KEY) and no local Ollama or LM Studio server',
  };
}

/** Describes a provider for the console. */
export function describeProvider(provider: LLMProvider): string {
  return `${provider.provider}/${provider.modelId}`;
}
