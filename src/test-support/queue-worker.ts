/**
 * A worker process for the queue tests and the workers bench: serves sessions from a BullMQ or
 * pg-boss queue (argv[2], JSON: QueueWorkerConfig). Its agent's turn on "work <session>" first
 * calls `deploy` (needs approval), then `steps` - 1 steps of `lookup` (idempotent) + `write`
 * (not), then answers "done <session>" (with `steps` 0, it answers at once). Every tool run writes "START <callId>" / "DONE <callId>"
 * to the ledger before and after it works. It prints "saved <session>" after every save, "taken <session>"
 * when it took a session's lease over from a dead holder, "waiting <session>
 * <callId>" when a session rests for approval, and "idle <session> <action>" when a turn ended.
 */
import { appendFileSync } from 'node:fs';
import { createAgent } from '../agent/create-agent.js';
import { tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';
import type { SessionStore } from '../sessions/store.js';
import { mockModel } from '../testing/mock-model.js';
import { aroundAppend } from './around-append.js';
import { openStore, type StoreSpec } from './open-store.js';

/** How a queue worker process is set up. */
export interface QueueWorkerConfig {
  engine: 'bullmq' | 'pg-boss';
  queueName: string;
  /** BullMQ: the Redis URL and key prefix. */
  redisUrl?: string;
  prefix?: string;
  /** pg-boss: the Postgres URL and schema. */
  pgUrl?: string;
  schema?: string;
  store: StoreSpec;
  ledger: string;
  steps: number;
  leaseMs: number;
  /** BullMQ lock / pg-boss expiry, in ms (the engine's default, 30 s / 60 s, when absent). */
  jobTimeoutMs?: number;
  concurrency: number;
  /** How long each model reply and each tool run take, in ms: a random time between the two (0, 0 and 1, 5 when absent). */
  modelMs?: [number, number];
  toolMs?: [number, number];
}

const between = ([min, max]: [number, number]) => min + Math.random() * (max - min);

/** The scripted turn: what to do follows from the transcript alone, so any process can continue it. */
export function queueTurnScript(steps: number) {
  return (messages: readonly Message[]) => {
    const asked = String(messages.findLast((m) => m.role === 'user')?.content ?? '');
    const sid = asked.replace(/^work /, '');
    const since = messages.length - 1 - messages.map((m) => m.role).lastIndexOf('user');
    const step = messages.slice(messages.length - since).filter((m) => m.role === 'assistant').length;
    if (steps === 0) return `done ${sid}`; // a trivial turn: one reply, no tool
    if (step === 0) return { toolCalls: [{ id: `${sid}.deploy`, name: 'deploy', arguments: { n: 0 } }] };
    if (step >= steps) return `done ${sid}`;
    const call = (name: string) => ({ id: `${sid}.s${step}.${name}`, name, arguments: { n: step } });
    return { toolCalls: [call('lookup'), call('write')] };
  };
}

const print = (line: string) => process.stdout.write(`${line}\n`);

/** The store, printing "saved <session>" after each save and "taken <session>" when a lease is taken over from a dead holder. */
function announced(store: SessionStore): SessionStore {
  const saving = aroundAppend(store, async (args, append) => {
    const version = await append();
    print(`saved ${args[0]}`);
    return version;
  });
  return new Proxy(saving, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key !== 'acquire' || typeof value !== 'function')
        return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<SessionStore['acquire']>) => {
        const lease = await target.acquire(...args);
        if (lease.acquired && args[3] !== undefined) print(`taken ${args[0]}`);
        return lease;
      };
    },
  });
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] as string) as QueueWorkerConfig;
  const { store } = await openStore(config.store);
  const ledgered = (name: string, flags: { idempotent?: boolean; needsApproval?: boolean }) =>
    tool({
      name,
      parameters: { type: 'object', properties: { n: { type: 'number' } } },
      ...flags,
      execute: async (_args, { toolCallId }) => {
        appendFileSync(config.ledger, `START ${toolCallId}\n`);
        await new Promise((r) => setTimeout(r, between(config.toolMs ?? [1, 5])));
        appendFileSync(config.ledger, `DONE ${toolCallId}\n`);
        return `${name} ok`;
      },
    });
  const agent = createAgent({
    provider: mockModel((request) => {
      const step = queueTurnScript(config.steps)(request.messages);
      const delayMs = between(config.modelMs ?? [0, 0]);
      return typeof step === 'string' ? { text: step, delayMs } : { ...step, delayMs };
    }),
    tools: [
      ledgered('deploy', { needsApproval: true }),
      ledgered('lookup', { idempotent: true }),
      ledgered('write', {}),
    ],
  });
  const watched = announced(store);
  const options = {
    queueName: config.queueName,
    session: (id: string) => agent.session({ id, store: watched, leaseMs: config.leaseMs }),
    onDriven: ({
      sessionId,
      outcome,
    }: {
      sessionId: string;
      outcome: import('../sessions/drive-session.js').DriveSessionResult;
    }) => {
      if (outcome.status === 'awaiting_approval') {
        for (const call of outcome.pendingApprovals) print(`waiting ${sessionId} ${call.toolCallId}`);
      } else print(`idle ${sessionId} ${outcome.action}`);
    },
  };
  if (config.engine === 'bullmq') {
    const { bullmqSessionQueue } = await import('../integrations/bullmq-worker.js');
    const queue = await bullmqSessionQueue({
      ...options,
      connection: { url: config.redisUrl as string, maxRetriesPerRequest: null },
      prefix: config.prefix as string,
      ...(config.jobTimeoutMs === undefined
        ? {}
        : {
            lockDurationMs: config.jobTimeoutMs,
            stalledIntervalMs: Math.max(500, Math.floor(config.jobTimeoutMs / 2)),
          }),
      backoffMs: 200,
    });
    queue.work({ concurrency: config.concurrency });
  } else {
    const { pgBossSessionQueue } = await import('../integrations/pg-boss-worker.js');
    const queue = await pgBossSessionQueue({
      ...options,
      connection: config.pgUrl as string,
      schema: config.schema as string,
      ...(config.jobTimeoutMs === undefined
        ? {}
        : { expireInSeconds: Math.max(1, Math.round(config.jobTimeoutMs / 1000)) }),
      maintenanceIntervalSeconds: 1,
      maxConnections: 3, // 8 workers share a server with max_connections 100 (and with other clients)
    });
    await queue.work({ concurrency: config.concurrency, pollingIntervalSeconds: 0.5 });
  }
  print('ready');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
