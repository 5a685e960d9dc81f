import { DEFAULT_THRESHOLD_PERCENT, FALLBACK_CONTEXT_WINDOW, thresholdTokens } from '../compaction/sizes.js';
import { getModelInfo } from '../models/registry.js';
import type { ReportData } from './report-data.js';

/** The options a report's window and threshold come from. */
export interface ReportWindowOptions {
  /** The model whose tokenizer counts and whose window is drawn. */
  model: string;
  /** The window in tokens, overriding the model's. */
  contextWindow?: number;
  /** The compaction threshold as a share of the window (default 0.9). */
  thresholdPercent?: number;
}

/** The window and threshold a report draws, and where the window came from. */
export function reportWindow(
  options: ReportWindowOptions,
): Pick<ReportData, 'model' | 'contextWindow' | 'windowFrom' | 'thresholdTokens'> {
  const known = getModelInfo(options.model)?.contextWindow;
  const contextWindow = options.contextWindow ?? known ?? FALLBACK_CONTEXT_WINDOW;
  const windowFrom =
    options.contextWindow !== undefined
      ? '--context-window'
      : known !== undefined
        ? `${options.model}'s`
        : `assumed: ${options.model} is an unknown model`;
  return {
    model: options.model,
    contextWindow,
    windowFrom,
    thresholdTokens: thresholdTokens(contextWindow, options.thresholdPercent ?? DEFAULT_THRESHOLD_PERCENT),
  };
}
