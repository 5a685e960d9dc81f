/** Opening a test store from a JSON spec, in the test process or in a child (which loads only its driver). */
import { MemorySessionStore, type SessionStore } from '../sessions/store.js';

/** How to open a store, in this process or in a child (JSON). */
export type StoreSpec =
  | { kind: 'memory' }
  | { kind: 'file'; dir: string }
  | { kind: 'sqlite'; path: string }
  | { kind: 'redis'; url: string; prefix: string }
  | { kind: 'postgres'; url: string };

export type StoreKind = StoreSpec['kind'];

/** An open store and how to let go of its connections. */
export interface OpenStore {
  store: SessionStore;
  close(): Promise<void>;
}

/** Opens the store a spec describes, loading only the driver it needs. */
export async function openStore(spec: StoreSpec): Promise<OpenStore> {
  switch (spec.kind) {
    case 'memory':
      return { store: new MemorySessionStore(), close: async () => {} };
    case 'file': {
      const { FileSessionStore } = await import('../sessions/file-store.js');
      return { store: new FileSessionStore({ dir: spec.dir }), close: async () => {} };
    }
    case 'sqlite': {
      const { SqliteSessionStore } = await import('../sessions/sqlite-store.js');
      return { store: new SqliteSessionStore({ path: spec.path }), close: async () => {} };
    }
    case 'redis': {
      const [{ Redis }, { KVSessionStore }] = await Promise.all([import('ioredis'), import('../sessions/kv-store.js')]);
      const client = new Redis(spec.url, { maxRetriesPerRequest: 1 });
      // A failed command rejects with the error; the client's own 'error' event must not print a stack.
      client.on('error', () => {});
      return { store: new KVSessionStore({ client, prefix: spec.prefix }), close: async () => client.disconnect() };
    }
    case 'postgres': {
      const { PostgresSessionStore } = await import('../sessions/postgres-store.js');
      const store = new PostgresSessionStore({ connectionString: spec.url });
      return { store, close: () => store.close() };
    }
  }
}

/** The entry number `n` of the store-level kill test: big enough that a kill lands inside writes too. */
export function numberedEntry(n: number): string {
  return JSON.stringify(['entry', n, 'x'.repeat(8_000 + (n % 7) * 1_000)]);
}
