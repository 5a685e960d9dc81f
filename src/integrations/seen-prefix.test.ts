import { describe, expect, it } from 'vitest';
import { SeenPrefix } from './seen-prefix.js';

type Item = { role: string; content: string };
const item = (i: number): Item => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `message ${i}` });
/** The prompt a framework builds at a step: every message a new object with the same data. */
const rebuilt = (n: number): Item[] => Array.from({ length: n }, (_, i) => item(i));

describe('SeenPrefix', () => {
  it('recognises a prompt rebuilt at each of 1,000 steps by comparing at most 9 messages a step, however long', () => {
    const seen = new SeenPrefix<Item>();
    seen.reset(rebuilt(1));
    const perStep: number[] = [];
    for (let n = 3; n <= 2_001; n += 2) {
      const prompt = rebuilt(n);
      const before = seen.compared;
      expect(seen.continues(prompt)).toBe(n - 2);
      perStep.push(seen.compared - before);
      seen.extend(prompt.slice(n - 2));
    }
    expect(perStep).toHaveLength(1_000);
    expect(Math.max(...perStep)).toBeLessThanOrEqual(9);
  });

  it('compares nothing by value when the framework hands the same message objects again', () => {
    const messages = rebuilt(500);
    const seen = new SeenPrefix<Item>();
    seen.reset(messages);
    expect(seen.continues([...messages, item(500)])).toBe(500);
    expect(seen.compared).toBe(0);
  });

  it('does not take a changed first message, a changed newest one, a removed one or a shorter prompt for a continuation', () => {
    const seen = new SeenPrefix<Item>();
    seen.reset(rebuilt(1_000));
    const first = rebuilt(1_001);
    first[0] = { role: 'user', content: 'another conversation' };
    expect(seen.continues(first)).toBe(-1);
    const newest = rebuilt(1_001);
    newest[998] = { role: 'user', content: 'edited' };
    expect(seen.continues(newest)).toBe(-1);
    const removed = rebuilt(1_002);
    removed.splice(400, 1);
    expect(seen.continues(removed)).toBe(-1);
    expect(seen.continues(rebuilt(999))).toBe(-1);
    expect(seen.continues(rebuilt(1_001))).toBe(1_000);
  });

  it('finds an edit of any older message within a quarter as many checks as there are older messages', () => {
    for (const at of [1, 250, 517, 994]) {
      const seen = new SeenPrefix<Item>();
      seen.reset(rebuilt(1_000));
      const edited = rebuilt(1_000);
      edited[at] = { role: 'user', content: 'edited in place' };
      let checks = 1;
      while (seen.continues(edited) !== -1) checks++;
      expect(checks).toBeLessThanOrEqual(Math.ceil(995 / 4));
    }
  });
});
