import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { boundedFetch } from './mcp-bounded-fetch.js';
import type { McpSdk } from './mcp-sdk.js';
import { type McpServerConfig, mcpOption } from './mcp-server-config.js';
import { BoundedStdioTransport } from './mcp-stdio-transport.js';

/** A transport, and the OAuth step that finishes an authorization (HTTP transports with an authProvider). */
export interface McpTransport {
  transport: Transport;
  finishAuth?: (code: string) => Promise<void>;
}

/**
 * The transport of a server entry: stdio for `command`, streamable HTTP (or the legacy SSE
 * transport) for `url`, each bounding what the server sends by maxMessageBytes.
 */
export function mcpTransport(config: McpServerConfig, sdk: McpSdk): McpTransport {
  const limit = mcpOption(config, 'maxMessageBytes');
  if ('command' in config) {
    const { command, args, env, cwd } = config;
    const params = { command, ...(args === undefined ? {} : { args }), ...(env === undefined ? {} : { env }) };
    return { transport: new BoundedStdioTransport({ ...params, ...(cwd === undefined ? {} : { cwd }) }, limit, sdk) };
  }
  const options = {
    fetch: boundedFetch(limit),
    ...(config.headers === undefined ? {} : { requestInit: { headers: config.headers } }),
    ...(config.authProvider === undefined ? {} : { authProvider: config.authProvider }),
  };
  const url = new URL(config.url);
  const transport =
    config.transport === 'sse'
      ? new sdk.sse.SSEClientTransport(url, options)
      : new sdk.http.StreamableHTTPClientTransport(url, options);
  return { transport, finishAuth: (code) => transport.finishAuth(code) };
}
