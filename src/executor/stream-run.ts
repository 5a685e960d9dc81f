import { EventQueue } from './event-queue.js';
import type { AgentEvent } from './events.js';
import type { AgentResult } from './result.js';

/** A streamed run: its events as an async iterable, and its result. */
export interface AgentStream extends AsyncIterable<AgentEvent> {
  /** Resolves to the run's result; rejects with the run's error. */
  readonly result: Promise<AgentResult>;
}

/** Starts a run whose events go to a queue; the run starts when iteration starts or `result` is read. */
export function streamRun(start: (emit: (event: AgentEvent) => void) => Promise<AgentResult>): AgentStream {
  const queue = new EventQueue<AgentEvent>();
  let result: Promise<AgentResult> | undefined;
  const begin = () => {
    result ??= start((event) => queue.push(event)).then(
      (value) => {
        queue.close();
        return value;
      },
      (error: unknown) => {
        queue.fail(error);
        throw error;
      },
    );
    result.catch(() => {}); // a caller that only iterates sees the error there
    return result;
  };
  return {
    get result() {
      return begin();
    },
    [Symbol.asyncIterator]() {
      begin();
      return queue[Symbol.asyncIterator]();
    },
  };
}
