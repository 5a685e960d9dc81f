import { getModelInfo, getRegisteredModelInfo } from '../models/registry.js';
import { FALLBACK_CONTEXT_WINDOW } from './options.js';
import { pickContextWindow, type WindowSource } from './trigger.js';

/** A console.warn that says each thing once (per instance). */
export function onceWarner(): (key: string, message: string) => void {
  const said = new Set<string>();
  return (key, message) => {
    if (said.has(key)) return;
    said.add(key);
    console.warn(message);
  };
}

/**
 * The context window for `model`: the feature's own setting, else a model added with
 * registerModel(), else what the serving provider reports (a local server's loaded
 * context length), else the built-in model table, else 128,000 with a one-time warning
 * naming the model and the setting to use.
 */
export async function resolveContextWindow(options: {
  option: number | undefined;
  model: string;
  providerWindow: () => Promise<number | undefined>;
  warn: (key: string, message: string) => void;
  /** The feature's name and its setting, for the warning: e.g. ['Compaction', 'compaction.contextWindow']. */
  feature: [name: string, setting: string];
}): Promise<{ contextWindow: number; source: WindowSource }> {
  // The user's settings win, then what the serving local server reports, then the built-in table.
  const registered = options.option === undefined ? getRegisteredModelInfo(options.model)?.contextWindow : undefined;
  const provider =
    options.option === undefined && registered === undefined ? await options.providerWindow() : undefined;
  const registry = registered ?? getModelInfo(options.model)?.contextWindow;
  const picked = pickContextWindow({ option: options.option, registered, provider, registry }, FALLBACK_CONTEXT_WINDOW);
  if (picked.source === 'fallback') {
    const [name, setting] = options.feature;
    options.warn(
      `fallback:${options.model}`,
      `@lousho/build-ai-agent: ${name} does not know the context window of model "${options.model}" and assumes ` +
        `${FALLBACK_CONTEXT_WINDOW.toLocaleString('en-US')} tokens. Set ${setting}, or call registerModel({ id: '${options.model}', provider, contextWindow }) ` +
        'with the window the model runs with (a local server often uses a much smaller one).',
    );
  }
  return picked;
}
