import type { LLMProvider } from '../providers/types.js';

/** The model the main example runs, and why it was chosen. */
export interface ModelChoice {
  /** A "provider/model" spec, or undefined for the scripted model. */
  spec: string | undefined;
  reason: string;
}

async function reachable(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(400) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Picks a real model when one is configured: $LOUSHO_MODEL, else the first API key found
 * (OpenAI, Anthropic, OpenRouter), else a local Ollama or LM Studio server; else none.
 */
export async function chooseModel(env: NodeJS.ProcessEnv = process.env): Promise<ModelChoice> {
  if (env.LOUSHO_MODEL) return { spec: env.LOUSHO_MODEL, reason: 'from LOUSHO_MODEL' };
  if (env.OPENAI_API_KEY) return { spec: 'openai/gpt-4o-mini', reason: 'OPENAI_API_KEY is set' };
  if (env.ANTHROPIC_API_KEY) return { spec: 'anthropic/claude-haiku-4-5', reason: 'ANTHROPIC_API_KEY is set' };
  if (env.OPENROUTER_API_KEY) return { spec: 'openrouter/openai/gpt-4o-mini', reason: 'OPENROUTER_API_KEY is set' };
  const ollama = (env.OLLAMA_HOST ?? 'http://127.0.0.1:11434').replace(/\/$/, '');
  if (env.LOUSHO_OLLAMA_MODEL && (await reachable(`${ollama}/api/tags`))) {
    return { spec: `ollama/${env.LOUSHO_OLLAMA_MODEL}`, reason: `an Ollama server answers at ${ollama}` };
  }
  return {
    spec: undefined,
    reason: 'no API key (OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENROUTER_API_KEY) or LOUSHO_MODEL is set',
  };
}

/** Describes a provider for the console. */
export function describeProvider(provider: LLMProvider): string {
  return `${provider.provider}/${provider.modelId}`;
}
