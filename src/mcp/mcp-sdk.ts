import { LoushoError } from '../errors/lousho-error.js';

/** The parts of the MCP SDK the client uses, loaded on the first run that needs them. */
export async function loadSdk() {
  try {
    const [client, http, sse, types, stdio, auth] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/client/sse.js'),
      import('@modelcontextprotocol/sdk/types.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/auth.js'),
    ]);
    return { client, http, sse, types, stdio, auth };
  } catch (error) {
    throw new LoushoError(
      'LOUSHO_DEPENDENCY_MISSING',
      'createAgent({ mcpServers }) needs the MCP SDK: npm install @modelcontextprotocol/sdk.',
      { cause: error },
    );
  }
}

/** The loaded SDK. */
export type McpSdk = Awaited<ReturnType<typeof loadSdk>>;
