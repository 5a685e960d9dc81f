/**
 * A child process for the multi-process session tests. Its agent has a scripted model and
 * tools that write "START <id>" / "DONE <id>" to a ledger file (synchronously, so a line is on
 * disk before the tool goes on): `lookup` is idempotent, `write` is not, `deploy` needs approval,
 * `hold` waits for "finish" on stdin. Every save the session makes is printed as "saved".
 *   turns <spec> <id> <total> <ledger>  resumes a pending turn, then sends "turn N" until N = total;
 *                                      each turn takes three steps of lookup + write, then answers.
 *   send <spec> <id> <ledger>           waits for "go", sends "hello" (which holds until "finish"),
 *                                      prints {"outcome":"sent"} or {"outcome":"LOUSHO_..."}.
 *   request <spec> <id> <ledger>        sends "deploy prod"; prints the paused result's status and approvals.
 *   approve <spec> <id> <ledger> <call> approves the call, resumes, prints {"text":...}.
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

const [command, specText, id, ...rest] = process.argv.slice(2) as [string, string, string, ...string[]];
const ledger = (command === 'turns' ? rest[1] : rest[0]) as string;
const input = createInterface({ input: process.stdin });
const heard = new Set<string>();
const waiters = new Map<string, () => void>();
input.on('line', (line) => {
  heard.add(line);
  waiters.get(line)?.();
});
const hear = (line: string) => (heard.has(line) ? Promise.resolve() : new Promise<void>((r) => waiters.set(line, r)));
const print = (value: unknown) => console.log(typeof value === 'string' ? value : JSON.stringify(value));

const params = { type: 'object', properties: { n: { type: 'number' } } } as const;
function ledgered(name: string, options: { idempotent?: boolean; needsApproval?: boolean; hold?: boolean }) {
  const { hold, ...flags } = options;
  return tool({
    name,
    parameters: params,
    ...flags,
    execute: async (_args, { toolCallId }) => {
      appendFileSync(ledger, `START ${toolCallId}\n`);
      if (hold === true) await hear('finish');
      else await new Promise((r) => setTimeout(r, 2 + Math.random() * 12));
      appendFileSync(ledger, `DONE ${toolCallId}\n`);
      return `${name} ${toolCallId} ok`;
    },
  });
}

/** The scripted model: what to do follows from the transcript alone, so any process can continue a turn. */
function script(messages: readonly Message[]) {
  const users = messages.filter((m) => m.role === 'user');
  const turn = users.length;
  const asked = String(users.at(-1)?.content ?? '');
  const since = messages.length - 1 - messages.map((m) => m.role).lastIndexOf('user');
  const step = messages.slice(messages.length - since).filter((m) => m.role === 'assistant').length;
  if (asked.startsWith('deploy'))
    return step === 0 ? { toolCalls: [{ id: `d${turn}`, name: 'deploy' }] } : `deployed (turn ${turn})`;
  if (asked.startsWith('hello')) return step === 0 ? { toolCalls: [{ id: `h${turn}`, name: 'hold' }] } : 'hi';
  if (step >= 3) return `turn ${turn} done`;
  const call = (name: string) => ({ id: `t${turn}s${step}${name[0]}`, name, arguments: { n: step } });
  return { toolCalls: [call('lookup'), call('write')] };
}

/** The store, printing "saved" after every append it acknowledged. */
function announced(store: SessionStore): SessionStore {
  return aroundAppend(store, async (_args, append) => {
    const version = await append();
    print('saved');
    return version;
  });
}

async function main(): Promise<void> {
  const { store, close } = await openStore(JSON.parse(specText) as StoreSpec);
  const agent = createAgent({
    provider: mockModel((request) => script(request.messages)),
    tools: [
      ledgered('lookup', { idempotent: true }),
      ledgered('write', {}),
      ledgered('deploy', { needsApproval: true }),
      ledgered('hold', { hold: true }),
    ],
  });
  const session = agent.session({ id, store: announced(store), leaseMs: 5_000 });
  if (command === 'turns') {
    await session.load();
    if (session.status === 'turn_pending') await session.resume();
    while (session.messages.filter((m) => m.role === 'user').length < Number(rest[0])) {
      await session.send(`turn ${session.messages.filter((m) => m.role === 'user').length + 1}`);
    }
    print('finished');
  } else if (command === 'send') {
    await hear('go');
    const outcome = await session.send(`hello from ${process.pid}`).then(
      () => 'sent',
      (error: unknown) => (LoushoError.isInstance(error) ? error.code : String(error)),
    );
    print({ outcome });
  } else if (command === 'request') {
    const result = await session.send('deploy prod');
    print({ status: result.status, pendingApprovals: result.pendingApprovals, sessionStatus: session.status });
  } else if (command === 'approve') {
    await session.load();
    await session.approve(rest[1] as string);
    print({ text: (await session.resume()).text });
  }
  await close();
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
