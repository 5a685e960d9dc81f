import { getModelInfo, isRegisteredModel } from '../models/registry.js';
import { FALLBACK_CONTEXT_WINDOW } from './options.js';

/** A console.warn that says each thing once (per instance). */
export function onceWarner(): (key: string, message: string) => void {
  const said = new Set<string>();
  return (key, message) => {
    if (said.has(key)) return;
    said.add(key);
    console.warn(message);
  };
}

/** Where a context window was found. */
export type WindowSource = 'option' | 'registered' | 'provider' | 'registry' | 'fallback';

/**
 * The window `model` is known to run with, without any setting of a feature: a model added
 * with registerModel(), else what the serving provider reports (a local server's loaded
 * context length), else the built-in model table; undefined when none knows.
 */
export async function knownContextWindow(
  model: string,
  providerWindow: () => Promise<number | undefined>,
): Promise<{ contextWindow: number; source: WindowSource } | undefined> {
  const info = getModelInfo(model);
  if (info !== undefined && isRegisteredModel(info)) return { contextWindow: info.contextWindow, source: 'registered' };
  const served = await providerWindow();
  if (served !== undefined && served > 0) return { contextWindow: served, source: 'provider' };
  return info === undefined ? undefined : { contextWindow: info.contextWindow, source: 'registry' };
}

/**
 * The context window a feature uses for `model`: its own setting, else knownContextWindow(),
 * else 128,000 with a one-time warning naming the model and the setting to use.
 */
export async function resolveContextWindow(options: {
  option: number | undefined;
  model: string;
  providerWindow: () => Promise<number | undefined>;
  warn: (key: string, message: string) => void;
  /** The feature's name and its setting, for the warning: e.g. ['Compaction', 'compaction.contextWindow']. */
  feature: [name: string, setting: string];
}): Promise<{ contextWindow: number; source: WindowSource }> {
  if (options.option !== undefined) return { contextWindow: options.option, source: 'option' };
  const known = await knownContextWindow(options.model, options.providerWindow);
  if (known !== undefined) return known;
  const [name, setting] = options.feature;
  options.warn(
    `fallback:${options.model}`,
    `@lousho/build-ai-agent: ${name} does not know the context window of model "${options.model}" and assumes ` +
      `${FALLBACK_CONTEXT_WINDOW.toLocaleString('en-US')} tokens. Set ${setting}, or call registerModel({ id: '${options.model}', provider, contextWindow }) ` +
      'with the window the model runs with (a local server often uses a much smaller one).',
  );
  return { contextWindow: FALLBACK_CONTEXT_WINDOW, source: 'fallback' };
}
