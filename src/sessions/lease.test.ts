import { describe, expect, it } from 'vitest';
import { leaseDecision } from './lease.js';

describe('leaseDecision, the one lease rule of the memory, file and SQLite stores', () => {
  const held = { holder: 'a', expiresAt: 1_000 };

  it('gives the lease when there is none, when it expired, and to its holder or the one taking it over', () => {
    expect(leaseDecision(undefined, 'b', 30, undefined, 500)).toEqual({ acquired: true, holder: 'b', expiresAt: 530 });
    expect(leaseDecision(held, 'b', 30, undefined, 1_000)).toEqual({ acquired: true, holder: 'b', expiresAt: 1_030 });
    expect(leaseDecision(held, 'a', 30, undefined, 500).acquired).toBe(true);
    expect(leaseDecision(held, 'b', 30, 'a', 500).acquired).toBe(true);
  });

  it("refuses another holder's lease until it expires, naming the holder and when", () => {
    expect(leaseDecision(held, 'b', 30, undefined, 999)).toEqual({ acquired: false, holder: 'a', expiresAt: 1_000 });
    expect(leaseDecision(held, 'b', 30, 'c', 999).acquired).toBe(false);
  });
});
