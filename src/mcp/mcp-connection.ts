import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { abortedError } from '../errors/lousho-error.js';
import { registerSecretHeaders, registerSecretUrl } from '../errors/redact.js';
import { abortable, isAborted } from '../providers/abortable.js';
import { mcpServerError, requestError } from './mcp-errors.js';
import { listAll } from './mcp-list.js';
import { loadSdk, type McpSdk } from './mcp-sdk.js';
import { type McpServerConfig, mcpOption } from './mcp-server-config.js';
import { answerServerRequests, CLIENT_CAPABILITIES, type SamplingModel } from './mcp-server-requests.js';
import { type McpTransport, mcpTransport } from './mcp-transport.js';

/** A connected client; `lost` once the server went away without close(). */
interface Live {
  client: Client;
  sdk: McpSdk;
  lost?: Error;
  closing?: boolean;
}

/** A tool listing that every caller waits for, stopped when the last one stops waiting before it ends. */
interface SharedListing {
  list: Promise<unknown[]>;
  stop: AbortController;
  waiting: number;
  done?: boolean;
}

/** What a request takes besides its method and params. */
export interface McpRequestOptions {
  signal?: AbortSignal | undefined;
  /** Asks the server for progress notifications (each one starts timeoutMs again). */
  onprogress?: ((progress: Progress) => void) | undefined;
}

/**
 * One MCP server: connected on first use (declaring roots, sampling and elicitation), every
 * request bounded by timeoutMs and maxTotalTimeoutMs and raced with the caller's abort
 * signal, its tool list cached until the server says it changed. A server that exits is
 * started again by the next request; a request it was answering fails with
 * LOUSHO_MCP_SERVER_FAILED. close() ends the connection (a stdio server's process with it).
 */
export class McpConnection {
  readonly config: McpServerConfig;
  readonly #model: SamplingModel;
  #live: Promise<Live> | undefined;
  /** Counts the connections made, so a closed one's late events do not touch its successor. */
  #generation = 0;
  /** The tool listing under way or done, shared by every caller; stopped once no caller waits for it. */
  #tools: SharedListing | undefined;
  #finishAuth: McpTransport['finishAuth'];

  constructor(config: McpServerConfig, model: SamplingModel) {
    this.config = config;
    this.#model = model;
    if ('headers' in config) registerSecretHeaders(config.headers);
    if ('url' in config) registerSecretUrl(config.url);
    if ('env' in config) registerSecretHeaders(config.env);
  }

  #connect(): Promise<Live> {
    this.#live ??= this.#open(++this.#generation);
    return this.#live;
  }

  async #open(generation: number): Promise<Live> {
    const sdk = await loadSdk();
    const c = this.config;
    const client = new sdk.client.Client(
      { name: '@lousho/build-ai-agent', version: '1' },
      { capabilities: CLIENT_CAPABILITIES },
    );
    answerServerRequests(client, sdk, c, this.#model);
    client.setNotificationHandler(sdk.types.ToolListChangedNotificationSchema, async () => {
      this.#tools = undefined;
    });
    // Lines that are not JSON-RPC, answers to no request: the requests they concern time out.
    client.onerror = () => undefined;
    const live: Live = { client, sdk };
    client.onclose = () => {
      if (live.closing === true) return;
      live.lost = new Error('the connection closed (the server exited or crashed)');
      if (this.#generation === generation) {
        this.#live = undefined;
        this.#tools = undefined;
      }
    };
    const transport = mcpTransport(c, sdk);
    try {
      await client.connect(transport.transport, { timeout: mcpOption(c, 'timeoutMs') });
    } catch (error) {
      if (this.#generation === generation) this.#live = undefined;
      live.closing = true;
      await client.close().catch(() => undefined);
      if (error instanceof sdk.auth.UnauthorizedError) {
        this.#finishAuth = transport.finishAuth;
        throw mcpServerError(c.name, 'needs authorization', error, 'unauthorized', authAdvice(c.name));
      }
      throw mcpServerError(c.name, 'could not be started or reached', error, 'unreachable');
    }
    return live;
  }

  /** Sends one request; resolves to its result, or rejects with a redacted Error the caller can show. */
  async request(method: string, params: Record<string, unknown>, options: McpRequestOptions = {}) {
    const { signal, onprogress } = options;
    // An aborted caller starts nothing: not a server, not a request (a listing it left stops here).
    if (isAborted(signal)) throw abortedError();
    const live = await abortable(this.#connect(), signal);
    const timeoutMs = mcpOption(this.config, 'timeoutMs');
    try {
      const sent = live.client.request({ method, params } as never, live.sdk.types.ResultSchema, {
        timeout: timeoutMs,
        maxTotalTimeout: mcpOption(this.config, 'maxTotalTimeoutMs'),
        resetTimeoutOnProgress: true,
        ...(signal === undefined ? {} : { signal }),
        ...(onprogress === undefined ? {} : { onprogress }),
      });
      return (await abortable(sent, signal)) as Record<string, unknown>;
    } catch (error) {
      if (signal?.aborted === true) throw abortedError();
      if (live.lost !== undefined)
        throw mcpServerError(this.config.name, `exited during ${method}`, live.lost, 'crashed');
      throw requestError(error, this.config.name, method, timeoutMs);
    }
  }

  /** Every entry of a paginated list, within maxListPages and maxListItems. */
  async list(method: string, key: Parameters<typeof listAll>[1], signal?: AbortSignal): Promise<unknown[]> {
    const bounds = {
      maxListPages: mcpOption(this.config, 'maxListPages'),
      maxListItems: mcpOption(this.config, 'maxListItems'),
    };
    const page = (cursor: string | undefined) =>
      this.request(method, cursor === undefined ? {} : { cursor }, { signal });
    return listAll(this.config.name, key, page, bounds);
  }

  /** The server's tools (as it lists them), cached until it says the list changed or it exits. */
  tools(signal?: AbortSignal): Promise<unknown[]> {
    let listing = this.#tools;
    if (listing === undefined) {
      const stop = new AbortController();
      const started: SharedListing = { list: this.list('tools/list', 'tools', stop.signal), stop, waiting: 0 };
      started.list.then(
        () => {
          started.done = true;
        },
        () => {
          started.done = true;
          if (this.#tools === started) this.#tools = undefined;
        },
      );
      this.#tools = listing = started;
    }
    const shared = listing;
    shared.waiting++;
    const waited = abortable(shared.list, signal).finally(() => {
      // The last caller gone before the list ended: it stops, and the next caller lists again.
      if (--shared.waiting > 0 || shared.done === true) return;
      shared.stop.abort();
      if (this.#tools === shared) this.#tools = undefined;
    });
    return waited.catch((error: unknown) => {
      if (signal?.aborted === true) throw abortedError();
      if (error instanceof Error && 'code' in error && error.code === 'LOUSHO_MCP_SERVER_FAILED') throw error;
      throw mcpServerError(this.config.name, 'could not list its tools', error, 'unreachable');
    });
  }

  /** Finishes an OAuth authorization the server asked for: the code the authorization page gave back. */
  async finishAuth(code: string): Promise<void> {
    if (this.#finishAuth === undefined)
      throw mcpServerError(
        this.config.name,
        'has no authorization waiting',
        new Error('nothing to finish'),
        'unauthorized',
        'Run the agent first: it starts the authorization when the server asks for one.',
      );
    await this.#finishAuth(code);
    this.#finishAuth = undefined;
  }

  /** Ends the connection (and the process of a stdio server). Safe to call more than once; a later request connects again. */
  async close(): Promise<void> {
    const live = this.#live;
    this.#live = undefined;
    this.#tools?.stop.abort(); // a listing under way starts no server again
    this.#tools = undefined;
    const client = await live?.catch(() => undefined);
    if (client === undefined) return;
    client.closing = true;
    await client.client.close();
  }
}

/** What to do when a server needs authorization. */
function authAdvice(server: string): string {
  return (
    'Its authProvider was sent to the authorization page (redirectToAuthorization); with the code that page ' +
    `gives back, call agent.mcp.server('${server}').finishAuth(code), then run again.`
  );
}
