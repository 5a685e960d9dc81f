import { describe, expect, it } from 'vitest';
import { abortedError, configError, LoushoError, toError } from './lousho-error.js';

describe('LoushoError', () => {
  it('carries a stable code, the cause and a serialisable form', () => {
    const cause = new Error('socket closed');
    const error = new LoushoError('LOUSHO_RATE_LIMITED', 'slow down', {
      cause,
      isRetryable: true,
      details: { retryAfterMs: 1000 },
    });
    expect(error.code).toBe('LOUSHO_RATE_LIMITED');
    expect(error.cause).toBe(cause);
    expect(error.isRetryable).toBe(true);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'LoushoError',
      code: 'LOUSHO_RATE_LIMITED',
      message: 'slow down',
      isRetryable: true,
      details: { retryAfterMs: 1000 },
    });
  });

  it('recognises instances from another copy of the package by its marker', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('@lousho/build-ai-agent.error')]: true });
    expect(LoushoError.isInstance(foreign)).toBe(true);
    expect(LoushoError.isInstance(new Error('x'))).toBe(false);
    expect(LoushoError.isInstance(configError('bad'))).toBe(true);
  });

  it('turns thrown non-errors into errors', () => {
    expect(toError('boom').message).toBe('boom');
    expect(toError({ a: 1 }).message).toBe('{"a":1}');
  });

  it('says an aborted run or call was aborted through its AbortSignal, keeping what was thrown as the cause', () => {
    const reason = new DOMException('This operation was aborted', 'AbortError');
    const error = abortedError(undefined, reason);
    expect(error.code).toBe('LOUSHO_ABORTED');
    expect(error.message).toMatch(/aborted through its AbortSignal/);
    expect(error.cause).toBe(reason);
    expect(error.isRetryable).toBe(false);
    expect('cause' in abortedError()).toBe(false);
    expect(abortedError('The step was aborted.').message).toBe('The step was aborted.');
  });

  it('joins sentences without a doubled full stop, and keeps an ellipsis and a relative path', () => {
    expect(new LoushoError('LOUSHO_PROVIDER_FAILED', 'Could not reach x: Connection error.. Check it..').message).toBe(
      'Could not reach x: Connection error. Check it.',
    );
    expect(new LoushoError('LOUSHO_CONFIG_INVALID', 'cut... see ../shared/x.. ok').message).toBe(
      'cut... see ../shared/x. ok',
    );
  });
});
