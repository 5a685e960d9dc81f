import { Session } from '../sessions/session.js';
import type { SessionRunner } from '../sessions/session-types.js';
import type { SessionStore } from '../sessions/store.js';

/**
 * The session agent.session() returns: a Session whose turns use MCP servers of their own
 * (started on its first turn that needs them), which close() ends. `await using` calls
 * close() at the end of the block.
 *
 * @example
 * await using session = agent.session({ id: 'ticket-42' });
 * await session.send('Find the failing test.');
 * // the session's MCP servers end here
 */
export class AgentSession extends Session {
  readonly #close: () => Promise<void>;

  /** @internal agent.session() makes these; `close` ends what the session's turns started. */
  constructor(
    options: { id: string; store: SessionStore; runner: SessionRunner; leaseMs?: number },
    close: () => Promise<void>,
  ) {
    super(options);
    this.#close = close;
  }

  /**
   * The end of the session's use in this process: ends the MCP servers its turns started (a stdio
   * server's process exits) and closes its connections to the others. What the store holds is
   * untouched, and a later turn of this object starts them again. Safe to call more than once.
   */
  close(): Promise<void> {
    return this.#close();
  }

  /** close(), for `await using session = agent.session()`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
