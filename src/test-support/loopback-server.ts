import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
}

export type Handler = (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>;

/** A real HTTP server on 127.0.0.1 for provider tests. */
export interface LoopbackServer {
  /** e.g. http://127.0.0.1:43121 */
  url: string;
  requests: ReceivedRequest[];
  /** Replaces the handler for the next requests. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** Writes a JSON response. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Writes server-sent events, one `data:` line per item (strings as they are), with an optional `event:` name. */
export async function sendSse(
  response: ServerResponse,
  events: ({ event?: string; data: unknown } | string)[],
  options: { delayMs?: number; headers?: Record<string, string> } = {},
): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...options.headers });
  for (const item of events) {
    if (response.destroyed) return;
    if (typeof item === 'string') response.write(`data: ${item}\n\n`);
    else
      response.write(
        `${item.event === undefined ? '' : `event: ${item.event}\n`}data: ${JSON.stringify(item.data)}\n\n`,
      );
    if (options.delayMs !== undefined) await new Promise((r) => setTimeout(r, options.delayMs));
  }
  response.end();
}

/** Starts a server on a free loopback port. */
export async function startLoopbackServer(handler: Handler): Promise<LoopbackServer> {
  let current = handler;
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      const received: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
      };
      requests.push(received);
      Promise.resolve(current(received, res)).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
        else res.destroy();
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      current = next;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
