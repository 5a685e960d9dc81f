import { LoushoError, toError } from '../errors/lousho-error.js';
import { redactedCopy, redactText } from '../errors/redact.js';

/** Why a server failed: it could not start or be reached, it crashed, a list passed a bound, or it needs authorization. */
export type McpFailure = 'unreachable' | 'crashed' | 'list-too-long' | 'unauthorized' | 'timeout';

/** The typed error of a server that could not be started, listed or reached (it names the server). */
export function mcpServerError(
  server: string,
  what: string,
  cause: unknown,
  reason: McpFailure,
  advice = "Check its command, url and the server's own log.",
): LoushoError {
  return new LoushoError(
    'LOUSHO_MCP_SERVER_FAILED',
    `MCP server '${server}' ${what}: ${redactText(toError(cause).message)}. ${advice}`,
    // The SDK's error may quote what the server answered (a header it echoed): kept only as a redacted copy.
    { cause: redactedCopy(cause), details: { server, reason } },
  );
}

/** JSON-RPC's "request timed out" code, as the SDK raises it. */
const TIMED_OUT = -32001;

/**
 * What a failed request tells the model (or the caller), redacted: a timeout names the option
 * that sets it; anything else is the server's own message.
 */
export function requestError(error: unknown, server: string, method: string, timeoutMs: number): Error {
  const e = toError(error) as Error & { code?: unknown };
  if (e.code === TIMED_OUT)
    return new Error(
      `MCP server '${server}' did not answer ${method} within ${timeoutMs.toLocaleString('en-US')} ms ` +
        "(timeoutMs, started again by each progress notification; maxTotalTimeoutMs bounds the whole call). Raise them in the server's entry if the call needs longer",
    );
  return new Error(redactText(e.message));
}
