import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { JSONSchema } from '../contracts/json-schema.js';
import type { ModelSpec } from '../contracts/llm-provider.js';
import type { Message } from '../messages/types.js';

/** What a server says of one of its tools (tools/list), as a toolFilter function sees it. */
export interface McpToolListing {
  /** The server's own name of the tool. */
  name: string;
  /** Its description, when it gives one. */
  description?: string;
  /** Its hints (readOnlyHint, destructiveHint, idempotentHint, openWorldHint), when it gives them. */
  annotations?: Record<string, unknown>;
}

/** Which tools of a server the model sees: allow and deny lists of server-side names, or a function. */
export type McpToolFilter = { allow?: string[]; deny?: string[] } | ((tool: McpToolListing) => boolean);

/** A root the server may work in (roots/list): a `file://` URI and an optional name. */
export interface McpRoot {
  uri: string;
  name?: string;
}

/** A server's request to sample the model (sampling/createMessage), as `sampling.approve` sees it. */
export interface McpSamplingRequest {
  /** The server that asks. */
  server: string;
  /** The conversation it wants answered, as messages. */
  messages: Message[];
  /** The system prompt it asks for, when it gives one. */
  systemPrompt?: string;
  /** The longest reply it wants, in tokens. */
  maxTokens: number;
}

/** How a server's sampling requests are answered. */
export interface McpSamplingOptions {
  /** The model that answers: the agent's own when absent, else a "provider/model" spec or an LLMProvider. */
  model?: ModelSpec;
  /** Called for every request: true lets the model answer it, false refuses it (the server is told the user declined). */
  approve(request: McpSamplingRequest): boolean | Promise<boolean>;
}

/** A server's question for the user (elicitation/create, form mode). */
export interface McpElicitationRequest {
  /** The server that asks. */
  server: string;
  /** What it asks, in words. */
  message: string;
  /** The JSON Schema of the answer (a flat object of strings, numbers, booleans and enums). */
  requestedSchema: JSONSchema;
}

/** The user's answer: accepted with the content, declined, or cancelled. */
export interface McpElicitationResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

/** What every server entry takes besides how it is reached. */
export interface McpServerOptions {
  /** The server's name, used in errors, in tool names' conflicts and in agent.mcp.server(name). */
  name: string;
  /** Put before each of its tools' names (`${prefix}${name}`), so two servers may offer one tool name. */
  prefix?: string;
  /** Ask before running: true for every tool of the server, or the (server-side) names of those that ask. */
  needsApproval?: boolean | string[];
  /** The longest result of its tools the transcript keeps, in characters (see Tool.maxResultChars; 2,000,000 by default). */
  maxResultChars?: number;
  /** Which of its tools the model sees (all when absent). */
  toolFilter?: McpToolFilter;
  /** How long one request may wait for its answer, in ms (60,000 by default); each progress notification starts it again. */
  timeoutMs?: number;
  /** How long one request may take in all, progress or not, in ms (600,000 by default). */
  maxTotalTimeoutMs?: number;
  /** The largest message the server may send, in bytes (100,000,000 by default); a larger answer fails its request. */
  maxMessageBytes?: number;
  /** The most pages a list (tools, resources, prompts) may take (100 by default). */
  maxListPages?: number;
  /** The most entries a list may hold (10,000 by default). */
  maxListItems?: number;
  /** The roots the server is told it may work in (roots/list); none by default. */
  roots?: McpRoot[];
  /** Answers the server's sampling requests with a model, each behind `approve`; refused when absent. */
  sampling?: McpSamplingOptions;
  /** Answers the server's questions for the user (elicitation); refused, saying so, when absent. */
  onElicitation?: (request: McpElicitationRequest) => McpElicitationResult | Promise<McpElicitationResult>;
}

/** An MCP server the agent starts as a child process and speaks to over its stdin and stdout. */
export interface McpStdioServerConfig extends McpServerOptions {
  /** The program to run, e.g. 'npx' or 'node'. */
  command: string;
  /** Its arguments. */
  args?: string[];
  /** Its environment (the SDK's safe defaults such as PATH and HOME are inherited besides). */
  env?: Record<string, string>;
  /** Its working directory; the agent's when absent. */
  cwd?: string;
}

/** An MCP server reached over HTTP: streamable HTTP, or the legacy HTTP+SSE transport. */
export interface McpHttpServerConfig extends McpServerOptions {
  /** The server's endpoint, e.g. 'https://example.com/mcp' (the SSE endpoint, e.g. '/sse', for `transport: 'sse'`). */
  url: string;
  /** Headers sent with every request (an Authorization header, for one). */
  headers?: Record<string, string>;
  /** 'streamable-http' (the default) or 'sse', the transport of servers written before 2025-03-26. */
  transport?: 'streamable-http' | 'sse';
  /** OAuth: the SDK's OAuthClientProvider, which holds the client's registration and tokens. */
  authProvider?: OAuthClientProvider;
}

/** One entry of createAgent({ mcpServers }): a stdio server (`command`) or an HTTP server (`url`). */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** The defaults of the options above. */
export const MCP_DEFAULTS = {
  timeoutMs: 60_000,
  maxTotalTimeoutMs: 600_000,
  maxMessageBytes: 100_000_000,
  maxListPages: 100,
  maxListItems: 10_000,
} as const;

/** An option of a server entry, or its default. */
export function mcpOption<K extends keyof typeof MCP_DEFAULTS>(config: McpServerOptions, key: K): number {
  return config[key] ?? MCP_DEFAULTS[key];
}
