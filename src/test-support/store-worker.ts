/**
 * A child process for the store-level multi-process tests.
 *   lease <spec> <id> <holder>: waits for "go" on stdin, takes the lease, prints {"acquired":...}.
 *   append <spec> <id> <total>: appends numbered entries until the log has <total>, printing
 *     "ack <n>" after each append resolves (n entries are then in the log).
 *   race <spec> <id> <name>: for each line "<version>" on stdin, appends "<name>" at that version
 *     and prints "ok <new version>" or "conflict".
 */
import { createInterface } from 'node:readline';
import type { SessionStore } from '../sessions/store.js';
import { numberedEntry, openStore, type StoreSpec } from './open-store.js';

async function race(store: SessionStore, id: string, name: string): Promise<void> {
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'end') break;
    try {
      console.log(`ok ${await store.append(id, name, Number(line))}`);
    } catch (error) {
      console.log((error as { code?: string }).code === 'LOUSHO_SESSION_CONFLICT' ? 'conflict' : `error ${error}`);
    }
  }
}

async function main(): Promise<void> {
  const [command, specText, id, arg] = process.argv.slice(2) as [string, string, string, string];
  const { store, close } = await openStore(JSON.parse(specText) as StoreSpec);
  if (command === 'lease') {
    const lines = createInterface({ input: process.stdin });
    for await (const line of lines) if (line === 'go') break;
    const lease = await store.acquire(id, arg, 60_000);
    console.log(JSON.stringify(lease));
  } else if (command === 'append') {
    const read = await store.read(id);
    let version = read.version;
    for (let n = read.entries.length; n < Number(arg); n++) {
      version = await store.append(id, numberedEntry(n), version);
      console.log(`ack ${n + 1}`);
    }
  } else if (command === 'race') {
    console.log('ready');
    await race(store, id, arg);
  }
  await close();
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
