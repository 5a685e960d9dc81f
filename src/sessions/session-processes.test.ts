import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { Message, ToolMessage } from '../messages/types.js';
import { findPairingProblem } from '../messages/validate.js';
import { Child } from '../test-support/child-process.js';
import {
  freshSpecs,
  type OpenStore,
  openStore,
  reportSkippedStores,
  serverProblems,
} from '../test-support/store-backends.js';
import { mockModel } from '../testing/mock-model.js';
import type { SessionStore } from './store.js';

/**
 * Sessions shared by processes, on every store that outlives one (the memory store is one
 * process's; its in-process tests are session-*.test.ts). The children run
 * src/test-support/session-worker.ts.
 */
const STORES = await Promise.all(
  (await freshSpecs({ withMemory: false })).map(async (spec) => [spec.kind, spec, await openStore(spec)] as const),
);
const opened: OpenStore[] = STORES.map(([, , open]) => open);
afterAll(async () => {
  await Promise.all(opened.map((o) => o.close()));
});

const KILLS = 20;
const saved = (line: string) => line === 'saved';

async function ledgerLines(path: string): Promise<string[]> {
  return (await readFile(path, 'utf8').catch(() => '')).split('\n').filter((l) => l !== '');
}

/** What a new process sees of the session (it must replay whatever a kill left). */
async function reopen(store: SessionStore, id: string) {
  const session = createAgent({ provider: mockModel([]) }).session({ id, store });
  await session.load();
  return session;
}

/** Every result answers an earlier call of its step, once; only the last step may still lack results. */
function checkResults(messages: readonly Message[]): void {
  const called = new Set<string>();
  const answered = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) called.add(c.id);
    if (m.role === 'tool') {
      expect(called.has(m.toolCallId), `result of ${m.toolCallId} follows its call`).toBe(true);
      expect(answered.has(m.toolCallId), `one result for ${m.toolCallId}`).toBe(false);
      answered.add(m.toolCallId);
    }
  }
}

describe.each(STORES)('%s store: sessions across processes', (_kind, spec, { store }) => {
  const specText = JSON.stringify(spec);

  it(`survives ${KILLS} SIGKILLs at random points of multi-step turns: no saved step lost, no finished call run twice`, async () => {
    const id = `killed-${process.pid}`;
    const ledger = join(await mkdtemp(join(tmpdir(), 'lousho-ledger-')), 'ledger');
    await writeFile(ledger, '');
    let pendingSeen = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const before = (await store.read(id)).entries.length;
      const finishedBefore = new Set(
        (await reopen(store, id)).messages.filter((m): m is ToolMessage => m.role === 'tool').map((m) => m.toolCallId),
      );
      const ledgerBefore = (await ledgerLines(ledger)).length;
      const child = await Child.start('session-worker.ts', ['turns', specText, id, '100000', ledger]);
      const wait = 1 + Math.floor(Math.random() * 10);
      await child.count(saved, wait);
      await new Promise((r) => setTimeout(r, Math.random() * 8)); // land between saves too
      await child.kill();
      const acknowledged = child.lines.filter(saved).length;
      expect((await store.read(id)).entries.length, `kill ${kill}: acknowledged saves kept`).toBeGreaterThanOrEqual(
        before + acknowledged,
      );
      const session = await reopen(store, id);
      if (session.status === 'turn_pending') pendingSeen++;
      checkResults(session.messages);
      const started = (await ledgerLines(ledger)).slice(ledgerBefore).filter((l) => l.startsWith('START '));
      for (const line of started)
        expect(finishedBefore.has(line.slice(6)), `${line} after its result was saved`).toBe(false);
    }
    expect(pendingSeen, 'kills that landed inside a turn').toBeGreaterThan(0);

    const users = (await reopen(store, id)).messages.filter((m) => m.role === 'user').length;
    const last = await Child.start('session-worker.ts', ['turns', specText, id, String(users + 1), ledger]);
    await last.finished();
    const session = await reopen(store, id);
    expect(session.status).toBe('idle');
    expect(findPairingProblem(session.messages)).toBeUndefined();
    checkResults(session.messages);
    const answers = session.messages.filter((m) => m.role === 'assistant' && (m.toolCalls ?? []).length === 0);
    expect(answers.map((m) => m.content)).toEqual(Array.from({ length: users + 1 }, (_, i) => `turn ${i + 1} done`));
    const starts = (await ledgerLines(ledger)).filter((l) => /^START t\d+s\d+w$/.test(l));
    expect(new Set(starts).size, 'a write (not idempotent) never starts twice').toBe(starts.length);
    const interrupted = session.messages.filter((m) => m.role === 'tool' && String(m.content).includes('interrupted'));
    for (const m of interrupted) expect((m as ToolMessage).toolCallId).toMatch(/w$/);
  }, 300_000); // about 22 child processes, each starting Node

  it('lets one of two processes sending at once run its turn; the other gets LOUSHO_SESSION_BUSY', async () => {
    const id = `senders-${process.pid}`;
    const ledger = join(await mkdtemp(join(tmpdir(), 'lousho-ledger-')), 'ledger');
    const children = await Promise.all(
      [1, 2].map(() => Child.start('session-worker.ts', ['send', specText, id, ledger])),
    );
    for (const child of children) child.send('go');
    const loser = await Promise.race(children.map((c) => c.line((l) => l.startsWith('{"outcome"')).then(() => c)));
    for (const child of children) child.send('finish');
    await Promise.all(children.map((c) => c.finished()));
    const outcomes = children.map((c) => JSON.parse(c.lines.find((l) => l.startsWith('{"outcome"')) as string).outcome);
    expect(outcomes.sort()).toEqual(['LOUSHO_SESSION_BUSY', 'sent']);
    expect(JSON.parse(loser.lines.find((l) => l.startsWith('{')) as string).outcome).toBe('LOUSHO_SESSION_BUSY');
    const session = await reopen(store, id);
    expect(session.status).toBe('idle');
    expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  }, 120_000);

  it('requests an approval in one process, and approves and resumes it in another', async () => {
    const id = `approval-${process.pid}`;
    const ledger = join(await mkdtemp(join(tmpdir(), 'lousho-ledger-')), 'ledger');
    const requester = await Child.start('session-worker.ts', ['request', specText, id, ledger]);
    await requester.finished();
    const paused = JSON.parse(requester.lines.find((l) => l.startsWith('{')) as string);
    expect(paused).toEqual({
      status: 'awaiting_approval',
      sessionStatus: 'awaiting_approval',
      pendingApprovals: [{ toolCallId: 'd1', toolName: 'deploy', arguments: {} }],
    });
    expect(await ledgerLines(ledger)).toEqual([]);
    expect((await reopen(store, id)).status).toBe('awaiting_approval');
    const approver = await Child.start('session-worker.ts', ['approve', specText, id, ledger, 'd1']);
    await approver.finished();
    expect(JSON.parse(approver.lines.find((l) => l.startsWith('{')) as string)).toEqual({ text: 'deployed (turn 1)' });
    expect(await ledgerLines(ledger)).toEqual(['START d1', 'DONE d1']);
    expect((await reopen(store, id)).status).toBe('idle');
  }, 120_000);
});

reportSkippedStores('store: sessions across processes', await serverProblems());
