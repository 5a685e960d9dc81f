/**
 * Accuracy of estimateTokens against the provider's own count: for every provider call of
 * the corpus, the request that was sent (the transcript prefix before that assistant
 * message, model gpt-5-mini, the bash tool) is estimated and compared with the call's
 * usage.prompt_tokens, before any calibration (the hook's per-run correction by reported
 * counts is not applied). Two common shortcuts are shown next to it: chars/4 of the text
 * sent, and JSON.stringify(messages).length / 4 of the messages in OpenAI wire shape.
 * The estimator's framing constants were fitted on these same calls, so the report adds a
 * held-out check: the framing fitted on half of the trajectories predicts the other half.
 *
 * Run: npx tsx bench/accuracy.ts
 */
import { pathToFileURL } from 'node:url';
import { contentText } from '../src/messages/content.js';
import type { Message } from '../src/messages/types.js';
import { argumentsText, estimateTokens } from '../src/models/estimate-tokens.js';
import { toChatMessages } from '../src/providers/openai-messages.js';
import { BASH_TOOL, readCorpus } from './corpus.js';
import { type CallFeatures, callFeatures, type FramingFit, fitFraming, predictPromptTokens } from './framing-fit.js';
import { formatInt, formatPercent, median, percentile } from './stats.js';

/** How far one estimator is from the provider's prompt_tokens. */
export interface EstimatorError {
  label: string;
  /** How the estimate is computed. */
  method: string;
  /** Median of |estimate - truth| / truth. */
  medianAbsError: number;
  /** 95th percentile of |estimate - truth| / truth. */
  p95AbsError: number;
  /** Largest |estimate - truth| / truth. */
  maxAbsError: number;
  /** Median of (estimate - truth) / truth: the bias (negative = undercounts). */
  signedMedian: number;
  /** Smallest and largest estimate / truth. */
  minRatio: number;
  maxRatio: number;
  /** Median of |estimate - truth| in tokens. */
  medianAbsTokens: number;
}

export interface AccuracyReport {
  trajectories: number;
  /** Provider calls compared (every assistant message with a recorded usage). */
  calls: number;
  /** Smallest, median and largest prompt_tokens over the calls. */
  promptTokens: { min: number; median: number; max: number };
  estimators: EstimatorError[];
  /**
   * Median of estimateTokens - truth, in tokens, on the first call of each trajectory (system
   * prompt and task only): what the estimate misses of the fixed part of a request (tool schema, framing).
   */
  firstCallMedianOffset: number;
  /** Calls where estimateTokens equals prompt_tokens exactly. */
  exactCalls: number;
  /** Largest |estimateTokens - prompt_tokens| in tokens. */
  maxAbsTokens: number;
  /** estimateTokens' error over every call but the first of each trajectory. */
  laterCalls: { calls: number; medianAbsError: number; p95AbsError: number; maxAbsError: number };
  /**
   * Two folds (even- and odd-numbered trajectories in file order): the framing fitted on
   * one fold predicts the calls of the other, over BPE counts as estimateTokens makes them.
   */
  heldOut: {
    fits: FramingFit[];
    calls: number;
    medianAbsError: number;
    p95AbsError: number;
    maxAbsError: number;
    medianAbsTokens: number;
    maxAbsTokens: number;
  };
  runSeconds: number;
}

const MODEL = 'gpt-5-mini';

/** Characters of the text sent: content plus tool-call names and arguments. */
function charsSent(messages: readonly Message[]): number {
  let chars = 0;
  for (const message of messages) {
    chars += contentText(message.content).length;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) chars += call.name.length + argumentsText(call.arguments).length;
    }
  }
  return chars;
}

function errorOf(
  label: string,
  method: string,
  estimates: readonly number[],
  truths: readonly number[],
): EstimatorError {
  const signed = estimates.map((e, i) => (e - (truths[i] as number)) / (truths[i] as number));
  const abs = signed.map(Math.abs);
  const ratios = estimates.map((e, i) => e / (truths[i] as number));
  return {
    label,
    method,
    medianAbsError: median(abs),
    p95AbsError: percentile(abs, 0.95),
    maxAbsError: Math.max(...abs),
    signedMedian: median(signed),
    minRatio: Math.min(...ratios),
    maxRatio: Math.max(...ratios),
    medianAbsTokens: median(estimates.map((e, i) => Math.abs(e - (truths[i] as number)))),
  };
}

/** Runs the comparison over the whole corpus (a few seconds). */
export function runAccuracy(): AccuracyReport {
  const started = performance.now();
  const corpus = readCorpus();
  if (corpus.length === 0) {
    throw new Error('The corpus was not found: set LOUSHO_CORPUS or put it at ../shared/corpus/trajectories-raw.');
  }
  const truths: number[] = [];
  const estimates: number[] = [];
  const quarterChars: number[] = [];
  const quarterJson: number[] = [];
  const firstCallOffsets: number[] = [];
  const laterErrors: number[] = [];
  for (const trajectory of corpus) {
    for (const call of trajectory.calls) {
      const messages = trajectory.messages.slice(0, call.prefixLength);
      truths.push(call.promptTokens);
      estimates.push(estimateTokens({ model: MODEL, messages, tools: [BASH_TOOL] }));
      quarterChars.push(charsSent(messages) / 4);
      quarterJson.push(JSON.stringify(toChatMessages(messages)).length / 4);
      const error = (estimates.at(-1) as number) - call.promptTokens;
      if (call === trajectory.calls[0]) firstCallOffsets.push(error);
      else laterErrors.push(Math.abs(error) / call.promptTokens);
    }
  }
  const features = corpus.map(callFeatures);
  const folds = [0, 1].map((parity) => features.filter((_, i) => i % 2 === parity).flat());
  const fits = folds.map(fitFraming);
  const heldOutErrors: number[] = [];
  const heldOutTokens: number[] = [];
  folds.forEach((fold: CallFeatures[], i) => {
    const fit = fits[1 - i] as FramingFit;
    for (const call of fold) {
      const error = predictPromptTokens(fit, call) - call.promptTokens;
      heldOutErrors.push(Math.abs(error) / call.promptTokens);
      heldOutTokens.push(Math.abs(error));
    }
  });
  return {
    trajectories: corpus.length,
    calls: truths.length,
    promptTokens: { min: Math.min(...truths), median: median(truths), max: Math.max(...truths) },
    estimators: [
      errorOf(
        'estimateTokens',
        `estimateTokens({ model: '${MODEL}', messages: prefix, tools: [BASH_TOOL] }): o200k counts plus framing and the model's request overhead`,
        estimates,
        truths,
      ),
      errorOf('chars / 4', '(content + tool-call name and arguments characters) / 4', quarterChars, truths),
      errorOf(
        'JSON / 4',
        'JSON.stringify(messages).length / 4, messages in OpenAI chat-completions wire shape',
        quarterJson,
        truths,
      ),
    ],
    firstCallMedianOffset: median(firstCallOffsets),
    laterCalls: {
      calls: laterErrors.length,
      medianAbsError: median(laterErrors),
      p95AbsError: percentile(laterErrors, 0.95),
      maxAbsError: Math.max(...laterErrors),
    },
    exactCalls: estimates.filter((e, i) => e === truths[i]).length,
    maxAbsTokens: Math.max(...estimates.map((e, i) => Math.abs(e - (truths[i] as number)))),
    heldOut: {
      fits,
      calls: heldOutErrors.length,
      medianAbsError: median(heldOutErrors),
      p95AbsError: percentile(heldOutErrors, 0.95),
      maxAbsError: Math.max(...heldOutErrors),
      medianAbsTokens: median(heldOutTokens),
      maxAbsTokens: Math.max(...heldOutTokens),
    },
    runSeconds: (performance.now() - started) / 1000,
  };
}

/** The report as a markdown section. */
export function renderAccuracyMarkdown(r: AccuracyReport): string {
  const lines: string[] = [];
  lines.push('## Estimation accuracy against the provider');
  lines.push('');
  lines.push(
    `Every provider call of the corpus (${formatInt(r.calls)} calls over ${r.trajectories} real gpt-5-mini trajectories): ` +
      "the estimate of the request that was sent (the transcript before that assistant message, with the bash tool), before any calibration, against the provider's own `usage.prompt_tokens` " +
      `(${formatInt(r.promptTokens.min)} to ${formatInt(r.promptTokens.max)} tokens, median ${formatInt(r.promptTokens.median)}). ` +
      'Relative error is |estimate - truth| / truth; the bias is the median of (estimate - truth) / truth, negative when the estimator undercounts.',
  );
  lines.push('');
  lines.push(
    '| estimator | median error | p95 error | max error | bias (signed median) | estimate / truth (min to max) | median error in tokens |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|');
  for (const e of r.estimators) {
    const label = e.label === 'estimateTokens' ? `**${e.label}**` : e.label;
    lines.push(
      `| ${label} | ${formatPercent(e.medianAbsError)} | ${formatPercent(e.p95AbsError)} | ${formatPercent(e.maxAbsError)} | ` +
        `${formatPercent(e.signedMedian, true)} | ${e.minRatio.toFixed(2)} to ${e.maxRatio.toFixed(2)} | ${formatInt(e.medianAbsTokens)} |`,
    );
  }
  lines.push('');
  lines.push(
    `estimateTokens equals \`prompt_tokens\` exactly on ${formatInt(r.exactCalls)} of the ${formatInt(r.calls)} calls ` +
      `(largest difference ${formatInt(r.maxAbsTokens)} tokens).`,
  );
  lines.push('');
  for (const e of r.estimators) lines.push(`- ${e.label}: ${e.method}.`);
  lines.push('');
  const offset = r.firstCallMedianOffset;
  lines.push(
    `On the first call of each trajectory (system prompt and task only) estimateTokens is off by a median of ` +
      `${offset > 0 ? '+' : ''}${formatInt(offset)} tokens: that is its error on the fixed part of a request (the tool ` +
      "schema, the framing and the model's request overhead, 67 tokens for the GPT-5 family). Over the " +
      `other ${formatInt(r.laterCalls.calls)} calls the error is ${formatPercent(r.laterCalls.medianAbsError)} median, ` +
      `${formatPercent(r.laterCalls.p95AbsError)} p95, ${formatPercent(r.laterCalls.maxAbsError)} max.`,
  );
  lines.push('');
  const h = r.heldOut;
  const fitText = (f: FramingFit) =>
    `${f.intercept.toFixed(1)} per request, ${f.perPlainMessage.toFixed(2)} per system or user message, ` +
    `${f.perToolMessage.toFixed(2)} per tool call or result, ${f.perAssistantTextBesideCalls.toFixed(2)} per assistant text beside tool calls`;
  lines.push(
    "**Held out.** The estimator's framing constants and gpt-5-mini's request overhead were fitted on these same calls " +
      '(`scripts/fit-framing.ts`), so the row above is in-sample. Fitted on the even-numbered trajectories alone ' +
      `(${h.fits[0]?.trajectories} of them, file order: ${h.fits[0] ? fitText(h.fits[0]) : 'n/a'}) and on the odd-numbered ` +
      `ones alone (${h.fits[1] ? fitText(h.fits[1]) : 'n/a'}), each fit predicts the ${formatInt(h.calls)} calls of the other ` +
      `half within ${formatPercent(h.medianAbsError)} median, ${formatPercent(h.p95AbsError)} p95, ` +
      `${formatPercent(h.maxAbsError)} max (median ${formatInt(h.medianAbsTokens)} tokens, max ${h.maxAbsTokens.toFixed(1)}).`,
  );
  lines.push('');
  lines.push(`Run time: ${r.runSeconds.toFixed(1)} s.`);
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    console.log(renderAccuracyMarkdown(runAccuracy()));
  } catch (error: unknown) {
    console.error(error);
    process.exitCode = 1;
  }
}
