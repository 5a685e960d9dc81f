import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { LoushoError, toError } from '../errors/lousho-error.js';
import { redactedCopy, redactText, registerSecretHeaders } from '../errors/redact.js';
import type { McpServerConfig } from './mcp-server-config.js';

export type { McpToolInfo };

/** The typed error of a server that could not be started, listed or reached (it names the server). */
export function mcpServerError(server: string, what: string, cause: unknown): LoushoError {
  return new LoushoError(
    'LOUSHO_MCP_SERVER_FAILED',
    `MCP server '${server}' ${what}: ${redactText(toError(cause).message)}. Check its command, url and the server's own log.`,
    // The SDK's error may quote what the server answered (a header it echoed): kept only as a redacted copy.
    { cause: redactedCopy(cause), details: { server } },
  );
}

async function loadSdk() {
  try {
    const [client, stdio, http, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return { client, stdio, http, types };
  } catch (error) {
    throw new LoushoError(
      'LOUSHO_DEPENDENCY_MISSING',
      'createAgent({ mcpServers }) needs the MCP SDK: npm install @modelcontextprotocol/sdk.',
      { cause: error },
    );
  }
}

/**
 * One MCP server: connected on first use, its tool list read page by page and read again
 * after the server says it changed (notifications/tools/list_changed), calls carrying an
 * abort signal, and closed by close() (a stdio server's process ends with it).
 */
export class McpConnection {
  readonly config: McpServerConfig;
  #client: Promise<Client> | undefined;
  #tools: Promise<McpToolInfo[]> | undefined;
  #closed = false;
  #lost: Error | undefined;

  constructor(config: McpServerConfig) {
    this.config = config;
    if ('headers' in config) registerSecretHeaders(config.headers);
  }

  #connect(): Promise<Client> {
    this.#client ??= (async () => {
      const sdk = await loadSdk();
      const client = new sdk.client.Client({ name: '@lousho/build-ai-agent', version: '1' });
      client.setNotificationHandler(sdk.types.ToolListChangedNotificationSchema, async () => {
        this.#tools = undefined;
      });
      client.onclose = () => {
        if (!this.#closed) this.#lost = new Error('the connection closed (the server exited or crashed)');
      };
      const c = this.config;
      const transport =
        'command' in c
          ? new sdk.stdio.StdioClientTransport({
              command: c.command,
              ...(c.args === undefined ? {} : { args: c.args }),
              ...(c.env === undefined ? {} : { env: { ...sdk.stdio.getDefaultEnvironment(), ...c.env } }),
              ...(c.cwd === undefined ? {} : { cwd: c.cwd }),
              stderr: 'inherit',
            })
          : new sdk.http.StreamableHTTPClientTransport(new URL(c.url), {
              ...(c.headers === undefined ? {} : { requestInit: { headers: c.headers } }),
            });
      try {
        await client.connect(transport);
      } catch (error) {
        this.#client = undefined;
        throw mcpServerError(c.name, 'could not be started or reached', error);
      }
      return client;
    })();
    return this.#client;
  }

  /** The server's tools, every page of tools/list; cached until the server says the list changed. */
  tools(): Promise<McpToolInfo[]> {
    this.#tools ??= (async () => {
      const client = await this.#connect();
      const all: McpToolInfo[] = [];
      let cursor: string | undefined;
      try {
        do {
          const page = await client.listTools(cursor === undefined ? {} : { cursor });
          all.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor !== undefined);
      } catch (error) {
        this.#tools = undefined;
        throw mcpServerError(this.config.name, 'could not list its tools', this.#lost ?? error);
      }
      return all;
    })();
    return this.#tools;
  }

  /**
   * Calls a tool. Resolves to the server's result (isError results included); rejects with
   * LOUSHO_MCP_SERVER_FAILED when the server is gone, or with the abort's reason.
   */
  async call(name: string, args: unknown, signal: AbortSignal | undefined): Promise<CallToolResult> {
    const client = await this.#connect();
    if (this.#lost !== undefined) throw mcpServerError(this.config.name, 'is not running', this.#lost);
    try {
      const result = await client.callTool(
        { name, arguments: (args ?? {}) as Record<string, unknown> },
        undefined,
        signal === undefined ? {} : { signal },
      );
      return result as CallToolResult;
    } catch (error) {
      if (signal?.aborted === true) throw error;
      if (this.#lost !== undefined) throw mcpServerError(this.config.name, 'crashed during a call', this.#lost);
      throw error;
    }
  }

  /** Ends the connection (and the process of a stdio server). Safe to call more than once. */
  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    this.#tools = undefined;
    if (client === undefined) return;
    await (await client.catch(() => undefined))?.close();
  }
}
