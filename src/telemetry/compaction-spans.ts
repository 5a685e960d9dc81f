import { type Context, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import type { AgentEvent } from '../contracts/agent-event.js';

const tracer = () => trace.getTracer('@lousho/build-ai-agent');

/**
 * Turns a run's compaction and recovery events into OpenTelemetry: a `compaction {strategy}`
 * span under the run's span from each compaction.start to its compaction.done (strategy, why it
 * ran, tokens before and after, results pruned, whether a summary was made, the error), and a
 * `lousho.recovery` span event on the run's span for each recovery.done. Compaction is no
 * operation the GenAI conventions name, so its span takes the custom `gen_ai.operation.name`
 * 'compaction' they allow, named `{operation} {strategy}` as theirs are; a summarizer's model
 * call is a `chat` span of its own.
 */
export function traceRunEvents(runContext: Context): (event: AgentEvent) => void {
  let open: Span | undefined;
  return (event) => {
    if (event.type === 'compaction.start') {
      open?.end();
      open = tracer().startSpan(
        `compaction ${event.strategy}`,
        {
          attributes: {
            'gen_ai.operation.name': 'compaction',
            'lousho.compaction.strategy': event.strategy,
            'lousho.compaction.tokens_before': event.tokensBefore,
            'lousho.compaction.context_window': event.contextWindow,
            'lousho.compaction.threshold_tokens': event.thresholdTokens,
            // Why it ran: over the threshold (the hook), a request that did not fit (overflow recovery), or by hand.
            'lousho.compaction.trigger': event.trigger ?? 'threshold',
            ...(event.step === undefined ? {} : { 'lousho.step': event.step }),
          },
        },
        runContext,
      );
    } else if (event.type === 'compaction.done' && open !== undefined) {
      open.setAttributes({
        'lousho.compaction.applied_strategy': event.appliedStrategy ?? event.strategy,
        'lousho.compaction.tokens_after': event.tokensAfter,
        'lousho.compaction.results_pruned': event.prunedToolCallIds.length,
        'lousho.compaction.summary': event.summary === true,
        'lousho.compaction.unchanged': event.unchanged === true,
      });
      if (event.error !== undefined) {
        open.setAttribute('error.type', 'compaction');
        open.setAttribute('lousho.compaction.error', event.error.message);
        open.setStatus({ code: SpanStatusCode.ERROR, message: event.error.message });
      }
      open.end();
      open = undefined;
    } else if (event.type === 'recovery.done') {
      trace.getSpan(runContext)?.addEvent('lousho.recovery', {
        'lousho.recovery.kind': event.kind,
        'lousho.recovery.action': event.action,
        'lousho.recovery.attempt': event.attempt,
        'lousho.step': event.step,
      });
    }
  };
}
