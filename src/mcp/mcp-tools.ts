import { configError } from '../errors/lousho-error.js';
import type { Tool, ToolContext } from '../executor/tool.js';
import { toolContent } from '../executor/tool-content.js';
import { McpConnection } from './mcp-connection.js';
import { callOutcome } from './mcp-content.js';
import { modelToolNames } from './mcp-names.js';
import type { McpServerConfig } from './mcp-server-config.js';
import type { SamplingModel } from './mcp-server-requests.js';
import { type McpToolInfo, usableTools } from './mcp-tool-listing.js';

type AnyTool = Tool<unknown, unknown>;

/**
 * The progress callback of a call: asking for progress is what lets a long call restart its
 * timeout, so it is always asked for; each notification is an `mcp.progress` event of the run
 * when the run has listeners.
 */
function progressOf(server: string, tool: string, context: ToolContext) {
  const { emit, runId, step, toolCallId } = context;
  return (p: { progress: number; total?: number | undefined; message?: string | undefined }) => {
    if (emit === undefined || runId === undefined || step === undefined) return;
    emit({
      type: 'mcp.progress',
      runId,
      step,
      toolCallId,
      server,
      tool,
      progress: p.progress,
      ...(p.total === undefined ? {} : { total: p.total }),
      ...(p.message === undefined ? {} : { message: p.message }),
    });
  };
}

function toTool(connection: McpConnection, info: McpToolInfo, name: string): AnyTool {
  const { needsApproval: ask, maxResultChars, name: server } = connection.config;
  const needsApproval = ask === true || (Array.isArray(ask) && ask.includes(info.name));
  return {
    ...(needsApproval ? { needsApproval } : {}),
    ...(info.annotations?.idempotentHint === true ? { idempotent: true } : {}),
    ...(maxResultChars === undefined ? {} : { maxResultChars }),
    name,
    ...(info.description === undefined ? {} : { description: info.description }),
    parameters: info.inputSchema,
    execute: async (args, context) => {
      const params = { name: info.name, arguments: args ?? {} };
      const onprogress = progressOf(server, info.name, context);
      const result = await connection.request('tools/call', params, { signal: context.abortSignal, onprogress });
      const outcome = callOutcome(result, info.outputSchema);
      if (outcome.error !== undefined) throw new Error(outcome.error);
      return toolContent(outcome.parts);
    },
  };
}

/** Says once on the console which tools of a listing were left out, and why. */
const said = new Set<string>();
function sayLeftOut(server: string, skipped: readonly string[]): void {
  const line = `MCP server '${server}': ${skipped.length} tool(s) left out: ${skipped.slice(0, 5).join('; ')}${skipped.length > 5 ? '; ...' : ''}`;
  if (skipped.length === 0 || said.has(line)) return;
  said.add(line);
  console.warn(line);
}

/**
 * The tools of createAgent({ mcpServers }): every server connected on first use, its usable
 * tools (see usableTools(), and the entry's toolFilter) turned into agent tools named by
 * modelToolNames(), read again when a server says its list changed. Two servers (or a server
 * and the agent's own tools) giving one name are refused with LOUSHO_CONFIG_INVALID unless a
 * prefix tells them apart.
 */
export class McpToolSet {
  readonly #connections: McpConnection[];
  readonly #reserved: ReadonlySet<string>;
  #last: AnyTool[] = [];
  #built = new Map<McpConnection, { listed: unknown[]; tools: AnyTool[]; infos: McpToolInfo[] }>();

  /** `reserved`: the names of the agent's own tools, which an MCP tool may not take. */
  constructor(servers: readonly McpServerConfig[], reserved: Iterable<string>, model: SamplingModel) {
    this.#connections = servers.map((config) => new McpConnection(config, model));
    this.#reserved = new Set(reserved);
  }

  /** How many servers are configured. */
  get size(): number {
    return this.#connections.length;
  }

  /** The connection of the server named `name`. */
  connection(name: string): McpConnection | undefined {
    return this.#connections.find((c) => c.config.name === name);
  }

  #toolsOf(connection: McpConnection, listed: unknown[]): AnyTool[] {
    let built = this.#built.get(connection);
    if (built?.listed !== listed) {
      const { tools: infos, skipped } = usableTools(listed, connection.config.toolFilter);
      sayLeftOut(connection.config.name, skipped);
      const names = modelToolNames(
        infos.map((i) => i.name),
        connection.config.prefix,
      );
      const tools = infos.map((info) => toTool(connection, info, names.get(info.name) ?? info.name));
      built = { listed, tools, infos };
      this.#built.set(connection, built);
    }
    return built.tools;
  }

  /** Connects (once) and resolves to every server's tools; rejects with LOUSHO_MCP_SERVER_FAILED naming a failing server. */
  async tools(signal?: AbortSignal): Promise<AnyTool[]> {
    const lists = await Promise.all(this.#connections.map(async (c) => [c, await c.tools(signal)] as const));
    const owner = new Map<string, string>();
    const all: AnyTool[] = [];
    for (const [connection, listed] of lists) {
      const server = connection.config.name;
      for (const tool of this.#toolsOf(connection, listed)) {
        const mine = this.#reserved.has(tool.name);
        const other = owner.get(tool.name);
        if (mine || other !== undefined)
          throw configError(
            `createAgent(): the tool name '${tool.name}' is offered by MCP server '${server}' and by ${
              mine ? 'the agent’s own tools' : `MCP server '${other}'`
            }. Set a prefix on one of them, e.g. mcpServers: [{ name: '${server}', prefix: '${server}_', ... }].`,
            { option: 'mcpServers' },
          );
        owner.set(tool.name, server);
        all.push(tool);
      }
    }
    this.#last = all;
    return all;
  }

  /** A server's tools as the model sees them: its name for each, the server's own, the description. */
  async toolsOf(server: string): Promise<{ name: string; serverName: string; description?: string }[]> {
    const connection = this.connection(server);
    if (connection === undefined) return [];
    const tools = this.#toolsOf(connection, await connection.tools());
    const infos = this.#built.get(connection)?.infos ?? [];
    return tools.map((tool, i) => ({
      name: tool.name,
      serverName: infos[i]?.name ?? tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
    }));
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
