import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { JSONSchema } from '../contracts/json-schema.js';
import { configError } from '../errors/lousho-error.js';
import type { Tool } from '../executor/tool.js';
import { McpConnection, type McpToolInfo } from './mcp-connection.js';
import type { McpServerConfig } from './mcp-server-config.js';

type AnyTool = Tool<unknown, unknown>;

/** The text the model reads of a call's result: its text parts, other parts (and structured content) as JSON. */
export function mcpResultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map((part) => (part.type === 'text' ? part.text : JSON.stringify(part)));
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}

/** A tool name the model can call: letters, digits, '_' and '-' only, at most 64 characters. */
function callableName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}

function toTool(connection: McpConnection, info: McpToolInfo): AnyTool {
  const { prefix, needsApproval: ask, maxResultChars } = connection.config;
  const name = callableName(`${prefix ?? ''}${info.name}`);
  const needsApproval = ask === true || (Array.isArray(ask) && ask.includes(info.name));
  return {
    ...(needsApproval ? { needsApproval } : {}),
    ...(info.annotations?.idempotentHint === true ? { idempotent: true } : {}),
    ...(maxResultChars === undefined ? {} : { maxResultChars }),
    name,
    ...(info.description === undefined ? {} : { description: info.description }),
    parameters: { type: 'object', ...(info.inputSchema as JSONSchema) },
    execute: async (args, context) => {
      const result = await connection.call(info.name, args, context.abortSignal);
      const text = mcpResultText(result);
      if (result.isError === true) throw new Error(text || `MCP tool '${info.name}' failed`);
      return text;
    },
  };
}

/**
 * The tools of createAgent({ mcpServers }): every server connected on first use, each one's
 * tools turned into agent tools (named `${prefix}${name}`), read again when a server says its
 * list changed. Two servers (or a server and the agent's own tools) offering one name are
 * refused with LOUSHO_CONFIG_INVALID unless a prefix tells them apart.
 */
export class McpToolSet {
  readonly #connections: McpConnection[];
  readonly #reserved: ReadonlySet<string>;
  #last: AnyTool[] = [];
  #built = new Map<McpConnection, { infos: McpToolInfo[]; tools: AnyTool[] }>();

  /** `reserved`: the names of the agent's own tools, which an MCP tool may not take. */
  constructor(servers: readonly McpServerConfig[], reserved: Iterable<string> = []) {
    this.#connections = servers.map((config) => new McpConnection(config));
    this.#reserved = new Set(reserved);
  }

  /** Whether any server is configured. */
  get size(): number {
    return this.#connections.length;
  }

  /** Connects (once) and resolves to every server's tools; rejects with LOUSHO_MCP_SERVER_FAILED naming a failing server. */
  async tools(): Promise<AnyTool[]> {
    const lists = await Promise.all(this.#connections.map(async (c) => [c, await c.tools()] as const));
    const owner = new Map<string, string>();
    const all: AnyTool[] = [];
    for (const [connection, infos] of lists) {
      let built = this.#built.get(connection);
      if (built?.infos !== infos) {
        built = { infos, tools: infos.map((info) => toTool(connection, info)) };
        this.#built.set(connection, built);
      }
      for (const tool of built.tools) {
        const other = this.#reserved.has(tool.name) ? 'the agent’s own tools' : owner.get(tool.name);
        if (other !== undefined)
          throw configError(
            `createAgent(): the tool name '${tool.name}' is offered by MCP server '${connection.config.name}' and by ${
              this.#reserved.has(tool.name) ? other : `MCP server '${other}'`
            }. Set a prefix on one of them, e.g. mcpServers: [{ name: '${connection.config.name}', prefix: '${connection.config.name}_', ... }].`,
            { option: 'mcpServers' },
          );
        owner.set(tool.name, connection.config.name);
        all.push(tool);
      }
    }
    this.#last = all;
    return all;
  }

  /** The tools as last listed ([] before the first run). */
  listed(): AnyTool[] {
    return this.#last;
  }

  /** Ends every server this set started or connected to. */
  async close(): Promise<void> {
    await Promise.all(this.#connections.map((c) => c.close()));
    this.#built.clear();
    this.#last = [];
  }
}
