import { describe, expect, it } from 'vitest';
import { EventQueue } from './event-queue.js';

async function drain<T>(queue: EventQueue<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of queue) out.push(item);
  return out;
}

describe('EventQueue', () => {
  it('yields what was pushed before iteration, in order, and ends on close()', async () => {
    const queue = new EventQueue<number>();
    queue.push(1);
    queue.push(2);
    queue.close();
    expect(await drain(queue)).toEqual([1, 2]);
  });

  it('hands an item to a consumer already waiting', async () => {
    const queue = new EventQueue<string>();
    const result = drain(queue);
    await Promise.resolve();
    queue.push('a');
    await Promise.resolve();
    queue.push('b');
    queue.close();
    expect(await result).toEqual(['a', 'b']);
  });

  it('ignores pushes after close()', async () => {
    const queue = new EventQueue<number>();
    queue.push(1);
    queue.close();
    queue.push(2);
    expect(await drain(queue)).toEqual([1]);
  });

  it('yields the items pushed before fail() and then throws its error', async () => {
    const queue = new EventQueue<number>();
    const boom = new Error('boom');
    queue.push(1);
    queue.fail(boom);
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const item of queue) seen.push(item);
      })(),
    ).rejects.toBe(boom);
    expect(seen).toEqual([1]);
  });

  it('rejects a waiting consumer on fail()', async () => {
    const queue = new EventQueue<number>();
    const result = drain(queue);
    await Promise.resolve();
    queue.fail(new Error('late'));
    await expect(result).rejects.toThrow('late');
  });

  it('stops when the consumer breaks out early', async () => {
    const queue = new EventQueue<number>();
    queue.push(1);
    queue.push(2);
    for await (const item of queue) {
      expect(item).toBe(1);
      break;
    }
    queue.push(3);
    expect(await drain(queue)).toEqual([]);
  });
});
