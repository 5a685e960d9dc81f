/**
 * The reference MCP servers from npm (dev dependencies): @modelcontextprotocol/server-everything,
 * -filesystem and -memory, as mcpServers entries over stdio, and server-everything as a real
 * HTTP server (streamable HTTP or the legacy SSE transport) on a free loopback port.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { McpStdioServerConfig } from '../mcp/mcp-server-config.js';

const require = createRequire(import.meta.url);

/** The program of an npm server package (its package.json's only bin). */
export function npmServerBin(pkg: 'server-everything' | 'server-filesystem' | 'server-memory'): string {
  const manifest = require.resolve(`@modelcontextprotocol/${pkg}/package.json`);
  const { bin } = require(manifest) as { bin: Record<string, string> };
  return join(dirname(manifest), Object.values(bin)[0] as string);
}

/** An mcpServers entry running an npm server over stdio with Node. */
export function npmStdioServer(
  pkg: Parameters<typeof npmServerBin>[0],
  args: string[] = [],
  extra: Partial<McpStdioServerConfig> = {},
): McpStdioServerConfig {
  return { name: pkg.replace('server-', ''), command: process.execPath, args: [npmServerBin(pkg), ...args], ...extra };
}

/** A port no one listens on now (the server is told to take it). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** server-everything over HTTP, reached on 127.0.0.1. */
export interface EverythingHttp {
  url: string;
  close(): Promise<void>;
}

/** Starts server-everything's streamable HTTP (`/mcp`) or SSE (`/sse`) server; resolves once it listens. */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse'): Promise<EverythingHttp> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [npmServerBin('server-everything'), mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      said += chunk;
      if (/listening on port|running on port/i.test(said)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`server-everything ${mode} exited with ${code}: ${said}`)));
  });
  const path = mode === 'sse' ? '/sse' : '/mcp';
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
