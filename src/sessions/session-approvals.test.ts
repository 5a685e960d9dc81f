import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import { tool } from '../executor/tool.js';
import type { ToolMessage } from '../messages/types.js';
import { rejection } from '../test-support/errors.js';
import { mockModel } from '../testing/mock-model.js';
import { MemorySessionStore } from './store.js';

/** Tools that record what ran: deploy always asks; remove asks only for paths outside tmp/; read never. */
function tools() {
  const ran: string[] = [];
  const params = { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] };
  return {
    ran,
    list: [
      tool({
        name: 'deploy',
        parameters: params,
        needsApproval: true,
        execute: ({ target }) => ran.push(`deploy ${target}`) && 'deployed',
      }),
      tool({
        name: 'remove',
        parameters: params,
        needsApproval: async ({ target }) => !String(target).startsWith('tmp/'),
        execute: ({ target }) => ran.push(`remove ${target}`) && 'removed',
      }),
      tool({ name: 'read', parameters: params, execute: ({ target }) => ran.push(`read ${target}`) && 'contents' }),
    ],
  };
}

/** One step calling `calls`, then an answer that quotes the results it read. */
function model(calls: { id: string; name: string; target: string }[]) {
  return mockModel([
    { toolCalls: calls.map((c) => ({ id: c.id, name: c.name, arguments: { target: c.target } })) },
    (request) => {
      const results = request.messages.filter((m): m is ToolMessage => m.role === 'tool');
      return `results: ${results.map((r) => `${r.toolCallId}=${String(r.content)}`).join(' | ')}`;
    },
  ]);
}

describe('tool approvals in a session', () => {
  it('stops before a call that needs approval, checkpoints, and reports it', async () => {
    const { ran, list } = tools();
    const store = new MemorySessionStore();
    const session = createAgent({
      provider: model([{ id: 'd1', name: 'deploy', target: 'prod' }]),
      tools: list,
    }).session({
      id: 's',
      store,
    });
    const events: AgentEvent[] = [];
    session.on((e) => events.push(e));
    const result = await session.send('ship it');
    expect(result.status).toBe('awaiting_approval');
    expect(result.pendingApprovals).toEqual([{ toolCallId: 'd1', toolName: 'deploy', arguments: { target: 'prod' } }]);
    expect(events.filter((e) => e.type === 'approval.requested')).toEqual([
      expect.objectContaining({ toolCallId: 'd1', toolName: 'deploy', arguments: { target: 'prod' } }),
    ]);
    expect(ran).toEqual([]);
    expect(session.status).toBe('awaiting_approval');
    expect(session.pendingApprovals.map((a) => a.toolCallId)).toEqual(['d1']);
    const reopened = createAgent({ provider: mockModel([]), tools: list }).session({ id: 's', store });
    await reopened.load();
    expect(reopened.status).toBe('awaiting_approval');
  });

  it('rejects send(), compact() and an undecided resume() with LOUSHO_SESSION_AWAITING_APPROVAL', async () => {
    const { list } = tools();
    const session = createAgent({
      provider: model([{ id: 'd1', name: 'deploy', target: 'prod' }]),
      tools: list,
    }).session();
    await session.send('ship it');
    for (const attempt of [() => session.send('next'), () => session.compact(), () => session.resume()]) {
      const error = await rejection(attempt());
      expect(error.code).toBe('LOUSHO_SESSION_AWAITING_APPROVAL');
      expect(error.message).toContain('deploy (d1)');
    }
    expect((await rejection(session.approve('nope'))).code).toBe('LOUSHO_CONFIG_INVALID');
  });

  it('runs an approved call once on resume() and continues the turn', async () => {
    const { ran, list } = tools();
    const session = createAgent({
      provider: model([{ id: 'd1', name: 'deploy', target: 'prod' }]),
      tools: list,
    }).session();
    await session.send('ship it');
    await session.approve('d1');
    expect(session.status).toBe('decided'); // decided, not resumed yet
    const result = await session.resume();
    expect(result.status).toBe('done');
    expect(result.text).toBe('results: d1=deployed');
    expect(ran).toEqual(['deploy prod']);
    expect(session.status).toBe('idle');
  });

  it('gives a rejected call an error result with the reason, and never runs it', async () => {
    const { ran, list } = tools();
    const session = createAgent({
      provider: model([{ id: 'd1', name: 'deploy', target: 'prod' }]),
      tools: list,
    }).session();
    await session.send('ship it');
    await session.reject('d1', { reason: 'freeze until Monday' });
    const result = await session.resume();
    expect(result.text).toContain('d1=Error: this call of deploy was rejected by the user and was not run.');
    expect(result.text).toContain('freeze until Monday');
    expect(ran).toEqual([]);
    expect(result.messages.find((m) => m.role === 'tool')).toMatchObject({ isError: true });
  });

  it('asks by arguments: the calls that need no approval run in the same step, in call order', async () => {
    const { ran, list } = tools();
    const calls = [
      { id: 'r1', name: 'remove', target: 'src/' },
      { id: 'r2', name: 'remove', target: 'tmp/cache' },
      { id: 'x1', name: 'read', target: 'README' },
    ];
    const session = createAgent({ provider: model(calls), tools: list }).session();
    const paused = await session.send('clean up');
    expect(paused.pendingApprovals?.map((a) => a.toolCallId)).toEqual(['r1']);
    expect(ran).toEqual(['remove tmp/cache', 'read README']);
    await session.approve('r1');
    const result = await session.resume();
    expect(ran).toEqual(['remove tmp/cache', 'read README', 'remove src/']);
    expect(result.text).toBe('results: r1=removed | r2=removed | x1=contents');
  });
});

describe('decisions that hold under redelivery', () => {
  const twoCalls = [
    { id: 'd1', name: 'deploy', target: 'prod' },
    { id: 'd2', name: 'deploy', target: 'staging' },
  ];

  it('gives the session the status decided once every waiting call is decided, in every process', async () => {
    const { list } = tools();
    const store = new MemorySessionStore();
    const session = createAgent({ provider: model(twoCalls), tools: list }).session({ id: 's', store });
    await session.send('ship both');
    await session.approve('d1');
    expect(session.status).toBe('awaiting_approval'); // d2 still has no decision
    await session.reject('d2', { reason: 'not today' });
    expect(session.status).toBe('decided');
    const elsewhere = createAgent({ provider: mockModel([]), tools: list }).session({ id: 's', store });
    await elsewhere.load();
    expect(elsewhere.status).toBe('decided');
    expect(elsewhere.pendingApprovals).toEqual([]);
    expect((await rejection(elsewhere.send('next'))).code).toBe('LOUSHO_SESSION_TURN_PENDING');
  });

  it('takes the same decision again as a no-op that saves nothing', async () => {
    const { list } = tools();
    const store = new MemorySessionStore();
    const session = createAgent({ provider: model(twoCalls), tools: list }).session({ id: 's', store });
    await session.send('ship both');
    await session.reject('d2', { reason: 'not today' });
    const saved = (await store.read('s')).version;
    await session.reject('d2', { reason: 'not today' });
    await session.reject('d2');
    expect((await store.read('s')).version).toBe(saved);
  });

  it('refuses a different decision on a decided call with LOUSHO_SESSION_DECISION_FINAL and changes nothing', async () => {
    const { ran, list } = tools();
    const store = new MemorySessionStore();
    const session = createAgent({ provider: model(twoCalls), tools: list }).session({ id: 's', store });
    await session.send('ship both');
    await session.approve('d1');
    await session.reject('d2', { reason: 'not today' });
    const saved = (await store.read('s')).version;
    const flipped = await rejection(session.approve('d2'));
    expect(flipped.code).toBe('LOUSHO_SESSION_DECISION_FINAL');
    expect(flipped.message).toContain("'d2' was already rejected");
    expect(flipped.details).toMatchObject({ toolCallId: 'd2', approved: false, reason: 'not today' });
    expect((await rejection(session.reject('d1'))).code).toBe('LOUSHO_SESSION_DECISION_FINAL');
    expect((await store.read('s')).version).toBe(saved);
    const result = await session.resume();
    expect(ran).toEqual(['deploy prod']);
    expect(result.text).toContain('not today');
  });

  it('keeps a decision final after the turn resumed: a redelivered approval runs nothing again', async () => {
    const { ran, list } = tools();
    const store = new MemorySessionStore();
    const session = createAgent({ provider: model(twoCalls.slice(0, 1)), tools: list }).session({ id: 's', store });
    await session.send('ship it');
    await session.approve('d1');
    await session.resume();
    const saved = (await store.read('s')).version;
    await session.approve('d1'); // the webhook again
    expect((await rejection(session.reject('d1'))).code).toBe('LOUSHO_SESSION_DECISION_FINAL');
    expect((await rejection(session.resume())).code).toBe('LOUSHO_SESSION_IDLE');
    expect((await store.read('s')).version).toBe(saved);
    expect(ran).toEqual(['deploy prod']);
  });

  it('routes 20 sessions by status to the end: none goes back to the approver', async () => {
    const { ran, list } = tools();
    const store = new MemorySessionStore();
    const agent = createAgent({
      provider: mockModel((r) =>
        r.messages.at(-1)?.role === 'tool'
          ? 'done'
          : { toolCalls: [{ id: `d-${r.messages.length}`, name: 'deploy', arguments: { target: 'x' } }] },
      ),
      tools: list,
    });
    const ids = Array.from({ length: 20 }, (_, i) => `s${i}`);
    for (const id of ids) await agent.session({ id, store }).send('ship');
    let approverVisits = 0;
    for (let round = 0; round < 5; round++) {
      for (const id of ids) {
        const session = agent.session({ id, store });
        await session.load();
        if (session.status === 'awaiting_approval') {
          approverVisits++;
          for (const call of session.pendingApprovals) await session.approve(call.toolCallId);
        } else if (session.status === 'decided' || session.status === 'turn_pending') await session.resume();
      }
    }
    const statuses = await Promise.all(
      ids.map(async (id) => {
        const s = agent.session({ id, store });
        await s.load();
        return s.status;
      }),
    );
    expect(statuses.filter((s) => s !== 'idle')).toEqual([]);
    expect(approverVisits).toBe(20);
    expect(ran).toHaveLength(20);
  });
});

describe('tool approvals without a session', () => {
  it('pauses agent.send() the same way and continues with agent.send(result.messages, { approvals })', async () => {
    const { ran, list } = tools();
    const agent = createAgent({
      provider: model([
        { id: 'd1', name: 'deploy', target: 'prod' },
        { id: 'd2', name: 'deploy', target: 'staging' },
      ]),
      tools: list,
      instructions: 'Be careful.',
    });
    const paused = await agent.send('ship both');
    expect(paused.status).toBe('awaiting_approval');
    expect(paused.pendingApprovals?.map((a) => a.toolCallId)).toEqual(['d1', 'd2']);
    const result = await agent.send(paused.messages, {
      approvals: { d1: true, d2: { approved: false, reason: 'not today' } },
    });
    expect(result.status).toBe('done');
    expect(ran).toEqual(['deploy prod']);
    expect(result.text).toContain('d1=deployed');
    expect(result.text).toContain('not today');
    expect(result.messages.filter((m) => m.role === 'system')).toHaveLength(1);
  });

  it('pauses again when the continuation leaves a call undecided', async () => {
    const { list } = tools();
    const agent = createAgent({ provider: model([{ id: 'd1', name: 'deploy', target: 'prod' }]), tools: list });
    const paused = await agent.send('ship');
    const again = await agent.send(paused.messages);
    expect(again.status).toBe('awaiting_approval');
    expect(again.pendingApprovals?.map((a) => a.toolCallId)).toEqual(['d1']);
  });
});
