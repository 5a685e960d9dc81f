import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoushoError } from './lousho-error.js';
import {
  redactError,
  redactedCopy,
  redactSecret,
  redactText,
  registerSecret,
  registerSecretHeaders,
} from './redact.js';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('redactSecret', () => {
  it('keeps the vendor prefix and the last 4 characters', () => {
    expect(redactSecret('sk-proj-4f1c9d2e8a7b6c5d4e3f2a1babcd')).toBe('sk-...abcd');
    expect(redactSecret('sk-ant-api03-0123456789abcdef0123456789wxyz')).toBe('sk-...wxyz');
    expect(redactSecret('0123456789abcdef9876')).toBe('...9876');
  });

  it('shows no tail of a key under 16 characters, and no prefix that would be half of it', () => {
    expect(redactSecret('tok_12345678')).toBe('tok_...');
    expect(redactSecret('abcdefgh')).toBe('...');
    expect(redactSecret('abcde-fgh')).toBe('...');
  });
});

describe('redactText', () => {
  it('replaces a registered key of any shape, wherever it appears', () => {
    const key = `vllm-${hex(12)}`;
    registerSecret(key);
    expect(redactText(`bad key ${key}; again: "${key}"`)).toBe(
      `bad key vllm-...${key.slice(-4)}; again: "vllm-...${key.slice(-4)}"`,
    );
  });

  it('ignores keys too short to guard anything, so ordinary words stay', () => {
    registerSecret('x');
    registerSecret('test');
    expect(redactText('x marks the test')).toBe('x marks the test');
  });

  it('replaces the key held by a vendor variable even when no provider registered it', () => {
    const key = hex(20);
    vi.stubEnv('ANTHROPIC_API_KEY', key);
    expect(redactText(`invalid x-api-key: ${key}`)).toBe(`invalid x-api-key: ...${key.slice(-4)}`);
  });

  it('replaces key-shaped strings and bearer tokens that were never registered', () => {
    const openai = `sk-proj-${hex(20)}`;
    const token = hex(16);
    expect(redactText(`Incorrect API key provided: ${openai}.`)).toBe(
      `Incorrect API key provided: sk-...${openai.slice(-4)}.`,
    );
    expect(redactText(`header was Authorization: Bearer ${token}`)).toBe(
      `header was Authorization: Bearer ...${token.slice(-4)}`,
    );
    expect(redactText('ask-me-anything and sk-short stay')).toBe('ask-me-anything and sk-short stay');
  });

  it('registers the credential headers a provider was given, without their scheme', () => {
    const bearer = hex(12);
    const azure = hex(12);
    registerSecretHeaders({ Authorization: `Bearer ${bearer}`, 'api-key': azure, 'X-Title': 'my app name' });
    expect(redactText(`${bearer} ${azure} my app name`)).toBe(
      `...${bearer.slice(-4)} ...${azure.slice(-4)} my app name`,
    );
  });
});

describe('redactedCopy and redactError', () => {
  it('copies a client error with its message, stack, fields and cause chain redacted', () => {
    const key = `key_${hex(16)}`;
    registerSecret(key);
    const socket = new Error(`socket of ${key} closed`);
    const thrown = Object.assign(new Error(`401 Incorrect API key provided: ${key}`, { cause: socket }), {
      name: 'AI_APICallError',
      statusCode: 401,
      responseBody: JSON.stringify({ error: { message: key } }),
      responseHeaders: new Headers({ 'x-echo': key }),
    });
    const copy = redactedCopy(thrown) as typeof thrown;
    expect(copy).not.toBe(thrown);
    expect(copy).toBeInstanceOf(Error);
    expect(copy.name).toBe('AI_APICallError');
    expect(copy.statusCode).toBe(401);
    expect(copy.message).toBe(`401 Incorrect API key provided: key_...${key.slice(-4)}`);
    expect(copy.stack).toContain(`key_...${key.slice(-4)}`);
    expect(inspect(copy, { depth: 10 })).not.toContain(key);
    expect(JSON.stringify(copy)).not.toContain(key);
    expect((copy.cause as Error).message).toBe(`socket of key_...${key.slice(-4)} closed`);
  });

  it('returns the value itself when nothing in it is a secret, so the cause keeps its class', () => {
    class ClientError extends Error {}
    const thrown = new ClientError('connect ECONNREFUSED 127.0.0.1:9');
    expect(redactedCopy(thrown)).toBe(thrown);
    const error = new LoushoError('LOUSHO_PROVIDER_FAILED', 'no secret here', { cause: thrown });
    expect(redactError(error)).toBe(error);
  });

  it('keeps the code, retryability, details and partial result of a LoushoError it redacts', () => {
    const key = `sk-or-v1-${hex(24)}`;
    const partial = { text: 'half' };
    const error = new LoushoError('LOUSHO_RATE_LIMITED', `slow down, ${key}`, {
      cause: new Error(key),
      isRetryable: true,
      details: { retryAfterMs: 20, echoed: key },
      partialResult: partial,
    });
    const copy = redactError(error);
    expect(copy.code).toBe('LOUSHO_RATE_LIMITED');
    expect(copy.isRetryable).toBe(true);
    expect(copy.partialResult).toBe(partial);
    expect(copy.details).toEqual({ retryAfterMs: 20, echoed: `sk-...${key.slice(-4)}` });
    expect(copy.message).toBe(`slow down, sk-...${key.slice(-4)}`);
    expect([copy.stack, (copy.cause as Error).stack, JSON.stringify(copy)].join('\n')).not.toContain(key);
  });
});
