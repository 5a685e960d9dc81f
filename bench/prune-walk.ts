/**
 * What one prune costs by the transcript's length alone: the long run's transcript in the
 * state the default reaches once the window is full (every old result already a marker, the
 * newest three results whole), from 250 to 4,000 messages, pruned by
 * pruneToolResultsStrategy() as the hook calls it (through a RequestBudget). The prune reads
 * every message to find what to replace, so its cost grows with the transcript's length even
 * when it replaces one result. CPU time (./step-clock.ts), the median of 200 calls after 30
 * to warm up, per repetition.
 */
import { prunedMarker } from '../src/compaction/marker.js';
import { pruneToolResultsStrategy } from '../src/compaction/prune-tool-results.js';
import { createRequestBudget } from '../src/compaction/request-budget.js';
import type { CompactionInput } from '../src/compaction/types.js';
import type { Message } from '../src/messages/types.js';
import { prose } from '../src/test-support/text.js';
import { median } from './stats.js';
import { startClock } from './step-clock.js';

const MODEL = 'long-run-model';

/** A note and a read a step, as in the long run; all but the newest three results already pruned. */
function prunedTranscript(pairs: number): Message[] {
  const messages: Message[] = [
    { role: 'system', content: 'You are a code reviewer.' },
    { role: 'user', content: 'Review the repository.' },
  ];
  for (let i = 0; i < pairs; i++) {
    const id = `call_${i}`;
    const args = { path: `src/module${i % 17}/file${i}.ts` };
    messages.push({
      role: 'assistant',
      content: `Step ${i}: ${prose(10_000 + i, 400)}`,
      toolCalls: [{ id, name: 'read', arguments: args }],
    });
    const whole = i >= pairs - 3;
    messages.push({
      role: 'tool',
      toolCallId: id,
      toolName: 'read',
      content: whole ? prose(i, 1_700) : prunedMarker('read', args, 1_700),
    });
  }
  return messages;
}

/** The prune's CPU time at each length, one entry per length. */
export function pruneWalk(
  lengths: readonly number[] = [250, 500, 1_000, 2_000, 4_000],
): { messages: number; cpuMs: number }[] {
  const strategy = pruneToolResultsStrategy();
  return lengths.map((length) => {
    const messages = prunedTranscript(Math.floor(length / 2));
    const budget = createRequestBudget({ model: MODEL });
    const request = { model: MODEL, messages };
    const input: CompactionInput = {
      messages,
      estimateTokens: (list) => budget.measureWith(request, list),
      countMessage: (message) => budget.messageTokens(message, MODEL),
      contextWindow: 10_000_000,
      protectedTokens: 0,
      thresholdTokens: 1,
      model: MODEL,
    };
    for (let k = 0; k < 30; k++) strategy.compact(input);
    const cpu: number[] = [];
    for (let k = 0; k < 200; k++) {
      const stop = startClock();
      strategy.compact(input);
      cpu.push(stop().cpuMs);
    }
    return { messages: messages.length, cpuMs: median(cpu) };
  });
}
