/**
 * Measures what lean mode over an AgentsStoreSession writes to and reads from its store, turn
 * by turn: compactingSession({ mode: 'lean', contextWindow: 128_000, model: 'gpt-4o-mini' })
 * over a MemorySessionStore, each turn the Agents SDK's four items (a question, a call, its
 * 2,000-character result, an answer), then runCompaction(). Prints the turns that wrote a
 * snapshot, the largest entry a turn wrote at a few turns, the bytes the session read from
 * the store in those turns, and what a fresh process reads to open the session at the end.
 * Run: npx tsx scripts/measure-lean-agents-log.ts [TURNS]
 */
import { AgentsStoreSession } from '../src/integrations/agents-store-session.js';
import { compactingSession } from '../src/integrations/compacting-session.js';
import { decodeEntry } from '../src/sessions/records.js';
import { MemorySessionStore } from '../src/sessions/store.js';
import { agentsTurnItems } from '../src/test-support/agents-turn-items.js';
import { countingReads, type StoreRead } from '../src/test-support/long-session.js';

const TURNS = Number(process.argv[2] ?? 300);

const store = new MemorySessionStore();
const reads: StoreRead[] = [];
const inner = new AgentsStoreSession({ store: countingReads(store, reads), sessionId: 'lean' });
const session = compactingSession({ session: inner, model: 'gpt-4o-mini', contextWindow: 128_000, mode: 'lean' });
const rows: { turn: number; entry: number; written: number; read: number; snapshot: boolean }[] = [];
for (let turn = 0; turn < TURNS; turn++) {
  const before = (await store.read('lean')).entries.length;
  reads.length = 0;
  await session.getItems();
  await session.addItems(agentsTurnItems(turn));
  await session.runCompaction();
  const written = (await store.read('lean')).entries.slice(before);
  rows.push({
    turn,
    entry: Math.max(...written.map((e) => Buffer.byteLength(e))),
    written: written.reduce((n, e) => n + Buffer.byteLength(e), 0),
    read: reads.reduce((n, r) => n + r.bytes, 0),
    snapshot: written.some((e) => decodeEntry(e).some((r) => r.type === 'snapshot')),
  });
}
const snapshots = rows.filter((r) => r.snapshot).map((r) => r.turn);
const which = snapshots.length > 0 && snapshots.length <= 30 ? ` (turns ${snapshots.join(', ')})` : '';
console.log(`${TURNS} turns: a snapshot written in ${snapshots.length} of ${TURNS}${which}`);
const mean = (from: number, to: number) => {
  const part = rows.slice(from, to);
  return Math.round(part.reduce((n, r) => n + r.written, 0) / part.length);
};
console.log(
  `bytes written a turn, mean: turns 10-59 ${mean(10, 60)}, the last 50 ${mean(TURNS - 50, TURNS)};` +
    ` largest entry of any turn ${Math.max(...rows.map((r) => r.entry))}`,
);
for (const turn of [10, 60, 100, 200, TURNS - 1]) {
  const row = rows[turn];
  if (row === undefined) continue;
  console.log(
    `turn ${turn}: largest entry ${row.entry} bytes, ${row.written} bytes written, ${row.read} bytes read from the store`,
  );
}
const latest = await store.readLatest('lean');
const log = await store.read('lean');
const bytes = (entries: string[]) => entries.reduce((n, e) => n + Buffer.byteLength(e), 0);
console.log(
  `opening it: ${latest.entries.length} entries, ${bytes(latest.entries)} bytes read` +
    ` (the log: ${log.entries.length} entries, ${bytes(log.entries)} bytes)`,
);
const fresh = new AgentsStoreSession({ store, sessionId: 'lean' });
console.log(
  `items a fresh session reads: ${(await fresh.getItems()).length}, the writer's: ${(await inner.getItems()).length}`,
);
