/**
 * Fits the estimator's framing to the corpus's provider counts, as a least-squares line:
 *
 *   prompt_tokens - BPE(content, tool-call names and arguments)
 *     = intercept + a * plainMessages + b * toolMessages + c * assistantTextsBesideCalls
 *
 * where plain messages are system and user messages, tool messages are assistant messages
 * with tool calls and tool results, and the last counts assistant messages that have text
 * and tool calls. Used by scripts/fit-framing.ts (which printed the library's constants)
 * and by bench/accuracy.ts for a held-out check: fit on half of the trajectories, predict
 * the other half.
 */
import { contentText } from '../src/messages/content.js';
import type { Message } from '../src/messages/types.js';
import { argumentsText } from '../src/models/estimate-tokens.js';
import { countTextTokens } from '../src/models/tokenizer.js';
import type { Trajectory } from './corpus.js';

/** What the framing of one request is fitted on, and its truth. */
export interface CallFeatures {
  trajectory: string;
  promptTokens: number;
  /** BPE tokens of the content, tool-call names and arguments of the request's messages. */
  bpe: number;
  plainMessages: number;
  toolMessages: number;
  assistantTextsBesideCalls: number;
}

/** A fitted framing: tokens per request and per kind of message. */
export interface FramingFit {
  /** Trajectories fitted on. */
  trajectories: number;
  calls: number;
  intercept: number;
  perPlainMessage: number;
  perToolMessage: number;
  perAssistantTextBesideCalls: number;
}

function messageBpe(message: Message): number {
  let tokens = countTextTokens(contentText(message.content));
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) {
      tokens += countTextTokens(call.name) + countTextTokens(argumentsText(call.arguments));
    }
  }
  return tokens;
}

/** The features of every provider call of a trajectory (the request is the transcript before the call). */
export function callFeatures(trajectory: Trajectory): CallFeatures[] {
  const out: CallFeatures[] = [];
  const running = { bpe: 0, plainMessages: 0, toolMessages: 0, assistantTextsBesideCalls: 0 };
  let counted = 0;
  for (const call of trajectory.calls) {
    for (; counted < call.prefixLength; counted++) {
      const message = trajectory.messages[counted] as Message;
      running.bpe += messageBpe(message);
      const calls = message.role === 'assistant' ? (message.toolCalls?.length ?? 0) : 0;
      if (message.role === 'tool' || calls > 0) running.toolMessages++;
      else running.plainMessages++;
      if (calls > 0 && contentText(message.content) !== '') running.assistantTextsBesideCalls++;
    }
    out.push({ trajectory: trajectory.id, promptTokens: call.promptTokens, ...running });
  }
  return out;
}

function row(f: CallFeatures): number[] {
  return [1, f.plainMessages, f.toolMessages, f.assistantTextsBesideCalls];
}

/** Solves (A^T A + ridge) x = A^T y by Gaussian elimination; a column that never varies gets 0. */
function leastSquares(rows: number[][], ys: number[]): number[] {
  const k = rows[0]?.length ?? 0;
  const m = Array.from({ length: k }, (_, p) =>
    new Array<number>(k + 1).fill(0).map((_, q) => (p === q && p > 0 ? 1e-9 : 0)),
  );
  rows.forEach((r, i) => {
    for (let p = 0; p < k; p++) {
      for (let q = 0; q < k; q++) (m[p] as number[])[q] = (m[p]?.[q] ?? 0) + (r[p] ?? 0) * (r[q] ?? 0);
      (m[p] as number[])[k] = (m[p]?.[k] ?? 0) + (r[p] ?? 0) * (ys[i] ?? 0);
    }
  });
  for (let p = 0; p < k; p++) {
    for (let q = p + 1; q < k; q++) {
      const f = (m[q]?.[p] ?? 0) / (m[p]?.[p] ?? 1);
      for (let c = p; c <= k; c++) (m[q] as number[])[c] = (m[q]?.[c] ?? 0) - f * (m[p]?.[c] ?? 0);
    }
  }
  const x = new Array<number>(k).fill(0);
  for (let p = k - 1; p >= 0; p--) {
    let s = m[p]?.[k] ?? 0;
    for (let c = p + 1; c < k; c++) s -= (m[p]?.[c] ?? 0) * (x[c] ?? 0);
    x[p] = s / (m[p]?.[p] ?? 1);
  }
  return x;
}

/** Fits the framing to the calls given. */
export function fitFraming(calls: readonly CallFeatures[]): FramingFit {
  const [intercept = 0, plain = 0, tool = 0, text = 0] = leastSquares(
    calls.map(row),
    calls.map((c) => c.promptTokens - c.bpe),
  );
  return {
    trajectories: new Set(calls.map((c) => c.trajectory)).size,
    calls: calls.length,
    intercept,
    perPlainMessage: plain,
    perToolMessage: tool,
    perAssistantTextBesideCalls: text,
  };
}

/** The prompt tokens a fitted framing predicts for a call. */
export function predictPromptTokens(fit: FramingFit, f: CallFeatures): number {
  return (
    f.bpe +
    fit.intercept +
    fit.perPlainMessage * f.plainMessages +
    fit.perToolMessage * f.toolMessages +
    fit.perAssistantTextBesideCalls * f.assistantTextsBesideCalls
  );
}
