import { afterEach, describe, expect, it } from 'vitest';
import { getModelInfo, registerModel, resetModelRegistry } from './registry.js';

afterEach(() => resetModelRegistry());

describe('getModelInfo', () => {
  it('resolves plain, prefixed, OpenRouter and dated ids to the same model', () => {
    for (const id of ['gpt-4o', 'openai/gpt-4o', 'openrouter/openai/gpt-4o', 'gpt-4o-2024-08-06', 'OpenAI/GPT-4o']) {
      expect(getModelInfo(id), id).toMatchObject({ id: 'gpt-4o', provider: 'openai', contextWindow: 128_000 });
    }
    expect(getModelInfo('claude-3-5-sonnet-20241022')?.id).toBe('claude-3-5-sonnet');
    expect(getModelInfo('openrouter/anthropic/claude-3.5-sonnet')?.id).toBe('claude-3-5-sonnet');
    expect(getModelInfo('anthropic/claude-sonnet-4-5-20250929')?.id).toBe('claude-sonnet-4-5');
    expect(getModelInfo('openrouter/meta-llama/llama-3.3-70b-instruct:free')?.id).toBe('llama-3.3-70b-instruct');
  });

  it('covers every vendor of the table with window, output and prices', () => {
    for (const id of [
      'gpt-5-mini',
      'claude-haiku-4-5',
      'gemini-2.5-flash',
      'llama-3.1-8b-instruct',
      'mistral-large',
      'qwen3-coder',
      'deepseek-chat',
    ]) {
      const info = getModelInfo(id);
      expect(info?.contextWindow, id).toBeGreaterThan(0);
      expect(info?.maxOutputTokens, id).toBeGreaterThan(0);
      expect(info?.inputPricePerMillion, id).toBeGreaterThan(0);
      expect(info?.outputPricePerMillion, id).toBeGreaterThan(0);
    }
  });

  it('resolves unknown models to nothing', () => {
    expect(getModelInfo('qwen3:8b')).toBeUndefined();
    expect(getModelInfo('ollama/some-local-model')).toBeUndefined();
    expect(getModelInfo('')).toBeUndefined();
  });
});

describe('registerModel', () => {
  it('makes a local model known with and without its provider prefix', () => {
    registerModel({ id: 'qwen3:8b', provider: 'ollama', contextWindow: 8_192 });
    expect(getModelInfo('qwen3:8b')?.contextWindow).toBe(8_192);
    expect(getModelInfo('ollama/qwen3:8b')?.contextWindow).toBe(8_192);
    expect(getModelInfo('lmstudio/qwen3:8b')).toBeUndefined();
  });

  it('overrides a built-in entry', () => {
    registerModel({ id: 'gpt-4o', provider: 'openai', contextWindow: 64_000 });
    expect(getModelInfo('openai/gpt-4o-2024-11-20')?.contextWindow).toBe(64_000);
  });

  it('rejects a bad context window with LOUSHO_CONFIG_INVALID', () => {
    expect(() => registerModel({ id: 'x', provider: 'ollama', contextWindow: -1 })).toThrow(
      expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID', message: expect.stringContaining('contextWindow') }),
    );
    expect(() => registerModel({ id: '', provider: 'ollama', contextWindow: 1 })).toThrow(/id must be/);
  });
});
