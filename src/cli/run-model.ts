import { knownContextWindow } from '../compaction/request-budget.js';
import { FALLBACK_CONTEXT_WINDOW } from '../compaction/sizes.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import { LoushoError } from '../errors/lousho-error.js';
import { BUILT_IN_PROVIDERS } from '../providers/builtin.js';
import { count } from './report-format.js';

/** The form --model takes and the prefixes the command line knows, for a line that refuses one. */
function modelForm(): string {
  const prefixes = Object.keys(BUILT_IN_PROVIDERS).sort().join(', ');
  return `--model takes provider/model, with one of the prefixes ${prefixes} (e.g. --model openai/gpt-4o-mini or --model ollama/qwen3:8b).`;
}

/**
 * Why `spec` cannot be used, in the command line's words: the typed errors of resolveProvider()
 * (an unknown prefix, a spec without one) say what to pass to --model, where the library's own
 * message says what to call in code; any other error keeps its message.
 */
export function modelRefusal(spec: string, error: unknown): string {
  if (!LoushoError.isInstance(error)) return (error as Error).message;
  if (error.code === 'LOUSHO_PROVIDER_NOT_FOUND')
    return `no provider is known by the prefix "${String(error.details?.provider)}". ${modelForm()}`;
  if (error.code === 'LOUSHO_CONFIG_INVALID') {
    const slash = spec.indexOf('/');
    const why =
      slash > 0 && slash === spec.length - 1 ? 'it has no model after the prefix' : 'it has no provider prefix';
    return `${why}. ${modelForm()}`;
  }
  return error.message;
}

/**
 * The window a real model runs with, as compaction would find it (a model of the table, what a
 * local server reports); when none knows it, the window compaction would assume, and the line
 * that says so and names --window (in place of the library's warning, which names its options).
 */
export async function modelWindow(
  provider: LLMProvider,
  name: string,
): Promise<{ contextWindow: number; note?: string }> {
  const ask = () => provider.contextWindow?.() ?? Promise.resolve(undefined);
  const known = await knownContextWindow(provider.modelId, () => ask().catch(() => undefined));
  if (known !== undefined) return { contextWindow: known.contextWindow };
  return {
    contextWindow: FALLBACK_CONTEXT_WINDOW,
    note: `The context window of ${name} is not known: compaction assumes ${count(FALLBACK_CONTEXT_WINDOW)} tokens. Pass --window N with the window the model runs with (a local server often uses a much smaller one).`,
  };
}
