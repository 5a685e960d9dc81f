import { describe, expect, it } from 'vitest';
import { contentText } from '../messages/content.js';
import { pinMessage } from '../messages/pin.js';
import type { Message } from '../messages/types.js';
import { findPairingProblem } from '../messages/validate.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { readingTranscript, toolTurn } from '../test-support/transcripts.js';
import { FOLD_HEADER, foldTurns, isFoldMarker, pruneThenFold } from './fold-turns.js';
import { pruneToolResults } from './prune-tool-results.js';
import { summaryMessage } from './summarize.js';
import type { CompactionInput } from './types.js';

const count = (list: readonly Message[]) => estimateTokens(list, 'gpt-4o');

function inputOf(messages: Message[], protectedTokens = 0): CompactionInput {
  return { messages, estimateTokens: count, contextWindow: 100_000, protectedTokens, thresholdTokens: 1 };
}

/** A transcript of `turns` reads whose results are already markers. */
function prunedTranscript(turns: number): Message[] {
  return pruneToolResults(inputOf(readingTranscript(turns, 3_000))).messages;
}

describe('foldTurns', () => {
  it('folds the oldest pruned turns into one marker turn, oldest first, and stops at the target', () => {
    const messages = prunedTranscript(40);
    const before = count(messages);
    const target = Math.floor(before * 0.75);
    const out = foldTurns(inputOf(messages), target, 400);
    expect(out.tokensAfter).toBeLessThanOrEqual(target);
    // Not much further than needed: by at most the marker's largest size (it is counted at that while folding).
    expect(out.tokensAfter).toBeGreaterThan(target - 300);
    expect(out.messages.slice(0, 2)).toEqual(messages.slice(0, 2)); // system and task stay
    const marker = out.messages[2] as Message;
    expect(isFoldMarker(marker)).toBe(true);
    expect(contentText(marker.content).startsWith(FOLD_HEADER)).toBe(true);
    // The newest messages are the input's own, in order.
    const kept = out.messages.slice(3);
    expect(kept).toEqual(messages.slice(messages.length - kept.length));
    expect(findPairingProblem(out.messages)).toBeUndefined();
    // The marker names the latest folded calls.
    const lastFolded = messages[messages.length - kept.length - 2] as Extract<Message, { role: 'assistant' }>;
    const path = (lastFolded.toolCalls?.[0]?.arguments as { path: string } | undefined)?.path;
    expect(contentText(marker.content)).toContain(`read_file({"path":"${path}"})`);
    expect(contentText(marker.content)).toMatch(/\d+ earlier turns \(\d+ messages\)/);
  });

  it('never folds system, pinned or summary messages, the task, the protected tail or the latest turn', () => {
    const messages = prunedTranscript(6);
    messages.splice(4, 0, pinMessage({ role: 'user', content: 'Keep this: the order id is 4711.' }));
    messages.splice(2, 0, summaryMessage('earlier work'));
    const out = foldTurns(inputOf(messages), 1, 2_000);
    expect(out.messages).toContain(messages[0]);
    expect(out.messages).toContain(messages[1]); // the task
    expect(out.messages.filter((m) => m.metadata?.summary === true)).toHaveLength(1);
    expect(out.messages.some((m) => contentText(m.content).includes('4711'))).toBe(true);
    // The latest turn (its call and its result) is kept as it is.
    expect(out.messages.slice(-2)).toEqual(messages.slice(-2));
    expect(findPairingProblem(out.messages)).toBeUndefined();

    const tail = count(messages.slice(-6)) - count([]);
    const guarded = foldTurns(inputOf(messages, tail), 1, 2_000);
    expect(guarded.messages.slice(-6)).toEqual(messages.slice(-6));
  });

  it('merges an earlier fold marker into the next one, so a long run keeps one marker', () => {
    let messages = prunedTranscript(30);
    messages = foldTurns(inputOf(messages), Math.floor(count(messages) * 0.7), 2_000).messages;
    messages.push(...toolTurn('late_0', 'read_file', { path: 'src/late.ts' }, '[pruned: read_file result, 10 chars]'));
    messages.push(...toolTurn('late_1', 'read_file', { path: 'src/later.ts' }, 'fresh'));
    const again = foldTurns(inputOf(messages), Math.floor(count(messages) * 0.5), 2_000);
    const markers = again.messages.filter(isFoldMarker);
    expect(markers).toHaveLength(1);
    const first = messages.find(isFoldMarker);
    const turnsOf = (m: Message | undefined) => (m?.metadata?.folded as { turns: number } | undefined)?.turns ?? 0;
    expect(turnsOf(markers[0])).toBeGreaterThan(turnsOf(first));
  });

  it("keeps only the newest calls in the marker's list, within its character budget", () => {
    const messages = prunedTranscript(60);
    const out = foldTurns(inputOf(messages), 1, 300);
    const marker = out.messages.find(isFoldMarker) as Message;
    const list = contentText(marker.content);
    expect(list).toContain('The latest calls');
    expect(list.length).toBeLessThan(600);
    expect(list).not.toContain('src/file0.ts');
  });

  it('returns the input itself when nothing can be folded or folding would not make it smaller', () => {
    const short = readingTranscript(1);
    expect(foldTurns(inputOf(short), 1, 2_000).messages).toBe(short);
    const tiny: Message[] = [
      { role: 'user', content: 'task' },
      ...toolTurn('a', 'note', {}, 'ok'),
      ...toolTurn('b', 'note', {}, 'ok'),
    ];
    expect(foldTurns(inputOf(tiny), 1, 2_000).messages).toBe(tiny);
    const small = prunedTranscript(10);
    expect(foldTurns(inputOf(small), count(small), 2_000).messages).toBe(small);
  });
});

describe('pruneThenFold', () => {
  it('prunes first and folds only what pruning could not get under the low-water mark', () => {
    const messages = readingTranscript(30, 3_000);
    const pruned = pruneToolResults(inputOf(messages, 2_000));
    const lowWater = Math.floor(count(pruned.messages) * 0.8);
    const out = pruneThenFold(inputOf(messages, 2_000), lowWater);
    expect(out.appliedStrategy).toBe('fold-turns');
    expect(out.prunedToolCallIds).toEqual(pruned.prunedToolCallIds);
    expect(out.tokensAfter).toBeLessThanOrEqual(lowWater);
    const easy = pruneThenFold(inputOf(messages, 2_000), count(pruned.messages));
    expect(easy.appliedStrategy).toBeUndefined();
    expect(easy.messages).toEqual(pruned.messages);
  });
});
