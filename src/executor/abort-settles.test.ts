import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { CompactionStrategy } from '../compaction/types.js';
import type { Summarizer } from '../core/summarizer.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { mockModel } from '../testing/mock-model.js';
import { partialResult } from './result.js';
import { UNFINISHED_CALL_TEXT } from './run-outcome.js';
import { tool } from './tool.js';

/** A promise that never settles, and a function that fires once the work has started. */
function stuck(): { started: Promise<void>; work: () => Promise<never> } {
  let markStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  return {
    started,
    work: () => {
      markStarted();
      return new Promise<never>(() => {});
    },
  };
}

async function abortedWhen(started: Promise<void>, run: (signal: AbortSignal) => Promise<unknown>) {
  const controller = new AbortController();
  const settled = run(controller.signal).then(
    () => undefined,
    (e: unknown) => e,
  );
  await started;
  controller.abort();
  return settled;
}

describe('abort always settles', () => {
  it('ends a run whose summarizer ignores the signal with LOUSHO_ABORTED and a partial result', async () => {
    const { started, work } = stuck();
    const summarizer: Summarizer<Message> = { summarize: () => work() };
    const agent = createAgent({
      provider: mockModel(['never reached']),
      compaction: { summarizer, contextWindow: 4_000, protectedTokens: 0 },
    });
    // A long task statement: pruning cannot get under the threshold, so two-phase calls the summarizer.
    const transcript: Message[] = [
      { role: 'user', content: 'Notes. '.repeat(2_000) },
      ...readingTranscript(4, 3_000).slice(1),
    ];
    const error = await abortedWhen(started, (abortSignal) => agent.send(transcript, { abortSignal }));
    expect(LoushoError.isInstance(error) && error.code).toBe('LOUSHO_ABORTED');
    expect(partialResult(error)?.messages.length).toBeGreaterThan(0);
  });

  it('ends a run whose custom strategy ignores the signal', async () => {
    const { started, work } = stuck();
    const strategy: CompactionStrategy = { name: 'stuck', compact: () => work() };
    const agent = createAgent({
      provider: mockModel(['never reached']),
      compaction: { strategy, contextWindow: 2_000 },
    });
    const error = await abortedWhen(started, (abortSignal) => agent.send(readingTranscript(4, 3_000), { abortSignal }));
    expect(LoushoError.isInstance(error) && error.code).toBe('LOUSHO_ABORTED');
  });

  it('ends a run whose tool ignores the signal, and drops what the tool does afterwards', async () => {
    const { started, work } = stuck();
    const hang = tool({ name: 'hang', parameters: { type: 'object' }, execute: () => work() });
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'hang' }] }, 'done']), tools: [hang] });
    const error = await abortedWhen(started, (abortSignal) => agent.send('go', { abortSignal }));
    expect(LoushoError.isInstance(error) && error.code).toBe('LOUSHO_ABORTED');
    // The partial transcript is valid: the unfinished call has an error result saying so.
    const messages = partialResult(error)?.messages ?? [];
    expect(messages.at(-1)).toMatchObject({ role: 'tool', content: UNFINISHED_CALL_TEXT, isError: true });
    validateMessages(messages);
  });
});
