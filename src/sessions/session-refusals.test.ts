import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { countingAgent } from '../test-support/counting-agent.js';
import { rejection } from '../test-support/errors.js';
import { freshSpecs, type OpenStore, openStore } from '../test-support/store-backends.js';
import { SessionLog } from './session-log.js';
import type { SessionStore } from './store.js';

/**
 * A refused operation leaves the session's log byte for byte as it was: every refusal of send(),
 * resume(), approve() and reject() is decided before anything is saved. On every store this
 * machine runs.
 */
const opened: OpenStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((o) => o.close()));
});
const specs = await freshSpecs({ withMemory: true });

const orphan: Message = { role: 'tool', toolCallId: 'nobody', toolName: 'work', content: 'a result of no call' };

/** The log exactly as the store holds it: its entries and version. */
const snapshot = async (store: SessionStore, id: string) => JSON.stringify(await store.read(id));

describe.each(specs.map((spec) => [spec.kind, spec] as const))('%s store: a refusal writes nothing', (_kind, spec) => {
  const setup = async () => {
    const open = await openStore(spec);
    opened.push(open);
    return { ...countingAgent(open.store), sid: `r-${Math.random().toString(36).slice(2, 10)}` };
  };

  /** Runs `refused`, expects the code, and that the log did not change. */
  const refusedWithNothingWritten = async (
    store: SessionStore,
    id: string,
    code: string,
    refused: () => Promise<unknown>,
  ) => {
    const before = await snapshot(store, id);
    expect((await rejection(refused())).code).toBe(code);
    expect(await snapshot(store, id)).toBe(before);
  };

  it('send() on a stored transcript that holds an orphan tool result (LOUSHO_MESSAGE_INVALID)', async () => {
    const { store, open, sid } = await setup();
    const writer = new SessionLog(store, sid, () => '');
    await writer.append([{ type: 'messages', messages: [{ role: 'user', content: 'hi' }, orphan] }], { step: 0 });
    await refusedWithNothingWritten(store, sid, 'LOUSHO_MESSAGE_INVALID', () => open(sid).send('next'));
  });

  it('send() of a malformed message, or with a bad idempotencyKey (LOUSHO_MESSAGE_INVALID, LOUSHO_CONFIG_INVALID)', async () => {
    const { store, open, sid } = await setup();
    await open(sid).send('first');
    const bad = { role: 'user', content: 42 } as unknown as Message;
    await refusedWithNothingWritten(store, sid, 'LOUSHO_MESSAGE_INVALID', () => open(sid).send(bad));
    await refusedWithNothingWritten(store, sid, 'LOUSHO_CONFIG_INVALID', () =>
      open(sid).send('x', { idempotencyKey: '' }),
    );
  });

  it('send() while a turn waits for approval, is decided, or did not finish (its key seen again too)', async () => {
    const { store, open, sid } = await setup();
    const paused = await open(sid).send('deploy it', { idempotencyKey: 'k1' });
    const call = paused.pendingApprovals?.[0]?.toolCallId as string;
    await refusedWithNothingWritten(store, sid, 'LOUSHO_SESSION_AWAITING_APPROVAL', () => open(sid).send('more'));
    await refusedWithNothingWritten(store, sid, 'LOUSHO_SESSION_AWAITING_APPROVAL', () =>
      open(sid).send('deploy it', { idempotencyKey: 'k1' }),
    );
    await open(sid).approve(call);
    await refusedWithNothingWritten(store, sid, 'LOUSHO_SESSION_TURN_PENDING', () => open(sid).send('more'));
    const crashed = `${sid}-crashed`;
    const controller = new AbortController();
    const session = open(crashed);
    session.on((e) => e.type === 'tool.done' && controller.abort());
    await rejection(session.send('job', { abortSignal: controller.signal }));
    await refusedWithNothingWritten(store, crashed, 'LOUSHO_SESSION_TURN_PENDING', () => open(crashed).send('more'));
  });

  it('resume() with nothing to resume, with a call undecided, and on a transcript that holds an orphan result', async () => {
    const { store, open, sid } = await setup();
    await open(sid).send('first');
    await refusedWithNothingWritten(store, sid, 'LOUSHO_SESSION_IDLE', () => open(sid).resume());
    const waiting = `${sid}-waiting`;
    await open(waiting).send('deploy it');
    await refusedWithNothingWritten(store, waiting, 'LOUSHO_SESSION_AWAITING_APPROVAL', () => open(waiting).resume());
    // A turn whose call was running when its process died (resume() would give it an error result),
    // on a transcript that no provider takes.
    const broken = `${sid}-broken`;
    const writer = new SessionLog(store, broken, () => '');
    const call = { id: 'c1', name: 'work', arguments: {} };
    await writer.append([
      { type: 'messages', messages: [{ role: 'user', content: 'hi' }, orphan] },
      { type: 'turn.start', turn: 1 },
      { type: 'messages', messages: [{ role: 'assistant', content: '', toolCalls: [call] }] },
      { type: 'tools.running', toolCallIds: ['c1'] },
    ]);
    await refusedWithNothingWritten(store, broken, 'LOUSHO_MESSAGE_INVALID', () => open(broken).resume());
  });

  it('approve() and reject() of a call that does not wait, the other decision, and the same one again', async () => {
    const { store, open, sid } = await setup();
    const paused = await open(sid).send('deploy it');
    const call = paused.pendingApprovals?.[0]?.toolCallId as string;
    await refusedWithNothingWritten(store, sid, 'LOUSHO_CONFIG_INVALID', () => open(sid).approve('no-such-call'));
    await open(sid).approve(call);
    await refusedWithNothingWritten(store, sid, 'LOUSHO_SESSION_DECISION_FINAL', () => open(sid).reject(call));
    const before = await snapshot(store, sid);
    await open(sid).approve(call); // a no-op, not a refusal: it saves nothing either
    expect(await snapshot(store, sid)).toBe(before);
  });
});
