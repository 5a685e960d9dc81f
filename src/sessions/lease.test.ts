import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { leaseDecision, newHolderId, writerOf } from './lease.js';
import { MemorySessionStore } from './store.js';

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

describe('writerOf(), what a lease says of its writer', () => {
  it("is 'free' with no lease, 'held' by a live holder or one it cannot judge, 'gone' when provably dead or run out", async () => {
    const store = new MemorySessionStore();
    expect(await writerOf(store, 's')).toBe('free');
    await store.acquire('s', newHolderId(), 60_000); // this process: alive
    expect(await writerOf(store, 's')).toBe('held');
    await store.acquire('t', 'another-host:boot:ns:4242:abcd1234', 60_000);
    expect(await writerOf(store, 't')).toBe('held');
    // A process of this host, boot and PID namespace that has exited and was reaped.
    const { pid } = spawnSync(process.execPath, ['-e', '0']);
    const dead = newHolderId().replace(/:\d+:([0-9a-f]+)$/, `:${pid}:$1`);
    await store.acquire('u', dead, 60_000);
    expect(await writerOf(store, 'u')).toBe('gone');
    await store.acquire('v', 'another-host:boot:ns:4242:abcd1234', 1);
    await new Promise((r) => setTimeout(r, 5));
    expect(await writerOf(store, 'v')).toBe('gone');
  });
});
