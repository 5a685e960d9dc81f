import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { LLMProvider, ModelSpec } from '../contracts/llm-provider.js';
import type { ContentPart, Message } from '../messages/types.js';
import { blockParts } from './mcp-content.js';
import type { McpSdk } from './mcp-sdk.js';
import type { McpServerConfig } from './mcp-server-config.js';

/** The model that answers a server's sampling requests: `sampling.model`, or the agent's own when it is absent. */
export type SamplingModel = (model: ModelSpec | undefined) => LLMProvider;

/** What the client tells every server it can do: list roots, sample the model, ask the user (form mode). */
export const CLIENT_CAPABILITIES = { roots: { listChanged: false }, sampling: {}, elicitation: { form: {} } };

/** JSON-RPC code of a request the user (or the client for them) declined, as the protocol's examples use it. */
const DECLINED = -1;

/** A sampling or prompt message as ours: its blocks as parts, a single text as a string. */
export function messageOf(message: { role?: unknown; content?: unknown }): Message {
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  const parts: ContentPart[] = blocks.map(blockParts);
  if (message.role === 'assistant') {
    const text = parts.map((p) => (p.type === 'text' ? p.text : '[image]')).join('\n');
    return { role: 'assistant', content: text };
  }
  const only = parts.length === 1 && parts[0]?.type === 'text' ? parts[0].text : undefined;
  return { role: 'user', content: only ?? parts };
}

/**
 * Answers the requests a server sends the client: roots/list with the entry's `roots` (none by
 * default); sampling/createMessage with the sampling model once `sampling.approve` says yes;
 * elicitation/create with `onElicitation`. A request with nothing to answer it is refused with
 * an error that says which option answers it.
 */
export function answerServerRequests(client: Client, sdk: McpSdk, config: McpServerConfig, model: SamplingModel): void {
  const { McpError, ListRootsRequestSchema, CreateMessageRequestSchema, ElicitRequestSchema } = sdk.types;
  const server = config.name;
  const entry = `the entry of MCP server '${server}' in createAgent({ mcpServers })`;
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: config.roots ?? [] }));

  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    const sampling = config.sampling;
    if (sampling === undefined)
      throw new McpError(
        DECLINED,
        `This client does not sample its model for this server: give ${entry} sampling: { approve }`,
      );
    const { messages, systemPrompt, maxTokens, temperature } = request.params;
    const ours = messages.map(messageOf);
    const asked = { server, messages: ours, maxTokens, ...(systemPrompt === undefined ? {} : { systemPrompt }) };
    if ((await sampling.approve(asked)) !== true)
      throw new McpError(DECLINED, 'The user declined this sampling request');
    const provider = model(sampling.model);
    const reply = await provider.generate({
      model: provider.modelId,
      messages: [...(systemPrompt === undefined ? [] : [{ role: 'system' as const, content: systemPrompt }]), ...ours],
      maxOutputTokens: maxTokens,
      ...(temperature === undefined ? {} : { temperature }),
      abortSignal: extra.signal,
    });
    return {
      role: 'assistant' as const,
      content: { type: 'text' as const, text: reply.text },
      model: provider.modelId,
      stopReason: reply.finishReason === 'length' ? 'maxTokens' : 'endTurn',
    };
  });

  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const handler = config.onElicitation;
    if (handler === undefined)
      throw new McpError(
        DECLINED,
        `This client has no one to ask: give ${entry} onElicitation: (request) => ({ action, content })`,
      );
    const params = request.params as { mode?: string; message: string; requestedSchema?: Record<string, unknown> };
    if (params.mode === 'url') throw new McpError(DECLINED, 'This client answers form elicitations only, not url ones');
    const answer = await handler({
      server,
      message: params.message,
      requestedSchema: params.requestedSchema ?? { type: 'object' },
    });
    return answer as never;
  });
}
