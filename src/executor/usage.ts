import type { ModelCall } from '../contracts/model-call.js';
import type { RunUsage } from '../contracts/run-usage.js';
import type { Usage } from '../contracts/usage.js';
import { callCost } from '../models/pricing.js';

export function emptyUsage(): RunUsage {
  return {
    inputTokens: 0,
    outputTokens: 0,
    totalTokens: 0,
    cachedInputTokens: 0,
    cacheWriteInputTokens: 0,
    reasoningTokens: 0,
    costUsd: undefined,
    byModel: {},
    modelCalls: [],
  };
}

const add = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : a + b);

const optional = <K extends string>(key: K, value: number | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, number>>;

/** The usage of two calls together; a count stays undefined only when both are unknown. */
export function sumUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: add(a.inputTokens, b.inputTokens),
    outputTokens: add(a.outputTokens, b.outputTokens),
    cachedInputTokens: add(a.cachedInputTokens, b.cachedInputTokens),
    ...optional('cacheWriteInputTokens', add(a.cacheWriteInputTokens, b.cacheWriteInputTokens)),
    ...optional('cacheWrite1hInputTokens', add(a.cacheWrite1hInputTokens, b.cacheWrite1hInputTokens)),
    ...optional('reasoningTokens', add(a.reasoningTokens, b.reasoningTokens)),
  };
}

/** Adds one call to the totals (mutates `totals`). */
export function addCall(totals: RunUsage, call: Omit<ModelCall, 'costUsd'>): ModelCall {
  const record: ModelCall = { ...call, costUsd: callCost(call.model, call.usage, call.provider) };
  const input = call.usage.inputTokens ?? 0;
  const output = call.usage.outputTokens ?? 0;
  const cached = call.usage.cachedInputTokens ?? 0;
  const written = call.usage.cacheWriteInputTokens ?? 0;
  const reasoning = call.usage.reasoningTokens ?? 0;
  totals.inputTokens += input;
  totals.outputTokens += output;
  totals.totalTokens += input + output;
  totals.cachedInputTokens += cached;
  totals.cacheWriteInputTokens += written;
  totals.reasoningTokens += reasoning;
  totals.costUsd = add(totals.costUsd, record.costUsd);
  const model = totals.byModel[call.model] ?? {
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteInputTokens: 0,
    reasoningTokens: 0,
    costUsd: undefined,
  };
  totals.byModel[call.model] = model;
  model.calls++;
  model.inputTokens += input;
  model.outputTokens += output;
  model.cachedInputTokens += cached;
  model.cacheWriteInputTokens += written;
  model.reasoningTokens += reasoning;
  model.costUsd = add(model.costUsd, record.costUsd);
  totals.modelCalls.push(record);
  return record;
}
