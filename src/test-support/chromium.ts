/**
 * A real headless Chromium driven over the Chrome DevTools Protocol through its
 * --remote-debugging-pipe (file descriptors 3 and 4, messages ended by a NUL byte): no
 * dependency and no browser download; Debian's `chromium` package is what `.ci/run` installs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const TIMEOUT_MS = 30_000;

/** The Chromium to use: $LOUSHO_CHROMIUM, else the first of Debian's usual paths that exists. */
export function findChromium(): string | undefined {
  const named = process.env.LOUSHO_CHROMIUM;
  if (named !== undefined && named !== '') return existsSync(named) ? named : undefined;
  return CANDIDATES.find((path) => existsSync(path));
}

/** The launch flags that work on a bare machine as root: no sandbox, no GPU, nothing phoned home. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--remote-debugging-pipe',
];

type Params = Record<string, unknown>;
interface Message {
  id?: number;
  method?: string;
  params?: Params;
  sessionId?: string;
  result?: Params;
  error?: { message: string };
}

/** What a page did while it loaded and afterwards: console errors, uncaught exceptions, requests. */
export interface PageLog {
  errors: string[];
  requests: string[];
}

/** One open page: evaluate expressions in it, send it protocol commands, read what it logged. */
export interface BrowserPage {
  log: PageLog;
  evaluate<T>(expression: string): Promise<T>;
  send(method: string, params?: Params): Promise<Params>;
}

/** A running headless Chromium. */
export class Chromium {
  readonly #child: ChildProcess;
  readonly #dir: string;
  readonly #writer: Writable;
  #next = 1;
  readonly #pending = new Map<number, { resolve: (r: Params) => void; reject: (e: Error) => void }>();
  readonly #listeners = new Set<(message: Message) => void>();
  #stderr = '';

  private constructor(child: ChildProcess, dir: string) {
    this.#child = child;
    this.#dir = dir;
    this.#writer = child.stdio[3] as Writable;
    let buffer = '';
    (child.stdio[4] as Readable).on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\0'); end >= 0; end = buffer.indexOf('\0')) {
        const message = JSON.parse(buffer.slice(0, end)) as Message;
        buffer = buffer.slice(end + 1);
        this.#receive(message);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('exit', () => {
      for (const { reject } of this.#pending.values()) reject(new Error(`chromium exited: ${this.#stderr}`));
      this.#pending.clear();
    });
  }

  /** Starts Chromium at `path` with {@link CHROMIUM_FLAGS} and a new empty profile folder. */
  static async launch(path: string): Promise<Chromium> {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-chromium-'));
    const child = spawn(path, [...CHROMIUM_FLAGS, `--user-data-dir=${dir}`, 'about:blank'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    });
    const browser = new Chromium(child, dir);
    await browser.send('Browser.getVersion');
    return browser;
  }

  #receive(message: Message): void {
    if (message.id !== undefined) {
      const waiting = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (message.error !== undefined) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result ?? {});
      return;
    }
    for (const listener of this.#listeners) listener(message);
  }

  /** Sends one protocol command (to a page when `sessionId` is given) and resolves to its result. */
  send(method: string, params: Params = {}, sessionId?: string): Promise<Params> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`chromium did not answer ${method} within ${TIMEOUT_MS} ms`));
      }, TIMEOUT_MS);
      this.#pending.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.#writer.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  /** Opens `url` in a new page and resolves once its load event fired. */
  async open(url: string, viewport = { width: 1280, height: 900 }): Promise<BrowserPage> {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as {
      sessionId: string;
    };
    const log: PageLog = { errors: [], requests: [] };
    let loaded: () => void = () => {};
    const load = new Promise<void>((resolve) => {
      loaded = resolve;
    });
    this.#listeners.add((m) => {
      if (m.sessionId !== sessionId) return;
      const p = m.params ?? {};
      if (m.method === 'Page.loadEventFired') loaded();
      else if (m.method === 'Network.requestWillBeSent') log.requests.push(String((p.request as Params).url));
      else if (m.method === 'Runtime.exceptionThrown') log.errors.push(JSON.stringify(p.exceptionDetails));
      else if (m.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'warning'))
        log.errors.push(`console.${p.type}: ${JSON.stringify(p.args)}`);
      else if (m.method === 'Log.entryAdded' && ['error', 'warning'].includes(String((p.entry as Params).level)))
        log.errors.push(`${(p.entry as Params).level}: ${(p.entry as Params).text}`);
    });
    const send = (method: string, params: Params = {}) => this.send(method, params, sessionId);
    for (const domain of ['Page', 'Runtime', 'Network', 'Log']) await send(`${domain}.enable`);
    await send('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor: 1, mobile: false });
    await send('Page.navigate', { url });
    await load;
    return {
      log,
      send,
      async evaluate<T>(expression: string): Promise<T> {
        const { result, exceptionDetails } = (await send('Runtime.evaluate', {
          expression,
          returnByValue: true,
          awaitPromise: true,
        })) as { result: { value: T }; exceptionDetails?: unknown };
        if (exceptionDetails !== undefined) throw new Error(`evaluate failed: ${JSON.stringify(exceptionDetails)}`);
        return result.value;
      },
    };
  }

  /** Closes the browser and removes its profile folder. */
  async close(): Promise<void> {
    const exited =
      this.#child.exitCode !== null || this.#child.signalCode !== null
        ? Promise.resolve()
        : new Promise((resolve) => this.#child.once('exit', resolve));
    await this.send('Browser.close').catch(() => {});
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    await rm(this.#dir, { recursive: true, force: true });
  }
}
