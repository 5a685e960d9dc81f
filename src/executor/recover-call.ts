import type { AgentEvent, RecoveryEvent } from '../contracts/agent-event.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelResponse } from '../contracts/model-response.js';
import {
  CONTINUE_PROMPT,
  largerOutputLimit,
  overflowTarget,
  RECOVERY_LIMITS,
  recoveryFor,
  statedLimit,
  statedRequest,
  stitchText,
} from '../core/recovery.js';
import { getModelInfo } from '../models/registry.js';
import { callModel } from './call-model.js';
import { type FitContext, fitRequest, replaceRejectedMedia } from './fit-request.js';
import type { HookRegistry } from './hook-registry.js';
import type { RunState } from './run-state.js';
import { addCall, sumUsage } from './usage.js';

export interface RecoverCallOptions {
  provider: LLMProvider;
  request: ModelRequest;
  run: RunState;
  hooks: HookRegistry;
  emit: ((event: AgentEvent) => void) | undefined;
  /** False with `compaction: false`: a request that does not fit is refused, nothing compacted. */
  overflowRecovery: boolean;
}

/**
 * After a rejection as too long: counts the request as the provider does (what it states,
 * else more than the window it states; a count above ours calibrates the run, as reported
 * prompt tokens do), compacts it to the target for this attempt, and says what was done.
 */
async function afterOverflow(fit: FitContext, error: unknown, attempt: number): Promise<string> {
  const { request, run } = fit;
  const limit = statedLimit(error);
  if (limit !== undefined) run.budget.learnWindow(limit);
  const stated = statedRequest(error);
  const ours = run.budget.measure(request);
  const counted = stated ?? (limit === undefined ? undefined : limit + 1);
  if (counted !== undefined && counted > ours) run.budget.calibrate(request, counted);
  const estimate = run.budget.measure(request);
  // The window holds the reply too, as the preflight's budget says.
  const learned = run.budget.learnedWindow;
  const room = learned === undefined ? undefined : Math.max(1, learned - (request.maxOutputTokens ?? 0));
  const target = overflowTarget({ limit: room, estimate, attempt });
  const actions = await fitRequest(fit, Math.min(target, estimate - 1), 'context-overflow');
  const window = limit === undefined ? '' : ` (its window is ${limit})`;
  const what =
    stated === undefined ? `a request of ${ours} tokens by our estimate${window}` : `${stated} tokens${window}`;
  const unit = estimate > ours ? ' by its count' : '';
  const cut = actions.some((a) => a.kind === 'oversized-results') ? ', cutting the newest results' : '';
  return `the provider rejected ${what}; compacted to ${run.budget.measure(request)}${unit}${cut} and retried`;
}

/**
 * One model call of a step, with the recoveries no provider SDK does for you, each
 * bounded and reported as a `recovery.done` event:
 *
 * - before sending, a request over the window is brought down to it (compact harder,
 *   then cut the newest turn's results); one that still cannot fit is never sent;
 * - a request rejected as too long is compacted harder and retried, and a window the
 *   error states is used for the rest of the run;
 * - an image rejected as too large is replaced by a marker naming it, and the call retried;
 * - a reply cut at the output limit is retried with a larger limit where the model
 *   allows (when a tool call's arguments were cut), else continued and stitched.
 */
export async function callWithRecovery(options: RecoverCallOptions): Promise<ModelResponse> {
  const { provider, request, run, emit } = options;
  const where = { runId: run.runId, step: run.step, trace: run.traceContext };
  const attempts = { overflow: 0, media: 0, length: 0 };
  const report = (kind: RecoveryEvent['kind'], action: string, attempt = 1) =>
    emit?.({ type: 'recovery.done', runId: run.runId, step: run.step, kind, action, attempt });
  const fit: FitContext = options;

  const window = await run.budget.contextWindow({ unknown: 'none' });
  if (window !== undefined) {
    const budget = window - (request.maxOutputTokens ?? 0);
    if (run.budget.measure(request) > budget) {
      const actions = await fitRequest(fit, budget, 'preflight');
      // One event per recovery; cutting the newest results is its kind when it happened.
      const last = actions.at(-1);
      if (last !== undefined) report(last.kind, `${actions.map((a) => a.action).join('; ')} before sending`);
    }
  }

  const record = (response: ModelResponse) =>
    addCall(run.usage, {
      provider: provider.provider,
      model: response.modelId ?? provider.modelId,
      purpose: 'generate',
      step: run.step,
      usage: response.usage,
    });

  for (;;) {
    let response: ModelResponse;
    try {
      response = await callModel(provider, request, emit, where);
    } catch (error) {
      const kind = recoveryFor(error);
      if (kind === 'context-overflow' && attempts.overflow < RECOVERY_LIMITS.contextOverflow) {
        attempts.overflow++;
        report('context-overflow', await afterOverflow(fit, error, attempts.overflow), attempts.overflow);
        continue;
      }
      if (kind === 'media-too-large' && attempts.media < RECOVERY_LIMITS.mediaTooLarge) {
        attempts.media++;
        const replaced = replaceRejectedMedia(run.transcript, error);
        if (replaced === undefined) throw error;
        report('media-too-large', `replaced ${replaced} with a marker and retried`, attempts.media);
        continue;
      }
      throw error;
    }
    record(response);
    run.budget.calibrate(request, response.usage.inputTokens);
    if (response.finishReason !== 'length' || attempts.length >= RECOVERY_LIMITS.outputTruncated) return response;
    attempts.length++;
    const cutCalls = response.toolCalls.filter((c) => typeof c.arguments === 'string');
    const larger =
      cutCalls.length > 0
        ? largerOutputLimit(request.maxOutputTokens, getModelInfo(request.model)?.maxOutputTokens)
        : undefined;
    if (larger !== undefined) {
      request.maxOutputTokens = larger;
      report(
        'output-truncated',
        `a tool call's arguments were cut at the output limit; retried with maxOutputTokens ${larger}`,
        attempts.length,
      );
      continue;
    }
    let stitched = response;
    while (stitched.finishReason === 'length' && attempts.length <= RECOVERY_LIMITS.outputTruncated) {
      const continuation = await callModel(
        provider,
        {
          ...request,
          messages: [
            ...request.messages,
            { role: 'assistant', content: stitched.text },
            { role: 'user', content: CONTINUE_PROMPT },
          ],
        },
        emit,
        where,
      );
      record(continuation);
      report(
        'output-truncated',
        'the reply was cut at the output limit; asked the model to continue and stitched the parts',
        attempts.length,
      );
      stitched = {
        text: stitchText(stitched.text, continuation.text),
        toolCalls: [...stitched.toolCalls.filter((c) => typeof c.arguments !== 'string'), ...continuation.toolCalls],
        finishReason: continuation.finishReason,
        usage: sumUsage(stitched.usage, continuation.usage),
        ...(continuation.modelId === undefined ? {} : { modelId: continuation.modelId }),
      };
      attempts.length++;
    }
    return stitched;
  }
}
