import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configError, LoushoError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';

/**
 * Where a session's transcript is kept. Implementations must store a copy (later changes
 * to the array or its messages do not reach the store) and return one.
 */
export interface SessionStore {
  /** The transcript saved under `id`, or undefined when there is none. */
  load(id: string): Promise<Message[] | undefined>;
  /** Saves the transcript under `id`, replacing what was there. */
  save(id: string, messages: readonly Message[]): Promise<void>;
  /** Deletes what is saved under `id` (nothing when there is nothing). */
  delete(id: string): Promise<void>;
}

/** Keeps transcripts in memory, for tests and short-lived processes. The default store. */
export class MemorySessionStore implements SessionStore {
  readonly #data = new Map<string, Message[]>();

  async load(id: string): Promise<Message[] | undefined> {
    const saved = this.#data.get(id);
    return saved === undefined ? undefined : structuredClone(saved);
  }

  async save(id: string, messages: readonly Message[]): Promise<void> {
    this.#data.set(id, structuredClone([...messages]));
  }

  async delete(id: string): Promise<void> {
    this.#data.delete(id);
  }
}

const FORMAT = 'lousho-session-1';

/** JSON cannot hold bytes: images given as Uint8Array are written as base64 and read back as bytes. */
function replacer(_key: string, value: unknown): unknown {
  return value instanceof Uint8Array ? { $bytes: Buffer.from(value).toString('base64') } : value;
}

function reviver(_key: string, value: unknown): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { $bytes?: unknown }).$bytes === 'string') {
    return new Uint8Array(Buffer.from((value as { $bytes: string }).$bytes, 'base64'));
  }
  return value;
}

/**
 * Keeps each transcript as a JSON file in a folder (written to a temporary file, then
 * renamed, so a crash never leaves half a file). A file that is not a transcript this
 * library wrote is reported with LOUSHO_STORE_INVALID and left untouched.
 */
export class FileSessionStore implements SessionStore {
  readonly dir: string;

  constructor(options: { dir: string }) {
    if (typeof options?.dir !== 'string' || options.dir === '') {
      throw configError('FileSessionStore needs a folder: new FileSessionStore({ dir: "./sessions" }).');
    }
    this.dir = options.dir;
  }

  #path(id: string): string {
    return join(this.dir, `${encodeURIComponent(id)}.json`);
  }

  async load(id: string): Promise<Message[] | undefined> {
    let text: string;
    try {
      text = await readFile(this.#path(id), 'utf8');
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const data = JSON.parse(text, reviver) as { format?: unknown; messages?: unknown };
      if (data.format !== FORMAT) throw new Error(`its format is ${JSON.stringify(data.format)}, not ${FORMAT}`);
      validateMessages(data.messages);
      return data.messages;
    } catch (cause) {
      throw new LoushoError(
        'LOUSHO_STORE_INVALID',
        `The session file ${this.#path(id)} is not a transcript this library wrote (${(cause as Error).message}). ` +
          'It was left as it is: move it away or delete it to start the session afresh.',
        { cause, details: { id, path: this.#path(id) } },
      );
    }
  }

  async save(id: string, messages: readonly Message[]): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const path = this.#path(id);
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, JSON.stringify({ format: FORMAT, messages }, replacer));
    await rename(temporary, path);
  }

  async delete(id: string): Promise<void> {
    await rm(this.#path(id), { force: true });
  }
}
