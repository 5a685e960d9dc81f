/**
 * Hostile MCP servers, written by hand against the JSON-RPC wire so they can break every rule
 * the SDK would keep: lists that never end, answers over any size, answers that never come,
 * garbage on stdout, wrong ids, tools with hostile names and schemas, floods of notifications,
 * echoes of the credentials they were given. One scenario per server; `hostileServer()` answers
 * each message it receives through `out`, so the same scenarios run over stdio and HTTP.
 */

/** What a scenario writes: a JSON-RPC message, or raw text (garbage, a line without its end). */
export interface HostileOut {
  send(message: object): void;
  raw(text: string): void;
  exit(code: number): void;
  /** Where to log "call <name>" lines the tests read (stdio only). */
  log(line: string): void;
  /** Whether this is the first process of the scenario (crash-after-list crashes only the first). */
  first: boolean;
}

/** The scenarios, by name. */
export const HOSTILE_SCENARIOS = [
  'endless-pages',
  'same-cursor',
  'huge-list',
  'huge-result',
  'garbage-flood',
  'slow',
  'progress',
  'progress-forever',
  'crash-mid-call',
  'crash-after-list',
  'exit-at-start',
  'never-initializes',
  'garbage-stdout',
  'invalid-jsonrpc',
  'wrong-ids',
  'hostile-names',
  'hostile-schemas',
  'notification-flood',
  'server-requests',
  'credential-echo',
  'huge-description',
  'image-bomb',
  'bad-content',
  'list-changed-loop',
] as const;

export type HostileScenario = (typeof HOSTILE_SCENARIOS)[number];

const object = { type: 'object', properties: {} };
const tool = (name: string, extra: object = {}) => ({
  name,
  description: `the ${name} tool`,
  inputSchema: object,
  ...extra,
});

/** `n` levels of objects inside each other, as a schema. */
function deep(n: number): object {
  let schema: object = { type: 'object' };
  for (let i = 0; i < n; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

/** The tools each scenario lists (one page, unless it paginates). */
function toolsOf(scenario: HostileScenario): object[] {
  switch (scenario) {
    case 'huge-list':
      return Array.from({ length: 20_000 }, (_, i) => tool(`t${i}`));
    case 'hostile-names':
      return ['files.read', 'files_read', 'a b', '', 'x'.repeat(200), 'ünï', 'dup', 'dup', '../../etc'].map((n) =>
        tool(n),
      );
    case 'hostile-schemas':
      return [
        tool('fine'),
        { name: 'string_schema', inputSchema: { type: 'string' } },
        { name: 'null_schema', inputSchema: null },
        { name: 'deep_schema', inputSchema: deep(100) },
        { name: 'long_schema', inputSchema: { type: 'object', description: 'd'.repeat(2_000_000) } },
        { name: 'bad_type', inputSchema: { type: 'objekt' } },
        { name: 'self_ref', inputSchema: { type: 'object', properties: { next: { $ref: '#' } } } },
        { name: 'no_name_schema' },
      ];
    case 'huge-description':
      return [tool('wordy', { description: 'w'.repeat(1_000_000) })];
    case 'bad-content':
      return [
        tool('not_array'),
        tool('unknown_parts'),
        tool('wrong_structure', {
          outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
        }),
        tool('no_structure', { outputSchema: { type: 'object' } }),
      ];
    default:
      return ['echo', 'big', 'slow', 'progress', 'crash', 'junk', 'flood', 'ask', 'echo_secret', 'image'].map((n) =>
        tool(n),
      );
  }
}

/** A server of `scenario`; `secret` is what it echoes back (a credential it was given). */
export function hostileServer(scenario: HostileScenario, out: HostileOut, secret = '') {
  let lists = 0;
  const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
  const answer = (id: unknown, result: object) => out.send({ jsonrpc: '2.0', id, result });

  function call(id: unknown, name: string, args: Record<string, unknown>, token: unknown) {
    out.log(`call ${name}`);
    const progress = (n: number) =>
      out.send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: n, total: 10 },
      });
    if (scenario === 'slow' || name === 'slow') return; // never answers
    if (scenario === 'invalid-jsonrpc') return out.send({ jsonrpc: '1.0', id, answer: text('nope') });
    if (scenario === 'wrong-ids') return answer(Number(id) + 1000, text('for someone else'));
    if (scenario === 'crash-mid-call' || name === 'crash') return out.exit(3);
    if (scenario === 'progress-forever') {
      let n = 0;
      const timer = setInterval(() => progress(n++), 50);
      timer.unref?.();
      return;
    }
    if (scenario === 'progress') {
      let n = 0;
      const timer = setInterval(() => {
        if (n < 10) return progress(++n);
        clearInterval(timer);
        answer(id, text('done after 10 steps'));
      }, 100);
      return;
    }
    if (scenario === 'garbage-stdout') out.raw('this is not JSON\n{"half": \n\n');
    if (scenario === 'notification-flood' || name === 'flood') {
      for (let i = 0; i < 20_000; i++) {
        const kinds = [
          { method: 'notifications/message', params: { level: 'info', data: `log ${i}` } },
          { method: 'notifications/tools/list_changed' },
          { method: 'notifications/progress', params: { progressToken: 'unknown', progress: i } },
          { method: 'notifications/resources/updated', params: { uri: 'file:///x' } },
        ];
        out.send({ jsonrpc: '2.0', ...kinds[i % kinds.length] });
      }
    }
    if (scenario === 'server-requests' || name === 'ask') {
      out.send({
        jsonrpc: '2.0',
        id: 's1',
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 },
      });
      out.send({
        jsonrpc: '2.0',
        id: 's2',
        method: 'elicitation/create',
        params: {
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        },
      });
      out.send({ jsonrpc: '2.0', id: 's3', method: 'roots/list' });
    }
    if (name === 'junk') out.raw(`${'#'.repeat(3_000_000)}\n`);
    if (name === 'big') return answer(id, text('b'.repeat(Number(args.chars ?? 12_000_000))));
    if (name === 'image')
      return answer(id, {
        content: [{ type: 'image', mimeType: 'image/png', data: 'A'.repeat(Number(args.chars ?? 3_000_000)) }],
      });
    if (name === 'echo_secret') {
      const forms = [
        secret,
        Buffer.from(secret).toString('base64'),
        Buffer.from(secret).toString('hex'),
        encodeURIComponent(encodeURIComponent(secret)),
      ];
      return answer(id, {
        content: [{ type: 'text', text: `you sent ${forms.join(' ')}` }],
        isError: args.fail === true,
      });
    }
    if (name === 'not_array') return answer(id, { content: 'a string' });
    if (name === 'unknown_parts')
      return answer(id, {
        content: [
          { type: 'hologram', data: 1 },
          { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
          { type: 'resource_link', uri: 'file:///r.txt', name: 'r.txt' },
          { type: 'resource', resource: { uri: 'file:///e.txt', text: 'embedded text' } },
        ],
      });
    if (name === 'wrong_structure') return answer(id, { content: [], structuredContent: { n: 'not a number' } });
    if (name === 'no_structure') return answer(id, text('no structured content'));
    answer(id, text(`${name} ran with ${JSON.stringify(args)}`));
  }

  return (message: Record<string, unknown>) => {
    const { id, method } = message;
    const params = (message.params ?? {}) as Record<string, unknown>;
    if (typeof method !== 'string') return id === undefined ? undefined : out.log(`answer ${JSON.stringify(message)}`);
    if (id === undefined) return; // notifications
    if (method === 'initialize') {
      if (scenario === 'never-initializes') return;
      return answer(id, {
        protocolVersion: params.protocolVersion ?? '2025-06-18',
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: `hostile-${scenario}`, version: '1' },
      });
    }
    if (method === 'tools/list') {
      lists++;
      const cursor = Number(params.cursor ?? 0);
      if (scenario === 'endless-pages') {
        out.log(`page ${cursor}`);
        return answer(id, { tools: [tool(`page${cursor}`)], nextCursor: String(cursor + 1) });
      }
      if (scenario === 'same-cursor') return answer(id, { tools: [tool('again')], nextCursor: 'again' });
      answer(id, { tools: toolsOf(scenario) });
      if (scenario === 'list-changed-loop') out.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      if (scenario === 'crash-after-list' && lists === 1 && out.first) out.exit(4);
      return;
    }
    if (method === 'tools/call') {
      const meta = (params._meta ?? {}) as Record<string, unknown>;
      return call(id, String(params.name), (params.arguments ?? {}) as Record<string, unknown>, meta.progressToken);
    }
    if (method === 'ping') return answer(id, {});
    out.send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } });
  };
}
