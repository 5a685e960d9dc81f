/**
 * A worker process for the store-restart tests (store-restart.test.ts). It opens its store as
 * a user would: a Redis store on `new Redis(url)` with no 'error' listener of its own, or a
 * PostgresSessionStore on a connection string; an unhandled 'error' event ends it.
 *   turn <redis|postgres> <url> <id> <ledger>  sends "work": `hold` h1, `hold` h2, then "done";
 *       each `hold` prints "holding <call>" and waits for "go" on stdin. When the turn fails,
 *       it prints {"outcome":"<code>"} and resumes until the turn ends (as a queue would retry the
 *       job), then {"outcome":"done"}; "saved <version>" after every acknowledged save.
 *   idle <postgres> <url> <id> <ledger>        runs a short turn, prints "idle", waits for "next",
 *       then drives five turns as a queue's jobs would (a failed delivery is delivered again, 200 ms
 *       later), printing the outcome of each delivery.
 * Then prints "alive" and exits 0 on "exit".
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { createAgent } from '../agent/create-agent.js';
import { LoushoError } from '../errors/lousho-error.js';
import { tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';
import { driveSession } from '../sessions/drive-session.js';
import { KVSessionStore } from '../sessions/kv-store.js';
import { PostgresSessionStore } from '../sessions/postgres-store.js';
import type { SessionStore } from '../sessions/store.js';
import { mockModel } from '../testing/mock-model.js';
import { aroundAppend } from './around-append.js';

const [command, kind, url, id, ledger] = process.argv.slice(2) as [string, string, string, string, string];
const print = (value: unknown) => console.log(typeof value === 'string' ? value : JSON.stringify(value));
const lines: string[] = [];
const waiting: (() => void)[] = [];
createInterface({ input: process.stdin }).on('line', (line) => {
  lines.push(line);
  for (const wake of waiting.splice(0)) wake();
});
/** Waits for the next `line` not yet used. */
async function hear(line: string): Promise<void> {
  for (;;) {
    const at = lines.indexOf(line);
    if (at >= 0) {
      lines.splice(at, 1);
      return;
    }
    await new Promise<void>((wake) => waiting.push(wake));
  }
}

function script(messages: readonly Message[]) {
  const last = messages.at(-1);
  if (last?.role === 'user') return { toolCalls: [{ id: `h1-${messages.length}`, name: 'hold' }] };
  if (last?.role === 'tool' && last.toolCallId.startsWith('h1-')) {
    return { toolCalls: [{ id: `h2-${messages.length}`, name: 'hold' }] };
  }
  return 'done';
}

const code = (error: unknown) => (LoushoError.isInstance(error) ? error.code : `untyped ${String(error)}`);

async function main(): Promise<void> {
  const opened: SessionStore =
    kind === 'redis'
      ? new KVSessionStore({ client: new Redis(url) })
      : new PostgresSessionStore({ connectionString: url });
  const store = aroundAppend(opened, async (_args, append) => {
    const version = await append();
    print(`saved ${version}`);
    return version;
  });
  const hold = tool({
    name: 'hold',
    parameters: { type: 'object' },
    execute: async (_args, { toolCallId }) => {
      appendFileSync(ledger, `START ${toolCallId}\n`);
      if (command === 'turn') {
        print(`holding ${toolCallId}`);
        await hear('go');
      }
      return 'held';
    },
  });
  const agent = createAgent({ provider: mockModel((request) => script(request.messages)), tools: [hold] });
  const session = () => agent.session({ id, store, leaseMs: 3_000 });
  if (command === 'turn') {
    let outcome = await session()
      .send('work')
      .then(() => 'done', code);
    print({ outcome });
    while (outcome !== 'done') {
      await new Promise((r) => setTimeout(r, 200));
      outcome = await session()
        .resume()
        .then(() => 'done', code);
      if (outcome === 'done' || outcome.startsWith('untyped')) print({ outcome });
    }
  } else {
    await session().send('warm up');
    print('idle');
    await hear('next');
    for (let n = 0; n < 5; n++) {
      // As a queue's job would: a delivery that failed is delivered again, after a while.
      for (let delivery = 0; delivery < 50; delivery++) {
        const drive = driveSession(session(), { input: `again ${n}`, idempotencyKey: `again-${n}` });
        const outcome = await drive.then(() => 'done', code);
        print({ outcome });
        if (outcome === 'done') break;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }
  print('alive');
  await hear('exit');
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
