import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelResponse } from '../contracts/model-response.js';
import type { Usage } from '../contracts/usage.js';
import type { ToolCall } from '../messages/types.js';

/**
 * OpenTelemetry spans of a run, following the GenAI semantic conventions: one
 * `invoke_agent` span per run, a `chat` span per model call under it (the summarizer's
 * included, marked `lousho.call.purpose: 'compaction'`), and an `execute_tool` span per tool
 * call. Without a registered tracer provider these are no-ops.
 */

const TRACER = '@lousho/build-ai-agent';

const tracer = () => trace.getTracer(TRACER);

/** Why a model call was made: the agent's own step, or a summary for compaction. */
export type CallPurpose = 'generate' | 'compaction';

/** Starts the span of a run; its context is the parent of the run's other spans. */
export function startRunSpan(agentName: string | undefined): { span: Span; context: Context } {
  const span = tracer().startSpan(`invoke_agent ${agentName ?? 'agent'}`, {
    kind: SpanKind.INTERNAL,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      ...(agentName === undefined ? {} : { 'gen_ai.agent.name': agentName }),
    },
  });
  return { span, context: trace.setSpan(context.active(), span) };
}

/** Ends a run's span with its totals, or with the error that ended it. */
export function endRunSpan(span: Span, outcome: { usage: Usage; error?: Error }): void {
  span.setAttributes(usageAttributes(outcome.usage));
  if (outcome.error !== undefined) {
    span.recordException(outcome.error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error.message });
  }
  span.end();
}

const attribute = (name: string, value: number | undefined) =>
  value === undefined ? {} : ({ [name]: value } as Record<string, number>);

/**
 * The usage in the GenAI semantic conventions' names: input (cache reads and writes
 * included) and output (reasoning included), then the cache reads, the cache writes and the
 * reasoning each apart, where the provider reported them.
 */
function usageAttributes(usage: Usage): Record<string, number> {
  return {
    ...attribute('gen_ai.usage.input_tokens', usage.inputTokens),
    ...attribute('gen_ai.usage.output_tokens', usage.outputTokens),
    ...attribute('gen_ai.usage.cache_read.input_tokens', usage.cachedInputTokens),
    ...attribute('gen_ai.usage.cache_creation.input_tokens', usage.cacheWriteInputTokens),
    ...attribute('gen_ai.usage.reasoning.output_tokens', usage.reasoningTokens),
  };
}

/** Starts a `chat` span for one model call under `parent`. */
export function startChatSpan(
  parent: Context | undefined,
  call: { provider: string; model: string; purpose: CallPurpose; request?: ModelRequest; startTime?: number },
): Span {
  return tracer().startSpan(
    `chat ${call.model}`,
    {
      kind: SpanKind.CLIENT,
      ...(call.startTime === undefined ? {} : { startTime: call.startTime }),
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': call.provider,
        'gen_ai.request.model': call.model,
        'lousho.call.purpose': call.purpose,
        ...(call.request?.maxOutputTokens === undefined
          ? {}
          : { 'gen_ai.request.max_tokens': call.request.maxOutputTokens }),
        ...(call.request?.temperature === undefined ? {} : { 'gen_ai.request.temperature': call.request.temperature }),
      },
    },
    parent ?? context.active(),
  );
}

/** Ends a `chat` span with the reply's model, finish reason and usage, or with the error. */
export function endChatSpan(
  span: Span,
  outcome: { response?: ModelResponse; usage?: Usage; error?: unknown; endTime?: number },
): void {
  const { response } = outcome;
  if (response !== undefined) {
    span.setAttributes({
      ...(response.modelId === undefined ? {} : { 'gen_ai.response.model': response.modelId }),
      'gen_ai.response.finish_reasons': [response.finishReason],
      ...usageAttributes(response.usage),
    });
  } else if (outcome.usage !== undefined) {
    span.setAttributes(usageAttributes(outcome.usage));
  }
  if (outcome.error !== undefined) {
    const error = outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error));
    span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    const code = (outcome.error as { code?: unknown }).code;
    if (typeof code === 'string') span.setAttribute('error.type', code);
  }
  span.end(outcome.endTime);
}

/** Runs one tool call inside an `execute_tool` span. */
export async function inToolSpan<T>(parent: Context | undefined, call: ToolCall, run: () => Promise<T>): Promise<T> {
  const span = tracer().startSpan(
    `execute_tool ${call.name}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': call.name,
        'gen_ai.tool.call.id': call.id,
      },
    },
    parent ?? context.active(),
  );
  try {
    return await run();
  } finally {
    span.end();
  }
}
