import { afterAll, describe, expect, it } from 'vitest';
import { countingAgent } from '../test-support/counting-agent.js';
import { rejection } from '../test-support/errors.js';
import {
  freshSpec,
  type OpenStore,
  openStore,
  type StoreKind,
  serverProblems,
  skipWhenDown,
} from '../test-support/store-backends.js';
import { listSessions } from './list-sessions.js';

const problems = await serverProblems();
const opened: OpenStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((o) => o.close()));
});

describe.each(['memory', 'file', 'sqlite', 'redis', 'postgres'] as StoreKind[])(
  'listSessions() on the %s store',
  (kind) => {
    skipWhenDown(kind, problems);

    it('names every session with its status and its lease, for a cleanup process', async () => {
      const open = await openStore(await freshSpec(kind));
      opened.push(open);
      const { open: session, store } = countingAgent(open.store);
      await session('idle').send('job');
      const controller = new AbortController();
      const crashed = session('crashed');
      crashed.on((e) => e.type === 'tool.done' && controller.abort());
      await rejection(crashed.send('job', { abortSignal: controller.signal }));
      const waiting = await session('waiting').send('deploy now');
      const decided = session('decided');
      await decided.send('deploy later');
      await decided.approve(decided.pendingApprovals[0]?.toolCallId as string);
      await store.acquire('crashed', 'worker-7', 60_000);
      const listed = (await listSessions(store)).sort((a, b) => a.id.localeCompare(b.id));
      expect(listed.map(({ id, status, holder }) => ({ id, status, holder }))).toEqual([
        { id: 'crashed', status: 'turn_pending', holder: 'worker-7' },
        { id: 'decided', status: 'decided', holder: undefined },
        { id: 'idle', status: 'idle', holder: undefined },
        { id: 'waiting', status: 'awaiting_approval', holder: undefined },
      ]);
      expect(listed[0]?.expiresAt).toBeGreaterThan(Date.now());
      expect(waiting.status).toBe('awaiting_approval');
    });
  },
);
