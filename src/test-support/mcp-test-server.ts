/**
 * A real MCP server written with the official SDK, for the MCP tests: its tools echo, fail,
 * wait for cancellation, crash the process, return a large text or add a tool (and send
 * notifications/tools/list_changed). The tool list is served in pages of `pageSize`.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/** Options of the test server. */
export interface TestMcpServerOptions {
  /** Tools listed per page (tools/list pagination); all at once when absent. */
  pageSize?: number;
  /** Extra tools named filler_0 .. filler_{n-1}, for long lists. */
  fillers?: number;
  /** Told "cancelled <id>" when a call is cancelled. */
  log?: (line: string) => void;
}

const object = (properties: Record<string, object>, required: string[] = []): Tool['inputSchema'] => ({
  type: 'object',
  properties,
  required,
});

/** `chars` characters of numbered lines of words, as a file or a log an MCP tool returns. */
function lines(chars: number): string {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += `line ${i}: the quick brown fox jumps over the lazy dog\n`;
  return out.slice(0, chars);
}

/** A new server with the test tools. `cancelled` collects the ids of calls whose request was cancelled. */
export function createTestMcpServer(options: TestMcpServerOptions = {}): { server: Server; cancelled: string[] } {
  const server = new Server(
    { name: 'lousho-test', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  const cancelled: string[] = [];
  const tools: Tool[] = [
    { name: 'echo', description: 'Echo the text back', inputSchema: object({ text: { type: 'string' } }, ['text']) },
    { name: 'fail', description: 'Always fails', inputSchema: object({}) },
    { name: 'wait', description: 'Waits until cancelled', inputSchema: object({}) },
    { name: 'crash', description: 'Ends the server process', inputSchema: object({}) },
    {
      name: 'big',
      description: 'Returns `chars` characters of text',
      inputSchema: object({ chars: { type: 'number' } }),
    },
    { name: 'add_tool', description: 'Adds a tool named `name`', inputSchema: object({ name: { type: 'string' } }) },
  ];
  for (let i = 0; i < (options.fillers ?? 0); i++)
    tools.push({ name: `filler_${i}`, description: `Filler tool number ${i} of a long list`, inputSchema: object({}) });

  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const size = options.pageSize ?? tools.length;
    const page = tools.slice(start, start + size);
    const next = start + size < tools.length ? String(start + size) : undefined;
    return { tools: page, ...(next === undefined ? {} : { nextCursor: next }) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
    switch (request.params.name) {
      case 'echo':
        return text(`echo: ${String(args.text)}`);
      case 'fail':
        return { content: [{ type: 'text', text: 'the disk is full' }], isError: true };
      case 'wait':
        return new Promise((resolve) => {
          extra.signal.addEventListener('abort', () => {
            cancelled.push(String(extra.requestId));
            options.log?.(`cancelled ${String(extra.requestId)}`);
            resolve(text('cancelled'));
          });
        });
      case 'crash':
        process.exit(3);
        break;
      case 'big':
        return text(lines(Number(args.chars ?? 1000)));
      case 'add_tool': {
        const name = String(args.name);
        tools.push({ name, description: 'Added at run time', inputSchema: object({}) });
        await server.sendToolListChanged();
        return text(`added ${name}`);
      }
      default:
        if (tools.some((t) => t.name === request.params.name)) return text(`${request.params.name} ran`);
        throw new Error(`unknown tool ${request.params.name}`);
    }
  });
  return { server, cancelled };
}
