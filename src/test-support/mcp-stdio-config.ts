import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpStdioServerConfig } from '../mcp/mcp-server-config.js';
import { commandFor } from './child-process.js';
import type { HostileScenario } from './mcp-hostile.js';

/** The test MCP server over stdio as an mcpServers entry, with the lines it logs and the pids it started with. */
export interface StdioMcpTestServer {
  config: McpStdioServerConfig;
  /** What the servers started with this config logged ("pid <pid>", "cancelled <id>"). */
  lines(): string[];
  /** The pid of every process started with this config so far, oldest first. */
  pids(): number[];
}

/** An mcpServers entry that runs src/test-support/mcp-stdio-server.ts (`args`: [pageSize, fillers]). */
export function stdioMcpServer(
  name: string,
  args: string[] = [],
  extra: Partial<McpStdioServerConfig> = {},
): Promise<StdioMcpTestServer> {
  return scriptServer(name, 'mcp-stdio-server.ts', args, extra);
}

/** An mcpServers entry that runs a hostile server of src/test-support/mcp-hostile-server.ts. */
export function hostileStdioServer(
  scenario: HostileScenario,
  extra: Partial<McpStdioServerConfig> = {},
): Promise<StdioMcpTestServer> {
  return scriptServer(scenario, 'mcp-hostile-server.ts', [scenario], extra);
}

async function scriptServer(
  name: string,
  script: string,
  args: string[],
  extra: Partial<McpStdioServerConfig>,
): Promise<StdioMcpTestServer> {
  const log = join(await mkdtemp(join(tmpdir(), 'lousho-mcp-')), 'log');
  const config: McpStdioServerConfig = {
    name,
    command: process.execPath,
    args: [...(await commandFor(script)), ...args],
    ...extra,
    env: { MCP_TEST_LOG: log, ...extra.env },
  };
  const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n') : []);
  const pids = () =>
    lines()
      .filter((l) => l.startsWith('pid '))
      .map((l) => Number(l.slice(4)));
  return { config, lines, pids };
}

/** Whether the process `pid` is still running. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `check` holds, reading again every 20 ms (no timed assertion: the test's own timeout bounds it). */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}
