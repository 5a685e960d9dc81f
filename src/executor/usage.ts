import type { ModelCall } from '../contracts/model-call.js';
import type { RunUsage } from '../contracts/run-usage.js';
import type { Usage } from '../contracts/usage.js';
import { getModelInfo } from '../models/registry.js';

export function emptyUsage(): RunUsage {
  return {
    inputTokens: 0,
    outputTokens: 0,
    totalTokens: 0,
    cachedInputTokens: 0,
    costUsd: undefined,
    byModel: {},
    modelCalls: [],
  };
}

/** USD for one call at the model's list price, cached input tokens at the cached price when there is one. */
export function callCost(model: string, usage: Usage): number | undefined {
  const info = getModelInfo(model);
  if (info?.inputPricePerMillion === undefined || info.outputPricePerMillion === undefined) return undefined;
  const input = usage.inputTokens ?? 0;
  const cached = Math.min(usage.cachedInputTokens ?? 0, input);
  const cachedPrice = info.cachedInputPricePerMillion ?? info.inputPricePerMillion;
  return (
    ((input - cached) * info.inputPricePerMillion +
      cached * cachedPrice +
      (usage.outputTokens ?? 0) * info.outputPricePerMillion) /
    1e6
  );
}

const add = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : a + b);

/** The usage of two calls together; a count stays undefined only when both are unknown. */
export function sumUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: add(a.inputTokens, b.inputTokens),
    outputTokens: add(a.outputTokens, b.outputTokens),
    cachedInputTokens: add(a.cachedInputTokens, b.cachedInputTokens),
  };
}

/** Adds one call to the totals (mutates `totals`). */
export function addCall(totals: RunUsage, call: Omit<ModelCall, 'costUsd'>): ModelCall {
  const record: ModelCall = { ...call, costUsd: callCost(call.model, call.usage) };
  const input = call.usage.inputTokens ?? 0;
  const output = call.usage.outputTokens ?? 0;
  const cached = call.usage.cachedInputTokens ?? 0;
  totals.inputTokens += input;
  totals.outputTokens += output;
  totals.totalTokens += input + output;
  totals.cachedInputTokens += cached;
  totals.costUsd = add(totals.costUsd, record.costUsd);
  const model = totals.byModel[call.model] ?? {
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    costUsd: undefined,
  };
  totals.byModel[call.model] = model;
  model.calls++;
  model.inputTokens += input;
  model.outputTokens += output;
  model.cachedInputTokens += cached;
  model.costUsd = add(model.costUsd, record.costUsd);
  totals.modelCalls.push(record);
  return record;
}
