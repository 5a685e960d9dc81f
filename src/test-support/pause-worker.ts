/**
 * A child process for the paused-writer tests (pause-cases.ts): one session whose turn calls
 * `hold` (not idempotent), then `write` (not idempotent), then answers "done"; what to do next
 * follows from the transcript, so either process can continue the turn. Every tool run writes
 * "START <role> <call>" and then "DONE" or "ABORTED <role> <call>" (its abort signal fired) to
 * the ledger file. Prints {"outcome":"done"} or {"outcome":"<code>"} when its turn ends.
 *   first <spec> <id> <ledger> <leaseMs> tool    sends "go"; `hold` prints "holding h1" and waits
 *                                                for "release" on stdin or its abort signal.
 *   first <spec> <id> <ledger> <leaseMs> append  sends "go"; `hold` returns at once, and the save of
 *                                                its result prints "appending" and waits for
 *                                                "continue" before it reaches the store.
 *   next <spec> <id> <ledger> <leaseMs> hold|go|quiet  resumes the turn as soon as the lease lets
 *                                                it; with hold, `write` prints "holding w1" and waits
 *                                                for "finish" (or its abort signal); with quiet, it
 *                                                takes the lease and, before its first save reaches
 *                                                the store, prints "holding the lease" and waits for "save".
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createAgent } from '../agent/create-agent.js';
import { LoushoError } from '../errors/lousho-error.js';
import { tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';
import type { SessionStore } from '../sessions/store.js';
import { mockModel } from '../testing/mock-model.js';
import { aroundAppend } from './around-append.js';
import { openStore, type StoreSpec } from './open-store.js';

const [role, specText, id, ledger, leaseMs, mode] = process.argv.slice(2) as [
  'first' | 'next',
  string,
  string,
  string,
  string,
  string,
];
const heard = new Set<string>();
const waiters = new Map<string, () => void>();
createInterface({ input: process.stdin }).on('line', (line) => {
  heard.add(line);
  waiters.get(line)?.();
});
const hear = (line: string) => (heard.has(line) ? Promise.resolve() : new Promise<void>((r) => waiters.set(line, r)));
const print = (value: unknown) => console.log(typeof value === 'string' ? value : JSON.stringify(value));
const note = (line: string) => appendFileSync(ledger, `${line}\n`);

/** Waits for `line` on stdin, or rejects when the signal fires (noting it in the ledger); gives up after 60 s. */
function waitOrAbort(line: string, call: string, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    signal?.addEventListener('abort', () => {
      note(`ABORTED ${role} ${call}`);
      reject(signal.reason);
    });
    void hear(line).then(resolve);
    setTimeout(() => {
      note(`NOT ABORTED ${role} ${call}`);
      resolve();
    }, 60_000).unref();
  });
}

function ledgered(name: string, waitsFor: string | undefined) {
  return tool({
    name,
    parameters: { type: 'object' },
    execute: async (_args, { toolCallId, abortSignal }) => {
      note(`START ${role} ${toolCallId}`);
      if (waitsFor !== undefined) {
        print(`holding ${toolCallId}`);
        await waitOrAbort(waitsFor, toolCallId, abortSignal);
      }
      note(`DONE ${role} ${toolCallId}`);
      return `${name} ok`;
    },
  });
}

function script(messages: readonly Message[]) {
  const last = messages.at(-1);
  if (last?.role === 'tool' && last.toolCallId === 'h1') return { toolCalls: [{ id: 'w1', name: 'write' }] };
  if (last?.role === 'tool' && last.toolCallId === 'w1') return 'done';
  return { toolCalls: [{ id: 'h1', name: 'hold' }] };
}

/** The store, stopping once before the first save that `stopsAt` picks reaches it (printing `say`, waiting for `until`). */
function pausing(store: SessionStore, stopsAt: (entry: string) => boolean, say: string, until: string): SessionStore {
  let paused = false;
  return aroundAppend(store, async ([, entry], append) => {
    if (!paused && stopsAt(entry)) {
      paused = true;
      print(say);
      await hear(until);
    }
    return append();
  });
}

/** The store each role writes through: mode "append" stops the first writer before it saves a tool result, "quiet" the next one before any save. */
function storeOf(store: SessionStore, first: boolean): SessionStore {
  if (first && mode === 'append') return pausing(store, (e) => e.includes('"tool.result"'), 'appending', 'continue');
  if (!first && mode === 'quiet') return pausing(store, () => true, 'holding the lease', 'save');
  return store;
}

async function main(): Promise<void> {
  const { store, close } = await openStore(JSON.parse(specText) as StoreSpec);
  const first = role === 'first';
  const agent = createAgent({
    provider: mockModel((request) => script(request.messages)),
    tools: [
      ledgered('hold', first && mode === 'tool' ? 'release' : undefined),
      ledgered('write', !first && mode === 'hold' ? 'finish' : undefined),
    ],
  });
  const session = agent.session({
    id,
    store: storeOf(store, first),
    leaseMs: Number(leaseMs),
  });
  const code = (error: unknown) => (LoushoError.isInstance(error) ? error.code : String(error));
  let outcome = 'done';
  if (first) {
    outcome = await session.send('go').then(() => 'done', code);
  } else {
    for (;;) {
      const attempt = await session.resume().then(() => 'done', code);
      if (attempt !== 'LOUSHO_SESSION_BUSY') {
        outcome = attempt;
        break;
      }
      await new Promise((r) => setTimeout(r, 25)); // the lease is judged by the store's clock
    }
  }
  print({ outcome });
  await close();
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
