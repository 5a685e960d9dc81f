import { describe, expect, it } from 'vitest';
import { countingAgent } from '../test-support/counting-agent.js';
import { rejection } from '../test-support/errors.js';
import { MemorySessionStore } from './store.js';

describe('send() with an idempotency key', () => {
  it('never starts a second turn for a key: a redelivered send resolves to the first turn result', async () => {
    const { agent, runs } = countingAgent();
    const store = new MemorySessionStore();
    const first = await agent.session({ id: 's', store }).send('job 1', { idempotencyKey: 'job-1' });
    const again = await agent.session({ id: 's', store }).send('job 1', { idempotencyKey: 'job-1' });
    expect(first.text).toBe('did job 1');
    expect(again).toMatchObject({ status: 'done', text: 'did job 1' });
    expect(runs).toEqual(['work']);
    const session = agent.session({ id: 's', store });
    await session.load();
    expect(session.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(session.turnOf('job-1')).toEqual({ turn: 1, status: 'done', text: 'did job 1' });
  });

  it('tells keys apart: another key starts its own turn', async () => {
    const { agent, runs } = countingAgent();
    const session = agent.session();
    await session.send('a', { idempotencyKey: 'k1' });
    await session.send('b', { idempotencyKey: 'k2' });
    await session.send('a', { idempotencyKey: 'k1' });
    await session.send('b');
    expect(runs).toHaveLength(3);
  });

  it('rejects with the turn state while the key turn is unfinished, and starts nothing', async () => {
    const { agent, runs } = countingAgent();
    const store = new MemorySessionStore();
    const paused = await agent.session({ id: 's', store }).send('deploy', { idempotencyKey: 'job-7' });
    expect(paused.status).toBe('awaiting_approval');
    const waiting = await rejection(agent.session({ id: 's', store }).send('deploy', { idempotencyKey: 'job-7' }));
    expect(waiting.code).toBe('LOUSHO_SESSION_AWAITING_APPROVAL');
    expect(waiting.details).toMatchObject({ idempotencyKey: 'job-7', turn: 1 });
    const session = agent.session({ id: 's', store });
    await session.load();
    await session.approve(session.pendingApprovals[0]?.toolCallId as string);
    const decided = await rejection(agent.session({ id: 's', store }).send('deploy', { idempotencyKey: 'job-7' }));
    expect(decided.code).toBe('LOUSHO_SESSION_TURN_PENDING');
    await session.resume();
    const done = await agent.session({ id: 's', store }).send('deploy', { idempotencyKey: 'job-7' });
    expect(done.text).toBe('did deploy');
    expect(runs).toEqual(['deploy']);
  });

  it('rejects with LOUSHO_SESSION_TURN_PENDING for a key whose turn a crash left unfinished', async () => {
    const { agent } = countingAgent();
    const store = new MemorySessionStore();
    const controller = new AbortController();
    const session = agent.session({ id: 's', store });
    session.on((e) => e.type === 'tool.start' && controller.abort());
    await rejection(session.send('job', { idempotencyKey: 'k', abortSignal: controller.signal }));
    const error = await rejection(agent.session({ id: 's', store }).send('job', { idempotencyKey: 'k' }));
    expect(error.code).toBe('LOUSHO_SESSION_TURN_PENDING');
    expect(error.details).toMatchObject({ idempotencyKey: 'k' });
  });

  it('starts no turn again for a key whose turn was cancelled: LOUSHO_SESSION_TURN_CANCELLED', async () => {
    const { agent, runs } = countingAgent();
    const session = agent.session();
    await session.send('deploy', { idempotencyKey: 'k' });
    await session.cancelPending();
    expect((await rejection(session.send('deploy', { idempotencyKey: 'k' }))).code).toBe(
      'LOUSHO_SESSION_TURN_CANCELLED',
    );
    expect(runs).toEqual([]);
    expect(session.status).toBe('idle');
  });

  it('refuses an empty or non-string key with LOUSHO_CONFIG_INVALID naming idempotencyKey', async () => {
    const session = countingAgent().agent.session();
    for (const key of ['', 42]) {
      const error = await rejection(session.send('x', { idempotencyKey: key as string }));
      expect(error.code).toBe('LOUSHO_CONFIG_INVALID');
      expect(error.message).toContain('idempotencyKey');
    }
  });

  it('runs one turn when ten deliveries of the same item race in one store', async () => {
    const { agent, runs } = countingAgent();
    const store = new MemorySessionStore();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () => agent.session({ id: 's', store }).send('job', { idempotencyKey: 'same' })),
    );
    expect(runs).toEqual(['work']);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect((outcome.reason as { code?: string }).code).toBe('LOUSHO_SESSION_BUSY');
    }
    expect(await agent.session({ id: 's', store }).send('job', { idempotencyKey: 'same' })).toMatchObject({
      text: 'did job',
    });
    expect(runs).toEqual(['work']);
  });
});

describe('resume() called twice', () => {
  it('runs the turn once: the second call finds nothing to resume and changes nothing', async () => {
    const { agent, runs } = countingAgent();
    const store = new MemorySessionStore();
    await agent.session({ id: 's', store }).send('deploy');
    const session = agent.session({ id: 's', store });
    await session.load();
    await session.approve(session.pendingApprovals[0]?.toolCallId as string);
    const [a, b] = await Promise.allSettled([session.resume(), agent.session({ id: 's', store }).resume()]);
    expect([a.status, b.status].sort()).toEqual(['fulfilled', 'rejected']);
    const saved = (await store.read('s')).version;
    expect((await rejection(agent.session({ id: 's', store }).resume())).code).toBe('LOUSHO_SESSION_IDLE');
    expect((await store.read('s')).version).toBe(saved);
    expect(runs).toEqual(['deploy']);
  });
});
