import { type ChildProcess, spawn } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MessageBuffer, oversizeAnswer } from './mcp-oversize.js';
import type { McpSdk } from './mcp-sdk.js';

/** How the server process is started. */
export interface StdioParams {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** How long close() waits for the process to exit after stdin closes, and again after SIGTERM. */
const EXIT_WAIT_MS = 2000;

/**
 * The client side of the stdio transport, one JSON-RPC message a line, with every message
 * bounded: a line over `limit` bytes is dropped unread (its request gets an error answer
 * saying so, see oversizeAnswer()) and the server keeps running; a line that is not JSON-RPC
 * is reported to onerror and skipped. Lines are joined once, when they end, so a long message
 * costs time in proportion to its size.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #params: StdioParams;
  readonly #sdk: McpSdk;
  readonly #line: MessageBuffer;
  /** The ids of our requests still waiting for an answer. */
  readonly #waiting = new Set<string | number>();
  #process: ChildProcess | undefined;

  constructor(params: StdioParams, limit: number, sdk: McpSdk) {
    this.#params = params;
    this.#line = new MessageBuffer(limit);
    this.#sdk = sdk;
  }

  /** The server process's pid, once started. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  start(): Promise<void> {
    const { command, args = [], env, cwd } = this.#params;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        env: { ...this.#sdk.stdio.getDefaultEnvironment(), ...env },
        stdio: ['pipe', 'pipe', 'inherit'],
        shell: false,
        ...(cwd === undefined ? {} : { cwd }),
      });
      this.#process = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        this.#process = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.#read(chunk));
    });
  }

  #read(chunk: Buffer): void {
    let rest = chunk;
    for (let end = rest.indexOf(10); end !== -1; end = rest.indexOf(10)) {
      this.#line.add(rest.subarray(0, end));
      rest = rest.subarray(end + 1);
      this.#endLine();
    }
    this.#line.add(rest);
  }

  #endLine(): void {
    const line = this.#line.take();
    if (!('text' in line)) {
      const answer = oversizeAnswer(line.ends, line.bytes, this.#line.limit, [...this.#waiting]);
      if (answer === undefined) this.onerror?.(new Error(`dropped a message of ${line.bytes} bytes (maxMessageBytes)`));
      else this.#deliver(answer);
      return;
    }
    const text = line.text.replace(/\r$/, '');
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.onerror?.(new Error(`the server wrote a line that is not JSON: ${text.slice(0, 80)}`));
      return;
    }
    const checked = this.#sdk.types.JSONRPCMessageSchema.safeParse(parsed);
    if (checked.success) this.#deliver(checked.data);
    else this.onerror?.(new Error(`the server wrote JSON that is not JSON-RPC: ${text.slice(0, 80)}`));
  }

  #deliver(message: JSONRPCMessage): void {
    if (!('method' in message) && 'id' in message && message.id !== undefined) this.#waiting.delete(message.id);
    this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#process?.stdin;
    if (stdin === undefined || stdin === null) return Promise.reject(new Error('Not connected'));
    if ('method' in message && 'id' in message) this.#waiting.add(message.id);
    return new Promise((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Ends the process: stdin closed, then SIGTERM, then SIGKILL, each after EXIT_WAIT_MS. */
  async close(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (child === undefined) return;
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const wait = () => Promise.race([exited, new Promise((r) => setTimeout(r, EXIT_WAIT_MS).unref())]);
    child.stdin?.end();
    await wait();
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (child.exitCode !== null || child.signalCode !== null) break;
      child.kill(signal);
      if (signal === 'SIGTERM') await wait();
    }
    this.#line.take();
  }
}
