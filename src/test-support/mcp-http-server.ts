import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createTestMcpServer, type TestMcpServerOptions } from './mcp-test-server.js';

/** The test MCP server over streamable HTTP on 127.0.0.1 (stateless: a server per request). */
export interface McpHttpTestServer {
  /** e.g. http://127.0.0.1:43121/mcp */
  url: string;
  /** The headers of each request received. */
  headers: IncomingMessage['headers'][];
  close(): Promise<void>;
}

/** Starts the test MCP server over streamable HTTP on a free loopback port. */
export async function startMcpHttpServer(options: TestMcpServerOptions = {}): Promise<McpHttpTestServer> {
  const headers: IncomingMessage['headers'][] = [];
  const http = createServer(async (req, res) => {
    headers.push(req.headers);
    const { server } = createTestMcpServer(options);
    const transport = new StreamableHTTPServerTransport({});
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    headers,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
