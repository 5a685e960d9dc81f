import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import { tool } from '../executor/tool.js';
import { rejection, thrown } from '../test-support/errors.js';
import { mockModel } from '../testing/mock-model.js';
import { thisProcess } from './process-identity.js';
import { encodeEntry } from './records.js';
import { MemorySessionStore } from './store.js';

/** A tool that waits until the test lets it finish. */
function gate() {
  let open: () => void = () => {};
  let entered: () => void = () => {};
  const opened = new Promise<void>((r) => {
    open = r;
  });
  const started = new Promise<void>((r) => {
    entered = r;
  });
  const wait = tool({
    name: 'wait',
    parameters: { type: 'object' },
    execute: async () => {
      entered();
      await opened;
      return 'waited';
    },
  });
  return { tool: wait, open, started };
}

const callsWait = () => mockModel([{ toolCalls: [{ id: 'w1', name: 'wait' }] }, 'done']);

/** Waits (polling) until `check` holds; what is asserted is the outcome, never the time. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the condition never held');
}

describe('one writer per session', () => {
  it('rejects a second writer with LOUSHO_SESSION_BUSY while a turn holds the lease, and loses no turn', async () => {
    const store = new MemorySessionStore();
    const { tool: wait, open, started } = gate();
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [{ id: 'w1', name: 'wait' }] }, 'first', 'second']),
      tools: [wait],
    });
    const a = agent.session({ id: 's', store });
    const b = agent.session({ id: 's', store });
    const turn = a.send('one');
    await started;
    const busy = await rejection(b.send('two'));
    expect(busy.code).toBe('LOUSHO_SESSION_BUSY');
    expect(busy.message).toContain('another writer');
    expect((await rejection(b.compact())).code).toBe('LOUSHO_SESSION_BUSY');
    open();
    await turn;
    await b.send('two');
    expect(b.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['one', 'two']);
  });

  it('fails a writer whose session changed under it with LOUSHO_SESSION_CONFLICT, and keeps the other write', async () => {
    const store = new MemorySessionStore();
    const { tool: wait, open, started } = gate();
    const session = createAgent({ provider: callsWait(), tools: [wait] }).session({ id: 's', store });
    const turn = session.send('go');
    await started;
    const { version } = await store.read('s');
    const foreign = encodeEntry([{ type: 'messages', messages: [{ role: 'user', content: 'from elsewhere' }] }]);
    await store.append('s', foreign, version);
    open();
    const error = await rejection(turn);
    expect(error.code).toBe('LOUSHO_SESSION_CONFLICT');
    expect((await store.read('s')).entries.at(-1)).toBe(foreign);
  });

  it("gives a lost writer's in-flight tool the abort signal and rejects its turn with LOUSHO_SESSION_CONFLICT, saving nothing more", async () => {
    let refused: () => void = () => {};
    const renewRefused = new Promise<void>((done) => {
      refused = done;
    });
    class Watched extends MemorySessionStore {
      override async renew(id: string, holder: string, ttlMs: number): Promise<boolean> {
        const ok = await super.renew(id, holder, ttlMs);
        if (!ok) refused();
        return ok;
      }
    }
    const store = new Watched();
    let signalled: unknown;
    let entered: () => void = () => {};
    const started = new Promise<void>((r) => {
      entered = r;
    });
    const listens = tool({
      name: 'wait',
      parameters: { type: 'object' },
      execute: (_args, { abortSignal }) =>
        new Promise((_resolve, reject) => {
          abortSignal?.addEventListener('abort', () => {
            signalled = abortSignal.reason;
            reject(abortSignal.reason);
          });
          entered();
        }),
    });
    const session = createAgent({ provider: callsWait(), tools: [listens] }).session({ id: 's', store, leaseMs: 60 });
    const turn = session.send('go');
    await started;
    const before = (await store.read('s')).entries;
    // Another process judged this writer dead and took the session over.
    const current = await store.acquire('s', 'thief', 60_000);
    expect((await store.acquire('s', 'thief', 60_000, current.holder)).acquired).toBe(true);
    await renewRefused;
    const error = await rejection(turn);
    expect(error.code).toBe('LOUSHO_SESSION_CONFLICT');
    expect(error.message).toContain('lost its lease');
    expect((signalled as { code?: string } | undefined)?.code).toBe('LOUSHO_SESSION_CONFLICT');
    expect((await store.read('s')).entries).toEqual(before);
  });

  it('starts no tool call once its lease ran out and another writer took the session over, in each of 40 trials', async () => {
    let starts = 0;
    let abandoned = 0;
    for (let trial = 0; trial < 40; trial++) {
      // The writer's renewals stall (a pause, a store that does not answer) while its model call runs.
      let stalled = false;
      let unstall: () => void = () => {};
      class Stalling extends MemorySessionStore {
        override async renew(id: string, holder: string, ttlMs: number): Promise<boolean> {
          if (stalled) await new Promise<void>((r) => (unstall = r));
          return super.renew(id, holder, ttlMs);
        }
      }
      const store = new Stalling();
      let reply: () => void = () => {};
      const inner = mockModel([{ toolCalls: [{ id: 'w1', name: 'write' }] }, 'done']);
      const gated: LLMProvider = {
        provider: 'test',
        modelId: 'gated',
        generate: async (request) => {
          await new Promise<void>((r) => (reply = r));
          return inner.generate(request);
        },
        async *stream(request) {
          await new Promise<void>((r) => (reply = r));
          yield* inner.stream(request);
        },
      };
      const write = tool({ name: 'write', parameters: { type: 'object' }, execute: () => ++starts && 'written' });
      const a = createAgent({ provider: gated, tools: [write] }).session({ id: 's', store, leaseMs: 40 });
      const turn = a.send('go');
      await eventually(async () => (await store.read('s')).entries.length > 0);
      stalled = true;
      // The other writer takes the session once the lease ran out by the store's clock, and writes.
      await eventually(async () => (await store.acquire('s', 'other', 60_000)).acquired);
      const { version } = await store.read('s');
      await store.append('s', encodeEntry([{ type: 'turn.done' }]), version);
      if (trial % 2 === 1) await store.release('s', 'other'); // gone again: the lease is free, the log is not the same
      stalled = false;
      unstall();
      reply(); // the model answers with a tool call
      const error = await rejection(turn);
      expect(error.code, `trial ${trial}`).toBe('LOUSHO_SESSION_CONFLICT');
      abandoned++;
    }
    expect(starts).toBe(0);
    expect(abandoned).toBe(40);
  }, 120_000); // 40 trials, each waiting out a lease and a takeover

  it('gives its lease back only after a renewal in flight, so the next writer gets the session at once', async () => {
    let slow = false;
    let renewing: () => void = () => {};
    const inFlight = new Promise<void>((r) => {
      renewing = r;
    });
    let finish: () => void = () => {};
    const finished = new Promise<void>((r) => {
      finish = r;
    });
    class SlowRenewal extends MemorySessionStore {
      override async renew(id: string, holder: string, ttlMs: number): Promise<boolean> {
        if (slow) {
          slow = false;
          renewing();
          setTimeout(finish, 200); // or a while later, when the release waits for it
          await finished;
        }
        return super.renew(id, holder, ttlMs);
      }
      override async release(id: string, holder: string): Promise<void> {
        await super.release(id, holder);
        finish(); // a release that did not wait for the renewal lets it land now
      }
    }
    const store = new SlowRenewal();
    const wait = tool({
      name: 'wait',
      parameters: { type: 'object' },
      execute: async () => {
        slow = true;
        await inFlight;
        return 'waited';
      },
    });
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [{ name: 'wait' }] }, 'one', 'two']),
      tools: [wait],
    });
    await agent.session({ id: 's', store, leaseMs: 60 }).send('first');
    const next = await agent.session({ id: 's', store }).send('second');
    expect(next.text).toBe('two');
  });

  it('lets resume() take over a turn whose writer stopped renewing, once its lease runs out', async () => {
    const store = new MemorySessionStore();
    const agent = createAgent({ provider: mockModel([new Error('down'), 'recovered']) });
    const first = agent.session({ id: 's', store });
    await rejection(first.send('go'));
    await store.acquire('s', 'other-host:4242:abcd', 200); // a writer elsewhere that died
    const second = agent.session({ id: 's', store });
    expect((await rejection(second.resume())).code).toBe('LOUSHO_SESSION_BUSY');
    let text = '';
    await eventually(() =>
      second.resume().then(
        (result) => {
          text = result.text;
          return true;
        },
        (error: { code?: string }) => (error.code === 'LOUSHO_SESSION_BUSY' ? false : Promise.reject(error)),
      ),
    );
    expect(text).toBe('recovered');
  });

  it('takes over at once a lease whose holder was a process of this machine that is gone', async () => {
    const store = new MemorySessionStore();
    const agent = createAgent({ provider: mockModel([new Error('down'), 'recovered']) });
    await rejection(agent.session({ id: 's', store }).send('go'));
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((done) => child.on('exit', done));
    const me = thisProcess();
    await store.acquire('s', `${me.host}:${me.boot}:${me.pidNamespace}:${child.pid}:dead`, 600_000);
    expect((await agent.session({ id: 's', store }).resume()).text).toBe('recovered');
  });

  it('never takes over at once a holder of this host in another PID namespace or of the old id form', async () => {
    const store = new MemorySessionStore();
    const agent = createAgent({ provider: mockModel([new Error('down'), 'recovered']) });
    await rejection(agent.session({ id: 's', store }).send('go'));
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((done) => child.on('exit', done));
    const me = thisProcess();
    for (const holder of [
      `${me.host}:${me.boot}:${Number(me.pidNamespace) + 1}:${child.pid}:live`, // a container with host networking
      `${me.host}:00000000-0000-0000-0000-000000000000:${me.pidNamespace}:${child.pid}:live`, // another boot
      `${me.host}:${child.pid}:old`,
    ]) {
      await store.acquire('s', holder, 600_000, (await store.acquire('s', 'x', 1)).holder);
      expect((await rejection(agent.session({ id: 's', store }).resume())).code, holder).toBe('LOUSHO_SESSION_BUSY');
    }
  });
});

describe('agent.session() options', () => {
  it('rejects a store that is not a SessionStore (such as one written for the old load/save contract)', () => {
    const agent = createAgent({ provider: mockModel([]) });
    const old = { load: async () => undefined, save: async () => {}, delete: async () => {} };
    const error = thrown(() => agent.session({ store: old as never }));
    expect(error.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(error.message).toContain('read, append, acquire, renew, release');
    expect(() => agent.session({ id: '' })).toThrow(expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }));
    expect(() => agent.session({ leaseMs: 5 })).toThrow(expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }));
  });
});
