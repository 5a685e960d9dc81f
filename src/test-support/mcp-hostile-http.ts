import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type HostileScenario, hostileServer } from './mcp-hostile.js';

/** A hostile server over streamable HTTP on loopback (see mcp-hostile.ts). */
export interface HostileHttpServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts `scenario` over streamable HTTP on a free loopback port, stateless: each POST is
 * answered as an event stream (`sse: true`, every message the scenario sends as an event) or
 * as one JSON answer. The secret it echoes is the request's Authorization header.
 */
export async function startHostileHttp(
  scenario: HostileScenario,
  options: { sse?: boolean } = {},
): Promise<HostileHttpServer> {
  const http = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const message = JSON.parse(body) as Record<string, unknown>;
      if (message.id === undefined) return void res.writeHead(202).end();
      if (options.sse === true) res.writeHead(200, { 'content-type': 'text/event-stream' });
      const answer = hostileServer(
        scenario,
        {
          send(m) {
            const done = 'id' in m && (m as { id: unknown }).id === message.id && !('method' in m);
            if (options.sse === true) {
              res.write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
              if (done) res.end();
            } else if (done) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(m));
          },
          raw: (text) => (options.sse === true ? res.write(text) : undefined),
          exit: () => res.destroy(),
          log: () => undefined,
          first: true,
        },
        String(req.headers.authorization ?? '').replace(/^Bearer /, ''),
      );
      answer(message);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
