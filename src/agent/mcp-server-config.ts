import { checkNumber, checkOptions, describe } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';

/** An MCP server the agent starts as a child process and speaks to over its stdin and stdout. */
export interface McpStdioServerConfig {
  /** The server's name, used in errors and in `prefix`-less tool names' conflicts. */
  name: string;
  /** The program to run, e.g. 'npx' or 'node'. */
  command: string;
  /** Its arguments. */
  args?: string[];
  /** Its environment (the SDK's safe defaults such as PATH and HOME are inherited besides). */
  env?: Record<string, string>;
  /** Its working directory; the agent's when absent. */
  cwd?: string;
  /** Put before each of its tools' names (`${prefix}${name}`), so two servers may offer one tool name. */
  prefix?: string;
  /** Ask before running: true for every tool of the server, or the (server-side) names of those that ask. */
  needsApproval?: boolean | string[];
  /** The longest result of its tools the transcript keeps, in characters (see Tool.maxResultChars; 2,000,000 by default). */
  maxResultChars?: number;
}

/** An MCP server reached over streamable HTTP. */
export interface McpHttpServerConfig {
  /** The server's name, used in errors and in tool names' conflicts. */
  name: string;
  /** The server's endpoint, e.g. 'https://example.com/mcp'. */
  url: string;
  /** Headers sent with every request (an Authorization header, for one). */
  headers?: Record<string, string>;
  /** Put before each of its tools' names (`${prefix}${name}`), so two servers may offer one tool name. */
  prefix?: string;
  /** Ask before running: true for every tool of the server, or the (server-side) names of those that ask. */
  needsApproval?: boolean | string[];
  /** The longest result of its tools the transcript keeps, in characters (see Tool.maxResultChars; 2,000,000 by default). */
  maxResultChars?: number;
}

/** One entry of createAgent({ mcpServers }): a stdio server (`command`) or a streamable-HTTP server (`url`). */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

const STDIO_KEYS: (keyof McpStdioServerConfig)[] = [
  'name',
  'command',
  'args',
  'env',
  'cwd',
  'prefix',
  'needsApproval',
  'maxResultChars',
];
const HTTP_KEYS: (keyof McpHttpServerConfig)[] = [
  'name',
  'url',
  'headers',
  'prefix',
  'needsApproval',
  'maxResultChars',
];

function stringRecord(value: unknown, where: string): void {
  if (value === undefined) return;
  const ok =
    typeof value === 'object' && value !== null && Object.values(value as object).every((v) => typeof v === 'string');
  if (!ok) throw configError(`${where} must be an object of strings, got ${describe(value)}.`, { option: where });
}

/** Checks createAgent({ mcpServers }): throws LOUSHO_CONFIG_INVALID naming the bad entry and field. */
export function checkMcpServers(value: unknown): McpServerConfig[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw configError('createAgent(): mcpServers must be an array of { name, command } or { name, url }.', {
      option: 'mcpServers',
    });
  const names = new Set<string>();
  return value.map((entry: unknown, i) => {
    const at = `mcpServers[${i}]`;
    const e = (entry ?? {}) as Record<string, unknown>;
    if (typeof e.name !== 'string' || e.name.trim() === '')
      throw configError(`createAgent(): ${at}.name must be a non-empty string.`, { option: `${at}.name` });
    if (names.has(e.name))
      throw configError(`createAgent(): two MCP servers are named '${e.name}'; give each a unique name.`, {
        option: `${at}.name`,
      });
    names.add(e.name);
    const stdio = typeof e.command === 'string';
    if (stdio === (typeof e.url === 'string'))
      throw configError(
        `createAgent(): MCP server '${e.name}' needs either command (a stdio server) or url (a streamable-HTTP server).`,
        { option: at },
      );
    checkOptions(entry, `createAgent(): MCP server '${e.name}'`, (stdio ? STDIO_KEYS : HTTP_KEYS) as never);
    if (e.args !== undefined && !(Array.isArray(e.args) && e.args.every((a) => typeof a === 'string')))
      throw configError(`${at}.args must be an array of strings.`, { option: `${at}.args` });
    stringRecord(e.env, `${at}.env`);
    stringRecord(e.headers, `${at}.headers`);
    for (const key of ['cwd', 'prefix'] as const)
      if (e[key] !== undefined && typeof e[key] !== 'string')
        throw configError(`${at}.${key} must be a string.`, { option: `${at}.${key}` });
    const ask = e.needsApproval;
    if (
      ask !== undefined &&
      typeof ask !== 'boolean' &&
      !(Array.isArray(ask) && ask.every((n) => typeof n === 'string'))
    )
      throw configError(`${at}.needsApproval must be true, false or an array of tool names.`, {
        option: `${at}.needsApproval`,
      });
    if (e.maxResultChars !== Number.POSITIVE_INFINITY)
      checkNumber(e.maxResultChars, 'maxResultChars', `createAgent(): MCP server '${e.name}'`, {
        min: 1,
        integer: true,
      });
    if (!stdio && !URL.canParse(e.url as string))
      throw configError(`${at}.url is not a URL: ${describe(e.url)}.`, { option: `${at}.url` });
    return entry as McpServerConfig;
  });
}
