import { describe, expect, it } from 'vitest';
import { countingAgent } from '../test-support/counting-agent.js';
import { rejection } from '../test-support/errors.js';
import { driveSession } from './drive-session.js';

describe('driveSession()', () => {
  it('runs a queued input and reports sent, then replayed for the same job delivered again', async () => {
    const { runs, open } = countingAgent();
    const first = await driveSession(open(), { input: 'job', idempotencyKey: 'j1' });
    expect(first).toMatchObject({ action: 'sent', status: 'idle', pendingApprovals: [], result: { text: 'did job' } });
    const again = await driveSession(open(), { input: 'job', idempotencyKey: 'j1' });
    expect(again).toMatchObject({ action: 'replayed', status: 'idle', result: { text: 'did job' } });
    expect(runs).toEqual(['work']);
  });

  it('rests at awaiting_approval with the calls it waits on, and resumes once they are decided', async () => {
    const { runs, open } = countingAgent();
    const waiting = await driveSession(open(), { input: 'deploy', idempotencyKey: 'j1' });
    expect(waiting).toMatchObject({ action: 'sent', status: 'awaiting_approval' });
    expect(waiting.pendingApprovals.map((a) => a.toolName)).toEqual(['deploy']);
    expect(await driveSession(open(), { input: 'deploy', idempotencyKey: 'j1' })).toMatchObject({
      action: 'none',
      status: 'awaiting_approval',
    });
    await open().approve(waiting.pendingApprovals[0]?.toolCallId as string);
    const resumed = await driveSession(open());
    expect(resumed).toMatchObject({ action: 'resumed', status: 'idle', result: { text: 'did deploy' } });
    expect(await driveSession(open())).toEqual({ action: 'none', status: 'idle', pendingApprovals: [] });
    expect(runs).toEqual(['deploy']);
  });

  it('continues a turn a crash left pending, then runs the queued input after it', async () => {
    const { runs, open } = countingAgent();
    const controller = new AbortController();
    const crashed = open();
    crashed.on((e) => e.type === 'tool.done' && controller.abort());
    await rejection(crashed.send('first', { abortSignal: controller.signal }));
    const outcome = await driveSession(open(), { input: 'second', idempotencyKey: 'j2' });
    expect(outcome).toMatchObject({ action: 'sent', status: 'idle', result: { text: 'did second' } });
    const session = open();
    await session.load();
    expect(session.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toContain('did first');
    expect(runs).toEqual(['work', 'work']);
  });

  it('resumes the key own turn when a crash left it pending, and reports resumed', async () => {
    const { open } = countingAgent();
    const controller = new AbortController();
    const crashed = open();
    crashed.on((e) => e.type === 'tool.done' && controller.abort());
    await rejection(crashed.send('job', { idempotencyKey: 'j', abortSignal: controller.signal }));
    const outcome = await driveSession(open(), { input: 'job', idempotencyKey: 'j' });
    expect(outcome).toMatchObject({ action: 'resumed', status: 'idle', result: { text: 'did job' } });
    const session = open();
    await session.load();
    expect(session.messages.filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('rejects an input that cannot start while an earlier turn waits for a decision, and keeps the session as it was', async () => {
    const { open, store } = countingAgent();
    await driveSession(open(), { input: 'deploy', idempotencyKey: 'j1' });
    const saved = (await store.read('s')).version;
    const error = await rejection(driveSession(open(), { input: 'later', idempotencyKey: 'j2' }));
    expect(error.code).toBe('LOUSHO_SESSION_AWAITING_APPROVAL');
    expect((await store.read('s')).version).toBe(saved);
  });

  it('rejects with LOUSHO_SESSION_BUSY while another process holds the session', async () => {
    const { open, store } = countingAgent();
    await store.acquire('s', 'other-host:1:abc', 60_000);
    expect((await rejection(driveSession(open(), { input: 'x', idempotencyKey: 'k' }))).code).toBe(
      'LOUSHO_SESSION_BUSY',
    );
  });
});
