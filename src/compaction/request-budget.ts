import type { LLMProvider } from '../contracts/llm-provider.js';
import type { RequestBudget, SizedRequest, WindowQuery, WindowSource } from '../contracts/request-budget.js';
import type { Transcript } from '../messages/transcript.js';
import type { Message } from '../messages/types.js';
import { messagesTokens, messageTokens, requestFixedTokens, tokenProfile } from '../models/estimate-tokens.js';
import { getModelInfo, isRegisteredModel } from '../models/registry.js';
import { FALLBACK_CONTEXT_WINDOW } from './sizes.js';
import { TranscriptCounter } from './transcript-counter.js';

/** The calibration after a call: how far the provider's prompt count exceeded the raw estimate (never negative). */
export function calibrationAfterCall(
  reportedInputTokens: number | undefined,
  rawEstimate: number,
  previous: number,
): number {
  if (reportedInputTokens === undefined) return previous;
  return Math.max(0, reportedInputTokens - rawEstimate);
}

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

/** What a request budget is made for. */
export interface RequestBudgetOptions {
  /** The model whose window is looked up. */
  model: string;
  /** Asks the serving side for the model's window (a local server); asked once, again while it cannot tell. */
  provider?: Pick<LLMProvider, 'contextWindow'> | undefined;
  /** The run's transcript: a request whose messages are its messages is counted by what changed since the last count. */
  transcript?: Transcript | undefined;
}

/**
 * The {@link RequestBudget} of one run (or of one compaction by hand). The messages are
 * counted by a TranscriptCounter: the run's transcript by what changed since the last count
 * (measuring it after one message was appended costs that message), any other list by a
 * comparison per message; tool definitions and the
 * output schema are cached per object. The window is looked up once and kept.
 */
export function createRequestBudget(options: RequestBudgetOptions): RequestBudget {
  const counter = new TranscriptCounter();
  let calibration = 0;
  let learned: number | undefined;
  let configured: number | undefined;
  let served: Promise<number | undefined> | undefined;
  let known: { contextWindow: number; source: WindowSource } | undefined;

  const raw = (request: SizedRequest) => {
    const profile = tokenProfile(request.model);
    const counted = request.messages === options.transcript?.messages ? options.transcript : request.messages;
    return requestFixedTokens(request, profile) + counter.count(counted, profile);
  };
  const providerWindow = (): Promise<number | undefined> => {
    const ask = options.provider?.contextWindow;
    if (ask === undefined) return Promise.resolve(undefined);
    served ??= ask.call(options.provider).then(
      (value) => {
        if (value === undefined) served = undefined; // a model not loaded yet: ask again next time
        return value;
      },
      () => {
        served = undefined;
        return undefined;
      },
    );
    return served;
  };
  const lookup = async () => {
    if (known !== undefined) return known;
    const found = await knownContextWindow(options.model, providerWindow);
    // Keep what cannot change; a server that could not tell yet (a model not loaded) is asked again.
    if (found !== undefined && (found.source !== 'registry' || options.provider?.contextWindow === undefined)) {
      known = found;
    }
    return found;
  };

  async function contextWindow(query: WindowQuery = {}): Promise<number | undefined> {
    if (query.option !== undefined) configured = Math.min(configured ?? query.option, query.option);
    let window = query.option ?? configured ?? (await lookup())?.contextWindow;
    if (window === undefined && query.unknown !== 'none') {
      const feature = query.feature;
      feature?.warn(
        `fallback:${options.model}`,
        `@lousho/build-ai-agent: ${feature.name} does not know the context window of model "${options.model}" and assumes ` +
          `${FALLBACK_CONTEXT_WINDOW.toLocaleString('en-US')} tokens. Set ${feature.setting}, or call registerModel({ id: '${options.model}', provider, contextWindow }) ` +
          'with the window the model runs with (a local server often uses a much smaller one).',
      );
      window = FALLBACK_CONTEXT_WINDOW;
    }
    if (window === undefined) return learned;
    return learned === undefined ? window : Math.min(window, learned);
  }

  return {
    measure: (request) => raw(request) + calibration,
    measureWith: (request, messages) => {
      const profile = tokenProfile(request.model);
      return requestFixedTokens(request, profile) + messagesTokens(messages, profile) + calibration;
    },
    messageTokens: (message: Message, model: string) => messageTokens(message, tokenProfile(model)),
    get calibration() {
      return calibration;
    },
    calibrate(request, reportedInputTokens) {
      calibration = calibrationAfterCall(reportedInputTokens, raw(request), calibration);
    },
    contextWindow: contextWindow as RequestBudget['contextWindow'],
    learnWindow(limit) {
      if (limit > 0) learned = Math.min(learned ?? limit, limit);
    },
    get learnedWindow() {
      return learned;
    },
  };
}
