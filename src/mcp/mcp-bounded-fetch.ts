import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { registerSecretHeaders } from '../errors/redact.js';
import { MessageBuffer, oversizeAnswer } from './mcp-oversize.js';

/** The ids of the JSON-RPC requests a POST body carries. */
function requestIds(body: unknown): (string | number)[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(body);
    return (Array.isArray(parsed) ? parsed : [parsed])
      .filter((m) => typeof m === 'object' && m !== null && 'method' in m && 'id' in m)
      .map((m) => (m as { id: string | number }).id);
  } catch {
    return [];
  }
}

const encoder = new TextEncoder();

/** An event-stream with each event bounded: an event over `limit` bytes becomes the error answer for its request. */
function boundedEvents(body: ReadableStream<Uint8Array>, limit: number, ids: (string | number)[]) {
  const event = new MessageBuffer(limit);
  let pending = Buffer.alloc(0);
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        // Events end at a blank line; the few bytes of a possible "\n\r\n" split across chunks wait for the next one.
        let text = Buffer.concat([pending, Buffer.from(chunk)]);
        for (let end = blankLine(text); end !== undefined; end = blankLine(text)) {
          event.add(text.subarray(0, end.at));
          text = text.subarray(end.at + end.length);
          const whole = event.take();
          if ('text' in whole) out.enqueue(encoder.encode(`${whole.text}\n\n`));
          else {
            const data = { head: whole.ends.head.replace(/^(?:[^\n]*\n)*?data: ?/, ''), tail: whole.ends.tail };
            const answer = oversizeAnswer(data, whole.bytes, limit, ids);
            if (answer !== undefined)
              out.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(answer)}\n\n`));
          }
        }
        const keep = Math.min(3, text.length);
        event.add(text.subarray(0, text.length - keep));
        pending = Buffer.from(text.subarray(text.length - keep));
      },
      flush(out) {
        event.add(pending);
        const rest = event.take();
        if ('text' in rest && rest.text !== '') out.enqueue(encoder.encode(rest.text));
      },
    }),
  );
}

/** Where the first blank line (an event's end) is in `bytes`, and how long its line breaks are. */
function blankLine(bytes: Buffer): { at: number; length: number } | undefined {
  const lf = bytes.indexOf('\n\n');
  const crlf = bytes.indexOf('\r\n\r\n');
  if (lf === -1 && crlf === -1) return undefined;
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return { at: crlf, length: 4 };
  return { at: lf, length: 2 };
}

/** A JSON body read up to `limit` bytes; a longer one becomes the error answers of the requests it answered. */
async function boundedJson(response: Response, limit: number, ids: (string | number)[]): Promise<Response> {
  const body = new MessageBuffer(limit);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    body.add(Buffer.from(value));
    if (body.over) {
      await reader.cancel();
      break;
    }
  }
  const whole = body.take();
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  if ('text' in whole) return new Response(whole.text, init);
  const answers = ids
    .map((id) => oversizeAnswer({ head: '', tail: '' }, whole.bytes, limit, [id]))
    .filter((a): a is JSONRPCMessage => a !== undefined);
  return new Response(JSON.stringify(answers.length === 1 ? answers[0] : answers), init);
}

/**
 * The fetch of an HTTP transport with every message the server sends bounded by `limit` bytes
 * (a JSON answer as a whole, each event of an event-stream), and every credential header sent
 * registered as a secret, so an echo of it (an OAuth token, say) is redacted.
 */
export function boundedFetch(limit: number, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    registerSecretHeaders(headers);
    const response = await base(url, init);
    if (response.body === null || [204, 205, 304].includes(response.status)) return response;
    const ids = requestIds(init?.body);
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream')) {
      const init = { status: response.status, statusText: response.statusText, headers: response.headers };
      return new Response(boundedEvents(response.body, limit, ids), init);
    }
    return boundedJson(response, limit, ids);
  };
}
