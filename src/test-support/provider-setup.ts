import { afterEach, beforeEach } from 'vitest';
import { type Handler, type LoopbackServer, startLoopbackServer } from './loopback-server.js';

/** Every variable a built-in provider reads. */
export const PROVIDER_ENV_KEYS = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENROUTER_API_KEY',
  'OPENROUTER_BASE_URL',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OLLAMA_HOST',
  'LMSTUDIO_BASE_URL',
] as const;

/** Removes the variables before each test of the file and puts them back after it. */
export function isolateEnv(keys: readonly string[] = PROVIDER_ENV_KEYS): void {
  let saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    saved = {};
    for (const key of keys) {
      saved[key] = process.env[key];
      delete process.env[key];
    }
  });
  afterEach(() => {
    for (const key of keys) {
      const value = saved[key];
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
}

/** A serve() whose loopback servers close after each test of the file. */
export function useLoopbackServers(): (handler: Handler) => Promise<LoopbackServer> {
  const servers: LoopbackServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (handler) => {
    const server = await startLoopbackServer(handler);
    servers.push(server);
    return server;
  };
}

/** The URL of a port nothing listens on (a server that was started and closed). */
export async function closedPortUrl(): Promise<string> {
  const server = await startLoopbackServer(() => {});
  await server.close();
  return server.url;
}

/** Rejects when `promise` has not settled after `ms`: turns a hang into a failure (a guard, not a speed check). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
