import { describe } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';
import { redactedCopy } from '../errors/redact.js';
import type { Message } from '../messages/types.js';
import type { McpConnection } from './mcp-connection.js';
import { messageOf } from './mcp-server-requests.js';
import type { McpToolSet } from './mcp-tools.js';

/** An entry of a server's resources/list or resources/templates/list, or of its prompts/list, as the server gives it. */
export type McpListEntry = Record<string, unknown> & { name?: string; description?: string };

/** One content of a resource read: its URI and type, and its text or base64 data. */
export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** One MCP server of the agent, for what its tools do not cover: resources, prompts, OAuth. */
export interface McpServerHandle {
  /** The server's name, as in its mcpServers entry. */
  readonly name: string;
  /** Its tools as the model sees them: the model's name for each, the server's own, the description. */
  tools(): Promise<{ name: string; serverName: string; description?: string }[]>;
  /** Its resources (every page of resources/list, within maxListPages and maxListItems). */
  listResources(): Promise<McpListEntry[]>;
  /** Its resource templates (resources/templates/list). */
  listResourceTemplates(): Promise<McpListEntry[]>;
  /** Reads a resource: its contents, text redacted of the credentials the server was given. */
  readResource(uri: string): Promise<McpResourceContents[]>;
  /** Its prompts (prompts/list). */
  listPrompts(): Promise<McpListEntry[]>;
  /** A prompt with its arguments, as messages you can send: `agent.send(prompt.messages)`. */
  getPrompt(name: string, args?: Record<string, string>): Promise<{ description?: string; messages: Message[] }>;
  /** Finishes an OAuth authorization the server asked for, with the code the authorization page gave back. */
  finishAuth(code: string): Promise<void>;
}

/** The agent's MCP servers: `agent.mcp.server('files').listResources()`. */
export interface AgentMcp {
  /** The names of the servers, in the order of mcpServers. */
  readonly servers: readonly string[];
  /** The server named `name`; throws LOUSHO_CONFIG_INVALID for a name no entry has. */
  server(name: string): McpServerHandle;
}

const objects = (items: unknown[]) =>
  redactedCopy(items.filter((i) => typeof i === 'object' && i !== null)) as McpListEntry[];

function handleOf(set: McpToolSet, connection: McpConnection): McpServerHandle {
  const name = connection.config.name;
  return {
    name,
    tools: () => set.toolsOf(name),
    listResources: async () => objects(await connection.list('resources/list', 'resources')),
    listResourceTemplates: async () => objects(await connection.list('resources/templates/list', 'resourceTemplates')),
    readResource: async (uri) => {
      const result = await connection.request('resources/read', { uri });
      return objects(Array.isArray(result.contents) ? result.contents : []) as unknown as McpResourceContents[];
    },
    listPrompts: async () => objects(await connection.list('prompts/list', 'prompts')),
    getPrompt: async (prompt, args) => {
      const result = await connection.request('prompts/get', {
        name: prompt,
        ...(args === undefined ? {} : { arguments: args }),
      });
      const messages = (Array.isArray(result.messages) ? result.messages : []).map((m) => messageOf(m as never));
      const description = typeof result.description === 'string' ? result.description : undefined;
      return { ...(description === undefined ? {} : { description: redactedCopy(description) as string }), messages };
    },
    finishAuth: (code) => connection.finishAuth(code),
  };
}

/** The `agent.mcp` of an agent whose MCP servers are `set`'s. */
export function agentMcp(set: McpToolSet, names: readonly string[]): AgentMcp {
  return {
    servers: names,
    server(name) {
      const connection = set.connection(name);
      if (connection === undefined)
        throw configError(
          `agent.mcp.server(${describe(name)}): no MCP server has that name; the agent's are ${names.map((n) => `'${n}'`).join(', ') || 'none'}.`,
          { option: 'name' },
        );
      return handleOf(set, connection);
    },
  };
}
