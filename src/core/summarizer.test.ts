/**
 * The two Summarizers of the specification ("The two Summarizer implementations"):
 * TruncatingSummarizer concatenates and cuts, with no model call; LLMSummarizer makes one
 * model call without tools for a structured summary and falls back to truncation when the
 * call throws or returns no usable text.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ReportedModelCall } from '../contracts/model-call.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { LoushoError } from '../errors/lousho-error.js';
import { mockModel } from '../testing/mock-model.js';
import { LLMSummarizer } from './llm-summarizer.js';
import { DEFAULT_TRUNCATE_MAX_CHARS, isSummarizer, TruncatingSummarizer } from './summarizer.js';
import { DEFAULT_SUMMARY_PROMPT } from './summary-prompt.js';

interface Line {
  who: string;
  text: string;
}

const toText = (m: Line) => `${m.who}: ${m.text}`;
const lines = (n: number, width = 40): Line[] =>
  Array.from({ length: n }, (_, i) => ({ who: i % 2 === 0 ? 'user' : 'agent', text: `${i}`.padEnd(width, '.') }));

function errorCode(make: () => unknown): string | undefined {
  try {
    make();
  } catch (error) {
    return LoushoError.isInstance(error) ? error.code : 'not a LoushoError';
  }
  return undefined;
}

/** The message of the first error a mock was called with. */
function firstError(fn: { mock: { calls: unknown[][] } }): string | undefined {
  const error = fn.mock.calls[0]?.[0];
  return error instanceof Error ? error.message : undefined;
}

function systemOf(request: ModelRequest | undefined): unknown {
  return request?.messages[0]?.role === 'system' ? request.messages[0].content : undefined;
}

function userOf(request: ModelRequest | undefined): string {
  const user = request?.messages.find((m) => m.role === 'user');
  return typeof user?.content === 'string' ? user.content : '';
}

describe('TruncatingSummarizer', () => {
  it('concatenates the messages as text, one a line, when they fit in maxChars', async () => {
    const messages: Line[] = [
      { who: 'user', text: 'hello' },
      { who: 'agent', text: 'hi' },
    ];
    const summary = await new TruncatingSummarizer<Line>().summarize(messages, { toText });
    expect(summary).toBe('user: hello\nagent: hi');
  });

  it('cuts the concatenation to maxChars, 500 by default, keeping its beginning', async () => {
    const messages = lines(40);
    const whole = messages.map(toText).join('\n');
    expect(whole.length).toBeGreaterThan(DEFAULT_TRUNCATE_MAX_CHARS);
    expect(DEFAULT_TRUNCATE_MAX_CHARS).toBe(500);
    const summary = await new TruncatingSummarizer<Line>().summarize(messages, { toText });
    expect(summary).toBe(whole.slice(0, 500));
    const short = await new TruncatingSummarizer<Line>({ maxChars: 30 }).summarize(messages, { toText });
    expect(short).toBe(whole.slice(0, 30));
    expect(new TruncatingSummarizer().maxChars).toBe(500);
  });

  it('makes no model call and reports none', async () => {
    const onModelCall = vi.fn();
    await new TruncatingSummarizer<Line>().summarize(lines(50), { toText, onModelCall });
    expect(onModelCall).not.toHaveBeenCalled();
  });

  it('rejects a maxChars that is not a positive whole number with LOUSHO_CONFIG_INVALID', () => {
    for (const maxChars of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(errorCode(() => new TruncatingSummarizer({ maxChars }))).toBe('LOUSHO_CONFIG_INVALID');
    }
  });

  it('has the shape of a Summarizer', () => {
    expect(isSummarizer(new TruncatingSummarizer())).toBe(true);
    expect(isSummarizer(new LLMSummarizer({ model: mockModel([]) }))).toBe(true);
    expect(isSummarizer({ summarize: 'no' })).toBe(false);
    expect(isSummarizer(null)).toBe(false);
  });
});

describe('LLMSummarizer', () => {
  it('makes one model call without tools: the default prompt as the system message, the conversation as the user message', async () => {
    const model = mockModel(['## Facts established\n- x']);
    const messages: Line[] = [
      { who: 'user', text: 'my order id is ORD-1' },
      { who: 'agent', text: 'noted' },
    ];
    await new LLMSummarizer<Line>({ model }).summarize(messages, { toText });
    expect(model.calls).toHaveLength(1);
    const [request] = model.calls;
    expect(request?.tools).toBeUndefined();
    expect(request?.messages).toHaveLength(2);
    expect(systemOf(request)).toBe(DEFAULT_SUMMARY_PROMPT);
    expect(userOf(request)).toContain('user: my order id is ORD-1');
    expect(userOf(request)).toContain('agent: noted');
    expect(userOf(request)).toBe(LLMSummarizer.conversation(messages, toText));
  });

  it('asks by default for the facts established, the actions taken and the open question, verbatim', () => {
    expect(DEFAULT_SUMMARY_PROMPT).toMatch(/## Facts established/);
    expect(DEFAULT_SUMMARY_PROMPT).toMatch(/## Actions taken/);
    expect(DEFAULT_SUMMARY_PROMPT).toMatch(/## Open question/);
    expect(DEFAULT_SUMMARY_PROMPT).toMatch(/verbatim/);
  });

  it('sends a given prompt instead of the default, and passes maxOutputTokens', async () => {
    const model = mockModel(['short']);
    await new LLMSummarizer<Line>({ model, prompt: 'Keep ids.', maxOutputTokens: 321 }).summarize(lines(3), { toText });
    expect(systemOf(model.calls[0])).toBe('Keep ids.');
    expect(model.calls[0]?.maxOutputTokens).toBe(321);
    const plain = mockModel(['short']);
    await new LLMSummarizer<Line>({ model: plain }).summarize(lines(3), { toText });
    expect(plain.calls[0]?.maxOutputTokens).toBeUndefined();
  });

  it("returns the model's text, trimmed", async () => {
    const model = mockModel(['  ## Facts established\n- ORD-1\n\n']);
    const summary = await new LLMSummarizer<Line>({ model }).summarize(lines(3), { toText });
    expect(summary).toBe('## Facts established\n- ORD-1');
  });

  it('falls back to a TruncatingSummarizer when the call throws, and tells onFallback why', async () => {
    const onFallback = vi.fn();
    const messages = lines(40);
    const summarizer = new LLMSummarizer<Line>({ model: mockModel([new Error('model down')]), onFallback });
    const summary = await summarizer.summarize(messages, { toText });
    expect(summary).toBe(await new TruncatingSummarizer<Line>().summarize(messages, { toText }));
    expect(onFallback).toHaveBeenCalledTimes(1);
    expect(firstError(onFallback)).toBe('model down');
  });

  it('falls back when the model returns no usable text (empty or whitespace)', async () => {
    for (const reply of ['', '   \n\t ']) {
      const onFallback = vi.fn();
      const messages = lines(40);
      const summary = await new LLMSummarizer<Line>({ model: mockModel([reply]), onFallback }).summarize(messages, {
        toText,
      });
      expect(summary).toBe(messages.map(toText).join('\n').slice(0, 500));
      expect(onFallback).toHaveBeenCalledTimes(1);
      expect(firstError(onFallback)).toMatch(/returned no summary text/);
    }
  });

  it('falls back to the given fallback summarizer', async () => {
    const fallback = { summarize: vi.fn(async () => 'from the fallback') };
    const summary = await new LLMSummarizer<Line>({ model: mockModel([new Error('x')]), fallback }).summarize(
      lines(2),
      { toText },
    );
    expect(summary).toBe('from the fallback');
    expect(fallback.summarize).toHaveBeenCalledTimes(1);
  });

  it('reports its model call through context.onModelCall, as a compaction call', async () => {
    const model = mockModel([{ text: 'summary', usage: { inputTokens: 120, outputTokens: 7 } }], {
      provider: 'cheap',
      modelId: 'cheap-1',
    });
    const calls: ReportedModelCall[] = [];
    await new LLMSummarizer<Line>({ model }).summarize(lines(3), { toText, onModelCall: (c) => calls.push(c) });
    expect(calls).toEqual([
      {
        provider: 'cheap',
        model: 'cheap-1',
        usage: { inputTokens: 120, outputTokens: 7, cachedInputTokens: undefined },
        purpose: 'compaction',
        startTime: expect.any(Number),
        endTime: expect.any(Number),
      },
    ]);
  });

  it('reports the call even when its reply is unusable and it falls back', async () => {
    const onModelCall = vi.fn();
    await new LLMSummarizer<Line>({ model: mockModel(['  ']) }).summarize(lines(3), { toText, onModelCall });
    expect(onModelCall).toHaveBeenCalledTimes(1);
  });

  it('takes an LLMProvider: a "provider/model" string is refused with how to resolve it', () => {
    const error = (() => {
      try {
        new LLMSummarizer<Line>({ model: 'openai/gpt-4o-mini' as never });
      } catch (e) {
        return e as LoushoError;
      }
      return undefined;
    })();
    expect(error?.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(error?.message).toContain("resolveProvider('openai/gpt-4o-mini')");
  });

  it('does not fall back when the run was aborted: the abort propagates', async () => {
    const controller = new AbortController();
    controller.abort();
    const onFallback = vi.fn();
    const summarizer = new LLMSummarizer<Line>({ model: mockModel(['never']), onFallback });
    await expect(summarizer.summarize(lines(3), { toText, abortSignal: controller.signal })).rejects.toMatchObject({
      code: 'LOUSHO_ABORTED',
    });
    expect(onFallback).not.toHaveBeenCalled();
  });

  it('needs a model: LOUSHO_CONFIG_INVALID without one', () => {
    expect(errorCode(() => new LLMSummarizer({ model: '' as never }))).toBe('LOUSHO_CONFIG_INVALID');
    expect(errorCode(() => new LLMSummarizer(JSON.parse('{}')))).toBe('LOUSHO_CONFIG_INVALID');
  });
});
