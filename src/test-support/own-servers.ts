/**
 * A Redis or PostgreSQL server of the test's own, on a free loopback port, that the test may
 * restart (the shared servers REDIS_URL and LOUSHO_PG_URL name are never restarted). They run
 * the binaries .ci/run installs (redis-server; Debian's postgresql, whose initdb and server run
 * as the postgres user when the tests run as root); when they are missing, start*() resolves
 * to the reason, which the test prints as its skip note.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';

const run = promisify(execFile);

/** A server of the test's own. */
export interface OwnServer {
  url: string;
  /** Kills the server at once (SIGKILL for Redis, an immediate shutdown for Postgres) and starts it again on the same port and data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function onPath(binary: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) if (existsSync(join(dir, binary))) return join(dir, binary);
  return undefined;
}

/** Asks until `ready` resolves (the server just started), for up to 30 s. */
async function untilReady(ready: () => Promise<unknown>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await ready();
      return;
    } catch (error) {
      if (attempt > 300) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** A redis-server with an append-only file synced on every write, so a kill loses nothing it acknowledged. */
export async function startRedis(): Promise<OwnServer | string> {
  const binary = onPath('redis-server');
  if (binary === undefined) return 'redis-server is not installed (.ci/run installs it)';
  const dir = await mkdtemp(join(tmpdir(), 'lousho-own-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn(
      binary,
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''],
        ...['--appendonly', 'yes', '--appendfsync', 'always'],
      ],
      { stdio: 'ignore' },
    );
    await untilReady(async () => {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => {});
      try {
        await probe.connect();
        await probe.ping();
      } finally {
        probe.disconnect();
      }
    });
  };
  const kill = async () => {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server?.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url, restart: () => kill().then(start), stop: kill };
}

function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(a) - Number(b)) : [];
  const bin = versions.map((v) => join(root, v, 'bin')).findLast((b) => existsSync(join(b, 'initdb')));
  if (bin !== undefined) return bin;
  const initdb = onPath('initdb');
  return initdb === undefined ? undefined : join(initdb, '..');
}

/** A PostgreSQL cluster in a temporary folder (initdb), listening on a free loopback port only. */
export async function startPostgres(): Promise<OwnServer | string> {
  const bin = postgresBin();
  if (bin === undefined) return "PostgreSQL's initdb is not installed (.ci/run installs Debian's postgresql)";
  const root = process.getuid?.() === 0;
  const asPostgres = (command: string, args: string[]) =>
    root ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args);
  const dir = await mkdtemp(join(tmpdir(), 'lousho-own-pg-'));
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']).catch(() => ({ stdout: '' }));
    if (stdout.trim() === '') return 'the tests run as root and there is no postgres user to run PostgreSQL as';
    await chown(dir, Number(stdout.trim()), Number((await run('id', ['-g', 'postgres'])).stdout.trim()));
    await chmod(dir, 0o700);
  }
  const data = join(dir, 'data');
  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres']);
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => {
    await asPostgres('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', options, 'start']);
    await untilReady(async () => {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => {});
      await client.connect();
      await client.end();
    });
  };
  const stop = () => asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).then(() => {});
  await start();
  return { url, restart: () => stop().then(start), stop };
}
