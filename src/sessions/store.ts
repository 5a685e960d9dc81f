import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configError, LoushoError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { parseSession, serializeSession } from './serialize.js';

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

/** The error for saved content that is not a transcript this library wrote. */
export function invalidStore(where: string, id: string, cause: unknown): LoushoError {
  return new LoushoError(
    'LOUSHO_STORE_INVALID',
    `${where} is not a transcript this library wrote (${(cause as Error).message}). It was left as it is: ` +
      'move it away or delete it to start the session afresh.',
    { cause, details: { id } },
  );
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
      return parseSession(text);
    } catch (cause) {
      throw invalidStore(`The session file ${this.#path(id)}`, id, cause);
    }
  }

  async save(id: string, messages: readonly Message[]): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const path = this.#path(id);
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, serializeSession(messages));
    await rename(temporary, path);
  }

  async delete(id: string): Promise<void> {
    await rm(this.#path(id), { force: true });
  }
}
