/**
 * The metrics of the replay benchmark (bench/replay-metrics.ts): billing under a prompt
 * cache and identifier loss.
 */
import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_PRICES,
  BillingMeter,
  billRequest,
  commonPrefixLength,
  extractReferences,
  lostShare,
  OPENAI_PRICES,
  ReferenceIndex,
  sameMessage,
  visibleText,
} from '../../bench/replay-metrics.js';
import type { Message, ToolMessage } from '../messages/types.js';

/** Every message costs 10 tokens, the fixed part 5: the arithmetic stays readable. */
const TEN = () => 10;

const system: Message = { role: 'system', content: 'You are a coding agent.' };
const task: Message = { role: 'user', content: 'Fix the bug in django/db/models/query.py (QuerySet.bulk_create).' };
const call1: Message = {
  role: 'assistant',
  content: '',
  toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'cat django/db/models/query.py' } }],
};
const result1: ToolMessage = {
  role: 'tool',
  toolCallId: 'c1',
  toolName: 'bash',
  content:
    'def bulk_create(self, objs, batch_size=None):\n    _check_batch_size(batch_size)\n    raise ValueError("Batch size must be positive")',
};
const call2: Message = {
  role: 'assistant',
  content: '',
  toolCalls: [
    {
      id: 'c2',
      name: 'bash',
      arguments: { command: 'grep -n "_check_batch_size" django/db/models/query.py tests/bulk_create/tests.py' },
    },
  ],
};

describe('billing under a prompt cache', () => {
  it('treats a message as the same when it would be sent as the same bytes', () => {
    expect(sameMessage(result1, result1)).toBe(true);
    expect(sameMessage(result1, { ...result1 })).toBe(true);
    expect(sameMessage(result1, { ...result1, content: '[cleared]' })).toBe(false);
    expect(
      sameMessage(call1, { ...call1, toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'ls' } }] }),
    ).toBe(false);
    expect(
      sameMessage(call1, {
        ...call1,
        toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'cat django/db/models/query.py' } }],
      }),
    ).toBe(true);
  });

  it('finds the prefix of messages shared with the previous request', () => {
    expect(commonPrefixLength(undefined, [system, task])).toBe(0);
    expect(commonPrefixLength([system, task], [system, task, call1])).toBe(2);
    expect(
      commonPrefixLength([system, task, call1, result1], [system, task, call1, { ...result1, content: 'x' }]),
    ).toBe(3);
    expect(commonPrefixLength([system, task], [task])).toBe(0);
  });

  it('bills the first request in full, then the shared prefix and the fixed part at 10%', () => {
    const first = billRequest(undefined, [system, task], TEN, 5);
    expect(first).toEqual({ tokens: 25, cachedTokens: 0, billedTokens: 25 });
    const appended = billRequest([system, task], [system, task, call1, result1], TEN, 5);
    expect(appended.tokens).toBe(45);
    expect(appended.cachedTokens).toBe(25);
    expect(appended.billedTokens).toBeCloseTo(20 + 2.5);
  });

  it('pays in full everything after the first rewritten message', () => {
    const masked: ToolMessage = { ...result1, content: '[cleared]' };
    const bill = billRequest([system, task, call1, result1, call2], [system, task, call1, masked, call2], TEN, 5);
    expect(bill.cachedTokens).toBe(5 + 30);
    expect(bill.billedTokens).toBeCloseTo(20 + 3.5);
  });

  it('sums a run of requests, each against the one before', () => {
    const meter = new BillingMeter(TEN, 5);
    const transcript: Message[] = [system, task];
    meter.add(transcript);
    transcript.push(call1, result1); // the meter kept a copy, so this in-place change is a new request
    meter.add(transcript);
    expect(meter.tokens).toBe(25 + 45);
    expect(meter.cachedTokens).toBe(25);
    expect(meter.billedTokens).toBeCloseTo(25 + 22.5);
  });

  it('bills the uncached part at the write price: Anthropic 125%, OpenAI 100%, reads at 10% in both', () => {
    const requests: Message[][] = [
      [system, task],
      [system, task, call1, result1],
    ];
    const [openai, anthropic] = [OPENAI_PRICES, ANTHROPIC_PRICES].map((prices) => {
      const meter = new BillingMeter(TEN, 5, prices);
      for (const request of requests) meter.add(request);
      return meter.billedTokens;
    });
    // First request: 25 tokens, none cached. Second: 45 tokens, 25 cached (the fixed part and two messages).
    expect(openai).toBeCloseTo(25 + 20 + 2.5);
    expect(anthropic).toBeCloseTo(25 * 1.25 + 20 * 1.25 + 2.5);
  });
});

describe('identifier loss', () => {
  it('extracts paths, identifiers that are not common words, and quoted strings', () => {
    const refs = extractReferences(
      `cd /testbed && grep -n "def _print_Pow" sympy/printing/latex.py | head -n 20 && sed -n '1,80p' setup.cfg`,
    );
    expect(refs).toEqual(
      expect.arrayContaining(['/testbed', 'sympy/printing/latex.py', 'setup.cfg', '_print_Pow', 'def _print_Pow']),
    );
    for (const common of ['grep', 'head', 'cd', 'sed', '1,80p', '20']) expect(refs).not.toContain(common);
  });

  it('keeps only the references an earlier message showed, with the messages that show them', () => {
    const transcript = [system, task, call1, result1, call2];
    const index = new ReferenceIndex(transcript);
    const refs = index.visibleReferences(4);
    const texts = refs.map((r) => r.text);
    expect(texts).toEqual(expect.arrayContaining(['_check_batch_size', 'django/db/models/query.py']));
    expect(texts).not.toContain('tests/bulk_create/tests.py'); // never shown before
    expect(refs.find((r) => r.text === '_check_batch_size')?.holders).toEqual([result1]);
    expect(refs.find((r) => r.text === 'django/db/models/query.py')?.holders).toEqual([task, call1]);
    expect(index.visibleReferences(3)).toEqual([]); // not an assistant message
  });

  const original = new Set<Message>([system, task, call1, result1, call2]);
  const isOriginal = (m: Message) => original.has(m);
  const refs = new ReferenceIndex([system, task, call1, result1, call2]).visibleReferences(4);

  it('is zero when every reference is still shown, and counts what a placeholder hid', () => {
    expect(lostShare(refs, [system, task, call1, result1], isOriginal)).toBe(0);
    const cleared: ToolMessage = { ...result1, content: '[cleared]' };
    // '_check_batch_size' was only in the result; the path is still in the task.
    expect(lostShare(refs, [system, task, call1, cleared], isOriginal)).toBeCloseTo(1 / refs.length);
  });

  it('counts a marker or summary that names a reference as showing it', () => {
    const summary: Message = { role: 'user', content: '[Conversation summary]\nbulk_create calls _check_batch_size.' };
    expect(lostShare(refs, [system, summary], isOriginal)).toBe(
      refs.filter((r) => !'bulk_create calls _check_batch_size.'.includes(r.text)).length / refs.length,
    );
    expect(lostShare(refs, [system], isOriginal)).toBe(1);
  });

  it('gives the same share as a plain substring search of the request', () => {
    const cleared: ToolMessage = { ...result1, content: '[pruned: bash({"command":"cat django/db/models/query.py"})]' };
    for (const request of [[system, task, call1, result1], [system, task, call1, cleared], [system, cleared], [task]]) {
      const text = request.map(visibleText);
      const naive = refs.filter((r) => !text.some((t) => t.includes(r.text))).length / refs.length;
      expect(lostShare(refs, request, isOriginal)).toBe(naive);
    }
  });

  it('is undefined when the command uses nothing seen before', () => {
    expect(lostShare([], [system], isOriginal)).toBeUndefined();
  });
});
