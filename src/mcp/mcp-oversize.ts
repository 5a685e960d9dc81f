import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Characters kept of each end of a message over the size limit, to find the id it answers. */
export const ENDS_KEPT = 512;

/** The JSON-RPC error code of an answer that was not read (JSON-RPC's "internal error"). */
const NOT_READ = -32603;

const ID = String.raw`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")`;
/** SDK servers (TypeScript) write the id last, Python's first after "jsonrpc". */
const ID_LAST = new RegExp(`${ID}\\s*}\\s*$`);
const ID_FIRST = new RegExp(`^\\s*{\\s*(?:"jsonrpc"\\s*:\\s*"2\\.0"\\s*,\\s*)?${ID}`);

/** The id a message's two ends name, or undefined. */
function idOf(head: string, tail: string): string | number | undefined {
  const match = ID_LAST.exec(tail) ?? ID_FIRST.exec(head);
  if (match?.[1] === undefined) return undefined;
  return match[1].startsWith('"') ? (JSON.parse(match[1]) as string) : Number(match[1]);
}

/**
 * The error answer that stands for a message over `limit` bytes, which is dropped unread: it
 * answers the request whose id the message's ends name, or the only request waiting. Undefined
 * when it cannot tell which request the message answered (that request then times out).
 */
export function oversizeAnswer(
  ends: { head: string; tail: string },
  bytes: number,
  limit: number,
  waiting: readonly (string | number)[],
): JSONRPCMessage | undefined {
  const id = idOf(ends.head, ends.tail) ?? (waiting.length === 1 ? waiting[0] : undefined);
  if (id === undefined) return undefined;
  const message =
    `the server's answer was ${bytes.toLocaleString('en-US')} bytes or more, over maxMessageBytes ` +
    `(${limit.toLocaleString('en-US')}), and was not read. Ask for less, or raise maxMessageBytes in the server's entry`;
  return { jsonrpc: '2.0', id, error: { code: NOT_READ, message } };
}

/**
 * Collects one message's pieces up to `limit` bytes; past it keeps only the two ends (for
 * oversizeAnswer()) and counts the rest, so a message of any size costs at most `limit` bytes.
 */
export class MessageBuffer {
  readonly limit: number;
  #pieces: Buffer[] = [];
  #bytes = 0;
  #head = '';
  #tail = '';

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Whether the message passed the limit. */
  get over(): boolean {
    return this.#bytes > this.limit;
  }

  /** The bytes seen so far. */
  get bytes(): number {
    return this.#bytes;
  }

  add(piece: Buffer): void {
    if (piece.length === 0) return;
    const wasOver = this.over;
    this.#bytes += piece.length;
    if (!this.over) {
      this.#pieces.push(piece);
      return;
    }
    if (!wasOver) {
      const all = Buffer.concat([...this.#pieces, piece.subarray(0, ENDS_KEPT)]);
      this.#head = all.subarray(0, ENDS_KEPT).toString('utf8');
      this.#pieces = [];
    }
    this.#tail = (this.#tail + piece.subarray(-ENDS_KEPT).toString('utf8')).slice(-ENDS_KEPT);
  }

  /** The message as text (when under the limit), or its two ends; the buffer starts again empty. */
  take(): { text: string } | { ends: { head: string; tail: string }; bytes: number } {
    const over = this.over;
    const result = over
      ? { ends: { head: this.#head, tail: this.#tail }, bytes: this.#bytes }
      : { text: Buffer.concat(this.#pieces).toString('utf8') };
    this.#pieces = [];
    this.#bytes = 0;
    this.#head = '';
    this.#tail = '';
    return result;
  }
}
