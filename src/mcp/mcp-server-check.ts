import { checkNumber, checkOptions, describe } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';
import type {
  McpHttpServerConfig,
  McpServerConfig,
  McpServerOptions,
  McpStdioServerConfig,
} from './mcp-server-config.js';

const COMMON_KEYS: (keyof McpServerOptions)[] = [
  'name',
  'prefix',
  'needsApproval',
  'maxResultChars',
  'toolFilter',
  'timeoutMs',
  'maxTotalTimeoutMs',
  'maxMessageBytes',
  'maxListPages',
  'maxListItems',
  'roots',
  'sampling',
  'onElicitation',
];
const STDIO_KEYS: (keyof McpStdioServerConfig)[] = [...COMMON_KEYS, 'command', 'args', 'env', 'cwd'];
const HTTP_KEYS: (keyof McpHttpServerConfig)[] = [...COMMON_KEYS, 'url', 'headers', 'transport', 'authProvider'];

const isStrings = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string');

function stringRecord(value: unknown, where: string): void {
  if (value === undefined) return;
  const ok =
    typeof value === 'object' && value !== null && Object.values(value as object).every((v) => typeof v === 'string');
  if (!ok) throw configError(`${where} must be an object of strings, got ${describe(value)}.`, { option: where });
}

/** Checks what both kinds of entry take, `at` naming the entry (mcpServers[0]). */
function checkCommon(e: Record<string, unknown>, at: string, where: string): void {
  if (e.prefix !== undefined && typeof e.prefix !== 'string')
    throw configError(`${at}.prefix must be a string.`, { option: `${at}.prefix` });
  const ask = e.needsApproval;
  if (ask !== undefined && typeof ask !== 'boolean' && !isStrings(ask))
    throw configError(`${at}.needsApproval must be true, false or an array of tool names.`, {
      option: `${at}.needsApproval`,
    });
  if (e.maxResultChars !== Number.POSITIVE_INFINITY)
    checkNumber(e.maxResultChars, 'maxResultChars', where, { min: 1, integer: true });
  for (const key of ['timeoutMs', 'maxTotalTimeoutMs', 'maxMessageBytes', 'maxListPages', 'maxListItems'])
    checkNumber(e[key], key, where, { min: 1, integer: true });
  const filter = e.toolFilter as Record<string, unknown> | undefined;
  if (filter !== undefined && typeof filter !== 'function') {
    checkOptions(filter, `${where}: toolFilter`, ['allow', 'deny']);
    for (const key of ['allow', 'deny'] as const)
      if (filter[key] !== undefined && !isStrings(filter[key]))
        throw configError(`${at}.toolFilter.${key} must be an array of tool names.`, { option: `${at}.toolFilter` });
  }
  const roots = e.roots;
  if (
    roots !== undefined &&
    !(Array.isArray(roots) && roots.every((r) => typeof r?.uri === 'string' && r.uri.startsWith('file://')))
  )
    throw configError(`${at}.roots must be an array of { uri: 'file:///...', name? }.`, { option: `${at}.roots` });
  const sampling = e.sampling as Record<string, unknown> | undefined;
  if (sampling !== undefined) {
    checkOptions(sampling, `${where}: sampling`, ['model', 'approve']);
    if (typeof sampling.approve !== 'function')
      throw configError(
        `${at}.sampling.approve must be a function (request) => boolean: each sampling request waits for it. Pass approve: () => true to allow them all.`,
        { option: `${at}.sampling.approve` },
      );
  }
  if (e.onElicitation !== undefined && typeof e.onElicitation !== 'function')
    throw configError(`${at}.onElicitation must be a function (request) => ({ action, content }).`, {
      option: `${at}.onElicitation`,
    });
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
    const where = `createAgent(): MCP server '${e.name}'`;
    const stdio = typeof e.command === 'string';
    if (stdio === (typeof e.url === 'string'))
      throw configError(`${where} needs either command (a stdio server) or url (an HTTP server).`, { option: at });
    checkOptions(entry, where, (stdio ? STDIO_KEYS : HTTP_KEYS) as never);
    checkCommon(e, at, where);
    if (e.args !== undefined && !isStrings(e.args))
      throw configError(`${at}.args must be an array of strings.`, { option: `${at}.args` });
    stringRecord(e.env, `${at}.env`);
    stringRecord(e.headers, `${at}.headers`);
    if (e.cwd !== undefined && typeof e.cwd !== 'string')
      throw configError(`${at}.cwd must be a string.`, { option: `${at}.cwd` });
    if (e.transport !== undefined && e.transport !== 'streamable-http' && e.transport !== 'sse')
      throw configError(`${at}.transport must be 'streamable-http' or 'sse', got ${describe(e.transport)}.`, {
        option: `${at}.transport`,
      });
    if (!stdio && !URL.canParse(e.url as string))
      throw configError(`${at}.url is not a URL: ${describe(e.url)}.`, { option: `${at}.url` });
    return entry as McpServerConfig;
  });
}
