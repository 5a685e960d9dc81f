/**
 * The replay's Anthropic bill (bench/anthropic-breakpoint-meter.ts): what the provider's
 * breakpoints make cached, against the ideal cache the OpenAI price model assumes.
 */
import { describe, expect, it } from 'vitest';
import { AnthropicBreakpointMeter } from '../../bench/anthropic-breakpoint-meter.js';
import { ANTHROPIC_PRICES, BillingMeter } from '../../bench/replay-metrics.js';
import type { ToolDefinition } from '../contracts/tool-definition.js';
import type { Message } from '../messages/types.js';

const TOKENS = 500;
const count = () => TOKENS;
const tool: ToolDefinition = { name: 'bash', description: 'Run a command.', parameters: { type: 'object' } };
const fixed = { tokens: 100, key: 'bash', definitions: [tool] };

/** system, task, then `steps` tool turns; each message 500 tokens in this test's count. */
function run(steps: number, calls = 1): Message[][] {
  const messages: Message[] = [
    { role: 'system', content: 'You fix bugs.' },
    { role: 'user', content: 'Fix the bug.' },
  ];
  const requests: Message[][] = [messages.slice()];
  for (let s = 0; s < steps; s++) {
    const ids = Array.from({ length: calls }, (_, c) => `c${s}_${c}`);
    messages.push({
      role: 'assistant',
      content: '',
      toolCalls: ids.map((id) => ({ id, name: 'bash', arguments: { command: `cat ${id}` } })),
    });
    for (const id of ids) messages.push({ role: 'tool', toolCallId: id, content: `output of ${id}` });
    requests.push(messages.slice());
  }
  return requests;
}

describe('AnthropicBreakpointMeter', () => {
  it('reads all of the previous request when a run only appends, as the ideal cache does', () => {
    const meter = new AnthropicBreakpointMeter(count, ANTHROPIC_PRICES);
    const ideal = new BillingMeter(count, fixed.tokens, ANTHROPIC_PRICES);
    for (const request of run(6)) {
      const bill = meter.add(request, fixed);
      expect(bill.cachedTokens).toBe(ideal.add(request, fixed).cachedTokens);
    }
    // 1,100 written at 125% first; then each step reads the previous request and writes its 1,000 new tokens.
    expect(meter.billedTokens).toBeCloseTo(
      1_100 * 1.25 + 6 * 1_000 * 1.25 + (1_100 + 2_100 + 3_100 + 4_100 + 5_100 + 6_100) * 0.1,
    );
  });

  it('after a rewrite near the end or near the start reads up to the change, as the ideal cache does (the provider points a breakpoint at the newest prefix an earlier request cached before it)', () => {
    // The system prompt is 2,000 tokens here, so the prefix through it is cached (over 1,024).
    const big = (m: Message) => (m.role === 'system' ? 2_000 : TOKENS);
    const requests = run(20);
    const last = requests[20] as Message[];
    const prune = (at: number) => last.map((m, i) => (i === at ? ({ ...m, content: '[pruned]' } as Message) : m));
    const replay = (at: number) => {
      const meter = new AnthropicBreakpointMeter(big, ANTHROPIC_PRICES);
      const ideal = new BillingMeter(big, fixed.tokens, ANTHROPIC_PRICES);
      for (const request of requests.slice(0, 20)) {
        meter.add(request, fixed);
        ideal.add(request, fixed);
      }
      return { breakpoints: meter.add(prune(at), fixed).cachedTokens, ideal: ideal.add(prune(at), fixed).cachedTokens };
    };
    // A rewrite near the end: an earlier request's newest breakpoint just before it is within reach.
    expect(replay(36)).toEqual({ breakpoints: 100 + 2_000 + 35 * TOKENS, ideal: 100 + 2_000 + 35 * TOKENS });
    // A rewrite near the start: the breakpoints before it are over 20 blocks back from the newest, but the
    // provider's memory points one at the newest prefix cached before the change (the step ending at message 3).
    expect(replay(4)).toEqual({ breakpoints: 100 + 2_000 + 3 * TOKENS, ideal: 100 + 2_000 + 3 * TOKENS });
  });

  it('still reads the previous request when a step adds more than 20 blocks (parallel calls)', () => {
    const meter = new AnthropicBreakpointMeter(count, ANTHROPIC_PRICES);
    let previous = 0;
    for (const [i, request] of run(3, 12).entries()) {
      const bill = meter.add(request, fixed);
      if (i > 0) expect(bill.cachedTokens).toBe(previous);
      previous = bill.tokens;
    }
  });

  it('starts over when the tool definitions change', () => {
    const meter = new AnthropicBreakpointMeter(count, ANTHROPIC_PRICES);
    const [first, second] = run(1);
    meter.add(first as Message[], fixed);
    expect(meter.add(second as Message[], { ...fixed, key: 'bash,recall' }).cachedTokens).toBe(0);
  });
});
