import type { AgentEvent, AgentEventListener } from '../contracts/agent-event.js';
import { configError } from '../errors/lousho-error.js';

const listeners = new Set<AgentEventListener>();

/**
 * Listens to every event of every run in this process (send(), stream(), sessions and
 * AgentExecutor alike), beside createAgent({ onEvent }); returns a function that removes the
 * listener. A run started while at least one such listener exists reports its events to every
 * listener present when each event happens; like onEvent, it gives hooks a `ctx.emit`.
 *
 * @example
 * const off = onAgentEvent((event) => {
 *   if (event.type === 'compaction.done') metrics.record(event.tokensBefore - event.tokensAfter);
 * });
 */
export function onAgentEvent(listener: AgentEventListener): () => void {
  if (typeof listener !== 'function') throw configError('onAgentEvent() takes a function (event) => void.');
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Gives `event` to each listener in turn; a listener that throws is reported on the console
 * (as `who` listener) and the others still get the event: a listener never ends a run. @internal
 */
export function deliver(
  targets: Iterable<AgentEventListener>,
  event: AgentEvent,
  who: string,
  goesOn = 'the run goes on',
): void {
  for (const listener of targets) {
    try {
      listener(event);
    } catch (error) {
      console.error(`@lousho/build-ai-agent: ${who} listener threw; ${goesOn}.`, error);
    }
  }
}

/** The listener a run adds for onAgentEvent(), or none when nobody listens. @internal */
export function processListeners(): AgentEventListener[] {
  if (listeners.size === 0) return [];
  return [(event) => deliver(listeners, event, 'an onAgentEvent')];
}
