/**
 * API-error recovery end to end (core/recovery.ts, applied by executor/recover-call.ts and
 * executor/fit-request.ts): createAgent runs whose provider is the real client (`openai`
 * for OpenAI, OpenRouter, Ollama's /v1 and LM Studio's /v1; `@anthropic-ai/sdk` for
 * Anthropic) talking to a loopback server that speaks the vendor's wire format and answers
 * with the vendor's own error bodies. The server measures every request it receives with
 * estimateTokens over the body converted back to messages, so "the request fits" is
 * checked where it matters: on the wire.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent, CompactionStartEvent, RecoveryEvent } from '../contracts/agent-event.js';
import type { AgentResult } from '../contracts/agent-result.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ToolDefinition } from '../contracts/tool-definition.js';
import { CONTINUE_PROMPT, RECOVERY_LIMITS } from '../core/recovery.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { ContentPart, Message, ToolCall } from '../messages/types.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { registerModel, resetModelRegistry } from '../models/registry.js';
import { createAnthropic } from '../providers/anthropic.js';
import { createLMStudio, createOllama, createOpenAI, createOpenRouter } from '../providers/builtin.js';
import { type LoopbackServer, type ReceivedRequest, sendJson, sendSse } from '../test-support/loopback-server.js';
import { isolateEnv, useLoopbackServers } from '../test-support/provider-setup.js';
import { prose } from '../test-support/text.js';
import type { Tool } from './tool.js';

// ---------------------------------------------------------------------------------------
// Setup
// ---------------------------------------------------------------------------------------

isolateEnv();
const serve = useLoopbackServers();

beforeEach(() => {
  // The compaction hook warns when a user protectedTokens is capped; not what these tests are about.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  resetModelRegistry();
  vi.restoreAllMocks();
});

// ---------------------------------------------------------------------------------------
// What the server saw of a request, and what it answers
// ---------------------------------------------------------------------------------------

/** A request as the server read it back: the transcript, the tools and the output limit. */
interface Seen {
  messages: Message[];
  tools: ToolDefinition[];
  maxTokens: number | undefined;
  stream: boolean;
}

/** One scripted reply. `args` is the arguments text exactly as the model wrote it (it may be cut). */
interface Turn {
  text?: string;
  calls?: { id: string; name: string; args: string }[];
  finish?: 'stop' | 'tool' | 'length';
}

const finishOf = (turn: Turn): 'stop' | 'tool' | 'length' =>
  turn.finish ?? (turn.calls === undefined || turn.calls.length === 0 ? 'stop' : 'tool');

/** Arguments text as a value: the parsed JSON, else the text itself (a cut call). */
function argumentsValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// ------------------------------------------------------------- chat completions (OpenAI)

type ChatPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
interface ChatMessage {
  role: string;
  content: string | null | ChatPart[];
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}
interface ChatBody {
  model: string;
  messages: ChatMessage[];
  tools?: { type: string; function: ToolDefinition }[];
  stream?: boolean;
  max_tokens?: number;
  max_completion_tokens?: number;
}

function chatParts(content: ChatMessage['content']): string | ContentPart[] {
  if (typeof content === 'string') return content;
  return (content ?? []).map(
    (p): ContentPart =>
      p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image', image: p.image_url.url },
  );
}

function readChat(raw: unknown, field: 'max_tokens' | 'max_completion_tokens'): Seen {
  const body = raw as ChatBody;
  const messages = body.messages.map((m): Message => {
    const content = chatParts(m.content);
    const text = typeof content === 'string' ? content : content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    if (m.role === 'system') return { role: 'system', content: text };
    if (m.role === 'user') return { role: 'user', content };
    if (m.role === 'tool') return { role: 'tool', toolCallId: m.tool_call_id ?? '', content };
    return {
      role: 'assistant',
      content: text,
      ...(m.tool_calls === undefined
        ? {}
        : {
            toolCalls: m.tool_calls.map(
              (c): ToolCall => ({ id: c.id, name: c.function.name, arguments: argumentsValue(c.function.arguments) }),
            ),
          }),
    };
  });
  return {
    messages,
    tools: (body.tools ?? []).map((t) => t.function),
    maxTokens: body[field],
    stream: body.stream === true,
  };
}

async function replyChat(
  response: ServerResponse,
  seen: Seen,
  turn: Turn,
  promptTokens: number,
  model: string,
): Promise<void> {
  const finish = { stop: 'stop', tool: 'tool_calls', length: 'length' }[finishOf(turn)];
  const usage = { prompt_tokens: promptTokens, completion_tokens: 40, total_tokens: promptTokens + 40 };
  const calls = turn.calls?.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
  const base = { id: 'chatcmpl-AqB7x', created: 1_736_000_000, model, system_fingerprint: 'fp_7c7ea5f8e1' };
  if (!seen.stream) {
    sendJson(response, 200, {
      ...base,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: turn.text ?? null,
            refusal: null,
            ...(calls === undefined ? {} : { tool_calls: calls }),
          },
          logprobs: null,
          finish_reason: finish,
        },
      ],
      usage,
    });
    return;
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    data: { ...base, object: 'chat.completion.chunk', choices, ...extra },
  });
  const delta = (value: Record<string, unknown>, reason: string | null = null) =>
    chunk([{ index: 0, delta: value, logprobs: null, finish_reason: reason }]);
  const events: ({ data: unknown } | string)[] = [delta({ role: 'assistant', content: '', refusal: null })];
  const text = turn.text ?? '';
  if (text !== '') {
    const half = Math.ceil(text.length / 2);
    events.push(delta({ content: text.slice(0, half) }), delta({ content: text.slice(half) }));
  }
  (turn.calls ?? []).forEach((c, index) => {
    const half = Math.ceil(c.args.length / 2);
    events.push(
      delta({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }),
      delta({ tool_calls: [{ index, function: { arguments: c.args.slice(0, half) } }] }),
      delta({ tool_calls: [{ index, function: { arguments: c.args.slice(half) } }] }),
    );
  });
  events.push(delta({}, finish), chunk([], { usage }), '[DONE]');
  await sendSse(response, events);
}

// ------------------------------------------------------------- Messages API (Anthropic)

type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: string; media_type?: string; data?: string; url?: string } }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content?: string | AnthropicBlock[]; is_error?: boolean };
interface AnthropicBody {
  model: string;
  system?: string | { type: 'text'; text: string }[];
  messages: { role: 'user' | 'assistant'; content: string | AnthropicBlock[] }[];
  tools?: { name: string; description?: string; input_schema: ToolDefinition['parameters'] }[];
  max_tokens: number;
  stream?: boolean;
}

function anthropicParts(blocks: string | AnthropicBlock[] | undefined): string | ContentPart[] {
  if (blocks === undefined) return '';
  if (typeof blocks === 'string') return blocks;
  const parts: ContentPart[] = [];
  for (const b of blocks) {
    if (b.type === 'text') parts.push({ type: 'text', text: b.text });
    else if (b.type === 'image')
      parts.push({
        type: 'image',
        image: b.source.data ?? b.source.url ?? '',
        ...(b.source.media_type === undefined ? {} : { mediaType: b.source.media_type }),
      });
  }
  return parts;
}

function readAnthropic(raw: unknown): Seen {
  const body = raw as AnthropicBody;
  const messages: Message[] = [];
  const system = typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text).join('\n\n');
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const m of body.messages) {
    if (typeof m.content === 'string') {
      messages.push(
        m.role === 'user' ? { role: 'user', content: m.content } : { role: 'assistant', content: m.content },
      );
      continue;
    }
    if (m.role === 'assistant') {
      const text = m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      const toolCalls = m.content.flatMap((b): ToolCall[] =>
        b.type === 'tool_use' ? [{ id: b.id, name: b.name, arguments: b.input }] : [],
      );
      messages.push({ role: 'assistant', content: text, ...(toolCalls.length === 0 ? {} : { toolCalls }) });
      continue;
    }
    const rest: AnthropicBlock[] = [];
    for (const b of m.content) {
      if (b.type === 'tool_result')
        messages.push({ role: 'tool', toolCallId: b.tool_use_id, content: anthropicParts(b.content) });
      else rest.push(b);
    }
    if (rest.length > 0) messages.push({ role: 'user', content: anthropicParts(rest) });
  }
  return {
    messages,
    tools: (body.tools ?? []).map((t) => ({
      name: t.name,
      ...(t.description === undefined ? {} : { description: t.description }),
      parameters: t.input_schema,
    })),
    maxTokens: body.max_tokens,
    stream: body.stream === true,
  };
}

const CLAUDE_SNAPSHOT = 'claude-opus-4-6-20260205';

async function replyAnthropic(response: ServerResponse, seen: Seen, turn: Turn, promptTokens: number): Promise<void> {
  const stopReason = { stop: 'end_turn', tool: 'tool_use', length: 'max_tokens' }[finishOf(turn)];
  const text = turn.text ?? '';
  const calls = turn.calls ?? [];
  if (!seen.stream) {
    const content: unknown[] = [
      ...(text === '' ? [] : [{ type: 'text', text }]),
      ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: argumentsValue(c.args) })),
    ];
    sendJson(response, 200, {
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      model: CLAUDE_SNAPSHOT,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: {
        input_tokens: promptTokens,
        output_tokens: 40,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    });
    return;
  }
  const events: { event: string; data: unknown }[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY',
          type: 'message',
          role: 'assistant',
          content: [],
          model: CLAUDE_SNAPSHOT,
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: promptTokens, output_tokens: 1 },
        },
      },
    },
  ];
  let index = 0;
  if (text !== '') {
    const half = Math.ceil(text.length / 2);
    events.push(
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      },
      { event: 'ping', data: { type: 'ping' } },
      ...[text.slice(0, half), text.slice(half)].map((piece) => ({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
      })),
      { event: 'content_block_stop', data: { type: 'content_block_stop', index } },
    );
    index++;
  }
  for (const c of calls) {
    const half = Math.ceil(c.args.length / 2);
    events.push(
      {
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} },
        },
      },
      ...[c.args.slice(0, half), c.args.slice(half)].map((piece) => ({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
      })),
      { event: 'content_block_stop', data: { type: 'content_block_stop', index } },
    );
    index++;
  }
  events.push(
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: 40 },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  await sendSse(response, events);
}

// ---------------------------------------------------------------------------------------
// The vendors, each with its own real error bodies
// ---------------------------------------------------------------------------------------

type Routes = Record<string, (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>>;

interface Vendor {
  name: string;
  model: string;
  /** The provider name to register the model under. */
  registry: string;
  /** The chat endpoint. */
  path: string;
  make(url: string): LLMProvider;
  read(body: unknown): Seen;
  reply(response: ServerResponse, seen: Seen, turn: Turn, promptTokens: number): Promise<void>;
  /** The vendor's answer to a request of `requested` tokens above its window of `window`. */
  overflow(response: ServerResponse, seen: Seen, requested: number, window: number): void | Promise<void>;
  /** The vendor's answer to an image over its size limit, when it has a documented one. */
  mediaTooLarge?: (response: ServerResponse) => void;
  /** A local server's routes that report the window it runs the model with. */
  windowRoutes?: (window: number) => Routes;
}

const RETRY = { initialDelayMs: 1 };

/** Anthropic's real image-too-large error (the wire index: the first message after the system prompt). */
const ANTHROPIC_IMAGE_TOO_LARGE = {
  type: 'error',
  error: {
    type: 'invalid_request_error',
    message: 'messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: 5316852 bytes > 5242880 bytes',
  },
  request_id: 'req_011CWAkmDUkUFYPBuJT9oRpZ',
};

const openAIOverflow = (requested: number, window: number) => ({
  error: {
    message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${requested} tokens. Please reduce the length of the messages.`,
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  },
});

const lmStudioOverflowText = (requested: number, window: number) =>
  `Trying to keep the first ${requested} tokens when context the overflows. However, the model is loaded with context length of only ${window} tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input`;

/** Ollama 0.30's /v1 answer: the runner's (llama-server) error, as text inside the OpenAI-shaped error. */
const ollamaOverflow = (requested: number, window: number) => ({
  error: {
    message: JSON.stringify({
      error: {
        code: 400,
        message: `request (${requested} tokens) exceeds the available context size (${window} tokens), try increasing it`,
        type: 'exceed_context_size_error',
        n_prompt_tokens: requested,
        n_ctx: window,
      },
    }),
    type: 'invalid_request_error',
    param: null,
    code: null,
  },
});

/** The wording of the brief, in the body shape Ollama's /v1 gives every error (api_error is its type for a 500). */
const ollamaOverflowWorded = (requested: number, window: number) => ({
  error: {
    message: `the input length (${requested} tokens) exceeds the maximum context length (${window} tokens)`,
    type: 'api_error',
    param: null,
    code: null,
  },
});

const chatVendor = (
  v: Omit<Vendor, 'read' | 'reply' | 'path'> & { field?: 'max_tokens' | 'max_completion_tokens' },
): Vendor => ({
  ...v,
  path: '/v1/chat/completions',
  read: (body) => readChat(body, v.field ?? 'max_tokens'),
  reply: (response, seen, turn, promptTokens) => replyChat(response, seen, turn, promptTokens, v.model),
});

const OPENAI = chatVendor({
  name: 'OpenAI',
  model: 'gpt-4o',
  registry: 'openai',
  field: 'max_completion_tokens',
  make: (url) => createOpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test', retry: RETRY })('gpt-4o'),
  overflow: (response, _seen, requested, window) => sendJson(response, 400, openAIOverflow(requested, window)),
  mediaTooLarge: (response) =>
    sendJson(response, 400, {
      error: {
        message: 'Invalid image: image exceeds the maximum size of 20MB.',
        type: 'invalid_request_error',
        param: 'messages.[1].content.[1].image_url',
        code: 'invalid_image',
      },
    }),
});

const ANTHROPIC: Vendor = {
  name: 'Anthropic',
  model: 'claude-opus-4-6',
  registry: 'anthropic',
  path: '/v1/messages',
  make: (url) => createAnthropic({ baseURL: url, apiKey: 'sk-ant-test', retry: RETRY })('claude-opus-4-6'),
  read: readAnthropic,
  reply: replyAnthropic,
  overflow: (response, _seen, requested, window) =>
    sendJson(response, 400, {
      type: 'error',
      error: { type: 'invalid_request_error', message: `prompt is too long: ${requested} tokens > ${window} maximum` },
      request_id: 'req_011CX1w3MKpu75JnVUAsACnn',
    }),
  mediaTooLarge: (response) => sendJson(response, 400, ANTHROPIC_IMAGE_TOO_LARGE),
};

const OPENROUTER = chatVendor({
  name: 'OpenRouter',
  model: 'anthropic/claude-sonnet-4.5',
  registry: 'openrouter',
  make: (url) =>
    createOpenRouter({ baseURL: `${url}/v1`, apiKey: 'sk-or-test', retry: RETRY })('anthropic/claude-sonnet-4.5'),
  overflow: (response, seen, requested, window) => {
    const output = seen.maxTokens ?? 0;
    sendJson(response, 400, {
      error: {
        message: `This endpoint's maximum context length is ${window} tokens. However, you requested about ${requested + output} tokens (${requested} of text input, ${output} in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.`,
        code: 400,
        metadata: { provider_name: 'Anthropic' },
      },
      user_id: 'user_2wJ6bWcLq1',
    });
  },
  // OpenRouter relays the upstream provider's error in metadata.raw.
  mediaTooLarge: (response) =>
    sendJson(response, 400, {
      error: {
        message: 'Provider returned error',
        code: 400,
        metadata: { raw: JSON.stringify(ANTHROPIC_IMAGE_TOO_LARGE), provider_name: 'Anthropic' },
      },
      user_id: 'user_2wJ6bWcLq1',
    }),
});

const ollamaVendor = (name: string, overflow: Vendor['overflow']): Vendor =>
  chatVendor({
    name,
    model: 'qwen3:8b',
    registry: 'ollama',
    make: (url) => createOllama({ host: url, retry: RETRY })('qwen3:8b'),
    overflow,
    windowRoutes: (window) => ({
      'GET /api/ps': (_q, r) => sendJson(r, 200, { models: [] }),
      'POST /api/show': (_q, r) =>
        sendJson(r, 200, {
          parameters: `num_ctx                        ${window}\ntemperature                    0.6`,
          model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40_960 },
          capabilities: ['completion', 'tools'],
        }),
    }),
  });

const OLLAMA = ollamaVendor('Ollama', (response, _seen, requested, window) =>
  sendJson(response, 400, ollamaOverflow(requested, window)),
);
const OLLAMA_WORDED = ollamaVendor(
  'Ollama ("the input length (M tokens) exceeds the maximum context length")',
  (r, _s, m, n) => sendJson(r, 500, ollamaOverflowWorded(m, n)),
);

const LMSTUDIO = chatVendor({
  name: 'LM Studio',
  model: 'qwen2.5-7b-instruct',
  registry: 'lmstudio',
  make: (url) => createLMStudio({ baseURL: `${url}/v1`, retry: RETRY })('qwen2.5-7b-instruct'),
  // LM Studio answers a streamed request 200, then an `event: error` frame; a plain one with a 400.
  overflow: (response, seen, requested, window) =>
    seen.stream
      ? sendSse(response, [{ event: 'error', data: { error: lmStudioOverflowText(requested, window) } }])
      : sendJson(response, 400, { error: lmStudioOverflowText(requested, window) }),
  windowRoutes: (window) => ({
    'GET /api/v0/models/qwen2.5-7b-instruct': (_q, r) =>
      sendJson(r, 200, {
        id: 'qwen2.5-7b-instruct',
        object: 'model',
        type: 'llm',
        publisher: 'lmstudio-community',
        arch: 'qwen2',
        compatibility_type: 'gguf',
        quantization: 'Q4_K_M',
        state: 'loaded',
        max_context_length: 32_768,
        loaded_context_length: window,
      }),
  }),
});

const VENDORS: Vendor[] = [OPENAI, ANTHROPIC, OPENROUTER, OLLAMA, LMSTUDIO];

// ---------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------

/** One chat request: what the server saw, its size, and how it answered. */
interface Exchange {
  seen: Seen;
  tokens: number;
  outcome: 'answered' | 'overflow' | 'media' | 'invalid';
}

/** A reply (with the prompt tokens the vendor reports, when not the server's measure), or a rejection (stating `requested`, when not the measure). */
type Decision =
  | (Turn & { promptTokens?: number })
  | { reject: 'overflow'; window: number; requested?: number }
  | { reject: 'media' };

/**
 * What every vendor rejects: a tool result that answers no call of the assistant message
 * before it, or a call left without a result. A recovery that broke the pairing would
 * fail here, as it would against the real API.
 */
function pairingProblem(messages: readonly Message[]): string | undefined {
  let open = new Set<string>();
  for (const [i, m] of messages.entries()) {
    if (m.role === 'tool') {
      if (!open.delete(m.toolCallId)) return `message ${i}: the tool result ${m.toolCallId} answers no call before it`;
      continue;
    }
    if (open.size > 0) return `message ${i}: the calls ${[...open].join(', ')} have no result`;
    open = new Set(m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []);
  }
  return open.size > 0 ? `the calls ${[...open].join(', ')} have no result` : undefined;
}

const NOTHING: Seen = { messages: [], tools: [], maxTokens: undefined, stream: false };

/** The size of a request as the server received it: estimateTokens over the body converted back. */
const measure = (model: string, seen: Seen): number =>
  estimateTokens({ model, messages: seen.messages, tools: seen.tools });

/**
 * A server speaking `vendor`'s wire format. `decide` sees each chat request (and how many
 * were answered so far) and returns a reply or a rejection. Other routes: `routes`, else 404.
 */
async function vendorServer(
  vendor: Vendor,
  decide: (seen: Seen, tokens: number, answered: number) => Decision,
  routes: Routes = {},
): Promise<{ server: LoopbackServer; exchanges: Exchange[] }> {
  const exchanges: Exchange[] = [];
  let answered = 0;
  const server = await serve(async (request, response) => {
    const route = routes[`${request.method} ${request.path}`];
    if (route !== undefined) return route(request, response);
    if (request.method !== 'POST' || request.path !== vendor.path) {
      sendJson(response, 404, { error: `no route ${request.method} ${request.path}` });
      return;
    }
    const seen = vendor.read(request.body);
    const tokens = measure(vendor.model, seen);
    const problem = pairingProblem(seen.messages);
    if (problem !== undefined) {
      exchanges.push({ seen, tokens, outcome: 'invalid' });
      sendJson(response, 400, { error: { message: `Invalid transcript: ${problem}`, type: 'invalid_request_error' } });
      return;
    }
    const decision = decide(seen, tokens, answered);
    if (!('reject' in decision)) {
      exchanges.push({ seen, tokens, outcome: 'answered' });
      answered++;
      await vendor.reply(response, seen, decision, decision.promptTokens ?? tokens);
      return;
    }
    exchanges.push({ seen, tokens, outcome: decision.reject });
    if (decision.reject === 'overflow')
      await vendor.overflow(response, seen, decision.requested ?? tokens, decision.window);
    else if (vendor.mediaTooLarge === undefined) throw new Error(`${vendor.name} has no media error body`);
    else vendor.mediaTooLarge(response);
  });
  return { server, exchanges };
}

// ---------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------

/** A read_file tool whose output for each path is `output(path)`; records the arguments it ran with. */
function readFileTool(output: (path: string) => string) {
  const calls: unknown[] = [];
  const tool: Tool<{ path: string }, unknown> = {
    name: 'read_file',
    description: 'Read a file of the repository.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    execute: (args) => {
      calls.push(args);
      return output(args.path);
    },
  };
  return { tool: tool as Tool<unknown, unknown>, calls };
}

const readCall = (n: number, path: string): Turn => ({
  text: '',
  calls: [{ id: `call_${n}`, name: 'read_file', args: JSON.stringify({ path }) }],
});

interface Outcome {
  result: AgentResult | undefined;
  error: LoushoError | undefined;
  events: AgentEvent[];
}

type Agent = ReturnType<typeof createAgent>;

/** Runs through agent.stream() (the provider streams), collecting the events. */
async function streamed(agent: Agent, input: Parameters<Agent['send']>[0]): Promise<Outcome> {
  const events: AgentEvent[] = [];
  const stream = agent.stream(input);
  try {
    for await (const event of stream) events.push(event);
  } catch {
    // the same error rejects stream.result
  }
  return stream.result.then(
    (result) => ({ result, error: undefined, events }),
    (error: unknown) => ({ result: undefined, error: asLoushoError(error), events }),
  );
}

/** Runs through agent.send() without listeners (the provider's generate()). */
async function sent(agent: Agent, input: Parameters<Agent['send']>[0]): Promise<Outcome> {
  return agent.send(input).then(
    (result) => ({ result, error: undefined, events: [] }),
    (error: unknown) => ({ result: undefined, error: asLoushoError(error), events: [] }),
  );
}

function asLoushoError(error: unknown): LoushoError {
  if (LoushoError.isInstance(error)) return error;
  throw error;
}

const recoveries = (events: AgentEvent[]) => events.filter((e): e is RecoveryEvent => e.type === 'recovery.done');
const compactionStarts = (events: AgentEvent[]) =>
  events.filter((e): e is CompactionStartEvent => e.type === 'compaction.start');

/** Fails with the run's own error when it failed, so a failing test says why. */
function succeeded(outcome: Outcome): AgentResult {
  if (outcome.error !== undefined)
    expect.fail(`the run failed: ${outcome.error.code}: ${outcome.error.message.slice(0, 600)}`);
  if (outcome.result === undefined) return expect.fail('the run has no result');
  return outcome.result;
}

const textOf = (content: Message['content']): string =>
  typeof content === 'string' ? content : content.map((p) => (p.type === 'text' ? p.text : '')).join('');
const hasImage = (seen: Seen) =>
  seen.messages.some((m) => typeof m.content !== 'string' && m.content.some((p) => p.type === 'image'));
const toolResults = (seen: Seen) => seen.messages.filter((m) => m.role === 'tool');

// ---------------------------------------------------------------------------------------
// 1. Context overflow: the run learns the real window from the error
// ---------------------------------------------------------------------------------------

const WINDOW = 6_000;
const BELIEVED = 100_000;
const READS = 12;
const FILE_CHARS = 4_200;

describe.each([...VENDORS, OLLAMA_WORDED])('context overflow on $name', (vendor) => {
  it.each(['stream', 'send'] as const)(
    '%s: rejected above its real window, the run compacts harder, retries, and compacts later steps against it',
    async (how) => {
      // The registry believes 100,000, so the hook does not know the real window of 6,000.
      registerModel({ id: vendor.model, provider: vendor.registry, contextWindow: BELIEVED });
      const { server, exchanges } = await vendorServer(vendor, (_seen, tokens, answered) => {
        if (tokens > WINDOW) return { reject: 'overflow', window: WINDOW };
        return answered < READS ? readCall(answered, `src/f${answered}.ts`) : { text: 'done' };
      });
      const files = readFileTool((path) => `// ${path}\n${prose(path.length * 31 + path.charCodeAt(5), FILE_CHARS)}`);
      const agent = createAgent({
        provider: vendor.make(server.url),
        instructions: 'Read every file you are asked about, then say done.',
        tools: [files.tool],
        compaction: true,
      });
      const outcome = await (how === 'stream' ? streamed : sent)(agent, 'Read src/f0.ts to src/f11.ts.');
      const result = succeeded(outcome);

      expect(result.text).toBe('done');
      expect(result.steps).toBe(READS + 1);
      expect(files.calls).toHaveLength(READS);
      // Exactly one rejection: the run learned the window from it, and no later request went above it.
      const rejected = exchanges.flatMap((e, i) => (e.outcome === 'overflow' ? [i] : []));
      expect(rejected).toHaveLength(1);
      const at = rejected[0] ?? -1;
      expect(exchanges[at]?.tokens).toBeGreaterThan(WINDOW);
      const after = exchanges.slice(at + 1).map((e) => e.tokens);
      expect(after.length).toBeGreaterThan(2);
      expect(Math.max(...after)).toBeLessThanOrEqual(WINDOW);
      // The retry is the same step's request, smaller: old results were pruned.
      expect(exchanges[at + 1]?.tokens).toBeLessThan(exchanges[at]?.tokens ?? 0);
      expect(exchanges.length).toBe(READS + 2);

      if (how === 'send') return;
      const events = outcome.events;
      const done = recoveries(events);
      expect(done.map((e) => [e.kind, e.attempt])).toEqual([['context-overflow', 1]]);
      expect(done[0]?.action).toContain(`its window is ${WINDOW}`);
      const starts = compactionStarts(events);
      // Nothing was compacted before the error (the hook believed 100,000); from then on, against 6,000.
      expect(starts.length).toBeGreaterThanOrEqual(2);
      expect(starts[0]?.step).toBe(done[0]?.step);
      expect(new Set(starts.map((s) => s.contextWindow))).toEqual(new Set([WINDOW]));
      expect(starts.some((s) => (s.step ?? 0) > (done[0]?.step ?? 0))).toBe(true);
      expect(events.filter((e) => e.type === 'run.done')).toHaveLength(1);
    },
  );
});

/** A vendor whose own count is 30% above our estimate (a chat template, hidden framing, another tokenizer). */
const VENDOR_COUNT = (tokens: number) => Math.ceil(tokens * 1.3);

describe.each(VENDORS)('context overflow on $name, whose count is above our estimate', (vendor) => {
  it("one rejection: the retry fits by the vendor's own count, whether its error states the request size or only its window", async () => {
    // The registry believes 100,000; the vendor's window is 6,000 by its own count.
    registerModel({ id: vendor.model, provider: vendor.registry, contextWindow: BELIEVED });
    const { server, exchanges } = await vendorServer(vendor, (_seen, tokens, answered) => {
      const count = VENDOR_COUNT(tokens);
      if (count > WINDOW) return { reject: 'overflow', window: WINDOW, requested: count };
      const turn = answered < READS ? readCall(answered, `src/f${answered}.ts`) : { text: 'done' };
      return { ...turn, promptTokens: count };
    });
    const files = readFileTool((path) => `// ${path}\n${prose(path.length * 31 + path.charCodeAt(5), FILE_CHARS)}`);
    const agent = createAgent({
      provider: vendor.make(server.url),
      instructions: 'Read every file you are asked about, then say done.',
      tools: [files.tool],
      compaction: true,
    });
    const result = succeeded(await streamed(agent, 'Read src/f0.ts to src/f11.ts.'));

    expect(result.text).toBe('done');
    const rejected = exchanges.flatMap((e, i) => (e.outcome === 'overflow' ? [i] : []));
    expect(rejected).toHaveLength(1);
    // The retry right after the rejection fits the window as the vendor counts it.
    const retry = exchanges[(rejected[0] ?? -1) + 1];
    expect(retry?.outcome).toBe('answered');
    expect(VENDOR_COUNT(retry?.tokens ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(WINDOW);
  });
});

describe.each(VENDORS)('context overflow without a compaction hook on $name', (vendor) => {
  it('stream: the rejected step compacts without a model call, retries, and reports that one recovery once', async () => {
    registerModel({ id: vendor.model, provider: vendor.registry, contextWindow: BELIEVED });
    const { server, exchanges } = await vendorServer(vendor, (_seen, tokens, answered) => {
      if (tokens > WINDOW) return { reject: 'overflow', window: WINDOW };
      return answered < READS ? readCall(answered, `src/f${answered}.ts`) : { text: 'done' };
    });
    const files = readFileTool((path) => `// ${path}\n${prose(path.length * 31 + path.charCodeAt(5), FILE_CHARS)}`);
    const agent = createAgent({
      provider: vendor.make(server.url),
      instructions: 'Read every file you are asked about, then say done.',
      tools: [files.tool],
    });
    const outcome = await streamed(agent, 'Read src/f0.ts to src/f11.ts.');
    const result = succeeded(outcome);

    expect(result.text).toBe('done');
    const rejected = exchanges.flatMap((e, i) => (e.outcome === 'overflow' ? [i] : []));
    expect(rejected).toHaveLength(1);
    // The learned window holds for the rest of the run: nothing above it is sent again.
    expect(Math.max(...exchanges.slice((rejected[0] ?? 0) + 1).map((e) => e.tokens))).toBeLessThanOrEqual(WINDOW);
    const step = exchanges.slice(0, (rejected[0] ?? 0) + 1).filter((e) => e.outcome === 'answered').length + 1;
    const forTheRejection = recoveries(outcome.events).filter((e) => e.step === step);
    expect(forTheRejection.map((e) => [e.kind, e.attempt])).toEqual([['context-overflow', 1]]);
  });
});

// ---------------------------------------------------------------------------------------
// 2. Media too large: the image is replaced by a marker naming it
// ---------------------------------------------------------------------------------------

/** A PNG of 1920 x 1080 whose file is 5,316,852 bytes, as base64. */
function largePng(): string {
  const bytes = Buffer.alloc(5_316_852);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'ascii');
  bytes.writeUInt32BE(1_920, 16);
  bytes.writeUInt32BE(1_080, 20);
  for (let i = 33; i < bytes.length; i++) bytes[i] = (i * 2_654_435_761) >>> 24;
  return bytes.toString('base64');
}
const IMAGE = largePng();

describe.each(VENDORS.filter((v) => v.mediaTooLarge !== undefined))('image too large on $name', (vendor) => {
  it.each(['stream', 'send'] as const)(
    '%s: rejected once; the image is replaced with a marker naming it and the call retried',
    async (how) => {
      const { server, exchanges } = await vendorServer(vendor, (seen) =>
        hasImage(seen) ? { reject: 'media' } : { text: 'A sign-in form with an e-mail field and a password field.' },
      );
      const agent = createAgent({ provider: vendor.make(server.url), instructions: 'Describe screenshots.' });
      const message: Message = {
        role: 'user',
        content: [
          { type: 'text', text: 'What does this screenshot show?' },
          { type: 'image', image: IMAGE, mediaType: 'image/png' },
        ],
      };
      const outcome = await (how === 'stream' ? streamed : sent)(agent, message);
      const result = succeeded(outcome);

      expect(result.text).toBe('A sign-in form with an e-mail field and a password field.');
      if (how === 'stream') {
        expect(recoveries(outcome.events).map((e) => [e.kind, e.attempt])).toEqual([['media-too-large', 1]]);
      }
      expect(exchanges.map((e) => e.outcome)).toEqual(['media', 'answered']);
      expect(hasImage(exchanges[0]?.seen ?? NOTHING)).toBe(true);
      const second = exchanges[1]?.seen;
      expect(second === undefined ? true : hasImage(second)).toBe(false);
      const user = second?.messages.find((m) => m.role === 'user');
      const text = user === undefined ? '' : textOf(user.content);
      expect(text).toContain('What does this screenshot show?');
      expect(text).toContain('[image removed');
      // The marker names the image: its type, its size and where it was.
      expect(text).toMatch(/\[image removed: image\/png, 5192 KB, image 1 of message 1;/);
    },
  );
});

// ---------------------------------------------------------------------------------------
// 3. Output truncated: continued and stitched, or retried with a larger limit
// ---------------------------------------------------------------------------------------

const PART_1 = 'To turn on two-factor sign-in: 1. Open Settings. 2. Choose the Security tab. 3. Select Two-f';
// The model repeats the last words before going on; stitching drops what it repeated.
const PART_2 = 'Choose the Security tab. 3. Select Two-factor authentication, scan the QR code, and save.';
const FULL =
  'To turn on two-factor sign-in: 1. Open Settings. 2. Choose the Security tab. 3. Select Two-factor authentication, scan the QR code, and save.';

describe.each(VENDORS)('output truncated on $name', (vendor) => {
  it.each(['stream', 'send'] as const)(
    '%s: a reply cut at the output limit is continued, and the parts are stitched',
    async (how) => {
      const { server, exchanges } = await vendorServer(vendor, (seen, _tokens, answered) => {
        if (answered === 0) return { text: PART_1, finish: 'length' };
        const last = seen.messages[seen.messages.length - 1];
        return last?.role === 'user' && textOf(last.content) === CONTINUE_PROMPT
          ? { text: PART_2 }
          : { text: 'unexpected request' };
      });
      const agent = createAgent({
        provider: vendor.make(server.url),
        instructions: 'Answer with numbered steps.',
        maxOutputTokens: 24,
      });
      const outcome = await (how === 'stream' ? streamed : sent)(agent, 'How do I turn on two-factor sign-in?');
      const result = succeeded(outcome);

      expect(result.text).toBe(FULL);
      expect(result.finishReason).toBe('stop');
      expect(exchanges).toHaveLength(2);
      const continuation = exchanges[1]?.seen.messages ?? [];
      expect(continuation.slice(-2).map((m) => [m.role, textOf(m.content)])).toEqual([
        ['assistant', PART_1],
        ['user', CONTINUE_PROMPT],
      ]);
      // The transcript keeps one assistant message with the whole reply, not the parts or the prompt.
      expect(result.messages.filter((m) => m.role === 'assistant').map((m) => textOf(m.content))).toEqual([FULL]);
      expect(result.messages.some((m) => m.role === 'user' && textOf(m.content) === CONTINUE_PROMPT)).toBe(false);
      if (how === 'stream') {
        expect(recoveries(outcome.events).map((e) => [e.kind, e.attempt])).toEqual([['output-truncated', 1]]);
      }
    },
  );

  it("stream: a tool call whose arguments were cut is retried with a larger max_tokens (the model's limit allows it)", async () => {
    registerModel({ id: vendor.model, provider: vendor.registry, contextWindow: 128_000, maxOutputTokens: 8_192 });
    const full = JSON.stringify({ path: 'src/main.ts' });
    const { server, exchanges } = await vendorServer(vendor, (_seen, _tokens, answered) => {
      if (answered === 0)
        return { text: '', calls: [{ id: 'call_cut', name: 'read_file', args: full.slice(0, 14) }], finish: 'length' };
      if (answered === 1) return { text: '', calls: [{ id: 'call_full', name: 'read_file', args: full }] };
      return { text: 'main.ts exports start().' };
    });
    const files = readFileTool(() => 'export function start() {}');
    const agent = createAgent({
      provider: vendor.make(server.url),
      instructions: 'Read files to answer.',
      tools: [files.tool],
      maxOutputTokens: 1_024,
    });
    const outcome = await streamed(agent, 'What does src/main.ts export?');
    const result = succeeded(outcome);

    expect(result.text).toBe('main.ts exports start().');
    expect(files.calls).toEqual([{ path: 'src/main.ts' }]);
    expect(exchanges.map((e) => e.seen.maxTokens)).toEqual([1_024, 2_048, 1_024]);
    // The retry is the same request with a larger limit: no continuation prompt.
    expect(exchanges[1]?.seen.messages).toEqual(exchanges[0]?.seen.messages);
    const tool = result.messages.find((m) => m.role === 'tool');
    expect(tool?.role === 'tool' ? tool.toolCallId : undefined).toBe('call_full');
    const done = recoveries(outcome.events);
    expect(done.map((e) => [e.kind, e.attempt])).toEqual([['output-truncated', 1]]);
    expect(done[0]?.action).toContain('maxOutputTokens 2048');
  });
});

// ---------------------------------------------------------------------------------------
// 4. Oversized newest results: cut before sending, head and tail kept
// ---------------------------------------------------------------------------------------

const SMALL_WINDOW = 16_384;
const CORPUS_CHARS = 136_000;

describe.each(VENDORS)('oversized newest results on $name', (vendor) => {
  it.each([
    ['compaction: true', true],
    ['no compaction option', undefined],
  ] as const)(
    '%s: a 136,000-char result (over 30,000 tokens) in a 16,384 window is cut (head and tail kept, the call named) before sending',
    async (_name, compaction) => {
      registerModel({ id: vendor.model, provider: vendor.registry, contextWindow: SMALL_WINDOW });
      const corpus = prose(7, CORPUS_CHARS);
      const { server, exchanges } = await vendorServer(vendor, (_seen, _tokens, answered) =>
        answered === 0 ? readCall(0, 'docs/corpus.txt') : { text: 'The corpus is a word list.' },
      );
      const files = readFileTool(() => corpus);
      const agent = createAgent({
        provider: vendor.make(server.url),
        instructions: 'Read the file, then summarize it in one sentence.',
        tools: [files.tool],
        ...(compaction === undefined ? {} : { compaction }),
      });
      const outcome = await streamed(agent, 'Summarize docs/corpus.txt.');
      const result = succeeded(outcome);

      expect(result.text).toBe('The corpus is a word list.');
      expect(estimateTokens([{ role: 'user', content: corpus }], vendor.model)).toBeGreaterThan(30_000);
      expect(exchanges).toHaveLength(2);
      for (const e of exchanges) expect(e.tokens).toBeLessThanOrEqual(SMALL_WINDOW);
      const results = toolResults(exchanges[1]?.seen ?? NOTHING);
      expect(results).toHaveLength(1);
      const sentText = textOf(results[0]?.content ?? '');
      expect(sentText.length).toBeLessThan(CORPUS_CHARS);
      expect(sentText).toMatch(
        /\n\[\.\.\. cut \d+ of 136000 chars of read_file\(\{"path":"docs\/corpus\.txt"\}\) result to fit the context window \.\.\.\]\n/,
      );
      // Head and tail of the result are kept.
      expect(sentText.startsWith(corpus.slice(0, 2_000))).toBe(true);
      expect(sentText.endsWith(corpus.slice(-500))).toBe(true);
      // One recovery, reported once, as what it was.
      const done = recoveries(outcome.events);
      expect(done.map((e) => [e.kind, e.step])).toEqual([['oversized-results', 2]]);
    },
  );

  it("the smallest windows: in a 1,000-token window the vendor counts 1.3x, a newest result cut once is cut again to fit the vendor's count", async () => {
    // lousho run --window 1000 ended here: the second cut kept the first cut's 2,000 characters,
    // re-marked them, and made the request larger (1,209 -> 1,215), so the run threw LOUSHO_CONTEXT_OVERFLOW.
    const window = 1_000;
    registerModel({ id: vendor.model, provider: vendor.registry, contextWindow: window });
    const corpus = prose(11, 20_000);
    const { server, exchanges } = await vendorServer(vendor, (_seen, tokens, answered) => {
      const count = VENDOR_COUNT(tokens);
      if (count > window) return { reject: 'overflow', window, requested: count };
      return { ...(answered === 0 ? readCall(0, 'docs/corpus.txt') : { text: 'A word list.' }), promptTokens: count };
    });
    const files = readFileTool(() => corpus);
    const agent = createAgent({
      provider: vendor.make(server.url),
      instructions: 'Read the file, then say what it is.',
      tools: [files.tool],
      compaction: true,
    });
    const result = succeeded(await streamed(agent, 'What is docs/corpus.txt?'));

    expect(result.text).toBe('A word list.');
    const answered = exchanges.filter((e) => e.outcome === 'answered');
    expect(answered).toHaveLength(2);
    for (const e of answered) expect(VENDOR_COUNT(e.tokens)).toBeLessThanOrEqual(window);
    expect(textOf(toolResults(answered[1]?.seen ?? NOTHING)[0]?.content ?? '')).toMatch(
      /\[\.\.\. cut \d+ of \d+ chars of read_file/,
    );
  });

  it('compaction: false: nothing is compacted or cut; the request that does not fit is never sent, and the run ends with LOUSHO_CONTEXT_OVERFLOW', async () => {
    registerModel({ id: vendor.model, provider: vendor.registry, contextWindow: SMALL_WINDOW });
    const corpus = prose(7, CORPUS_CHARS);
    const { server, exchanges } = await vendorServer(vendor, (_seen, _tokens, answered) =>
      answered === 0 ? readCall(0, 'docs/corpus.txt') : { text: 'The corpus is a word list.' },
    );
    const agent = createAgent({
      provider: vendor.make(server.url),
      instructions: 'Read the file, then summarize it in one sentence.',
      tools: [readFileTool(() => corpus).tool],
      compaction: false,
    });
    const outcome = await streamed(agent, 'Summarize docs/corpus.txt.');
    expect(outcome.error?.code).toBe('LOUSHO_CONTEXT_OVERFLOW');
    expect(outcome.error?.message).toMatch(/compaction is off \(compaction: false\), so nothing was compacted/);
    // Only the first step's request went out; the one holding the whole result was refused before sending.
    expect(exchanges).toHaveLength(1);
    expect(outcome.events.some((e) => e.type === 'compaction.start' || e.type === 'recovery.done')).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------
// 5. Bounded: no loop, and what cannot fit is never sent
// ---------------------------------------------------------------------------------------

describe.each(VENDORS)('bounded recovery on $name', (vendor) => {
  it('a server that keeps answering overflow ends the run with LOUSHO_CONTEXT_OVERFLOW after a bounded number of requests', async () => {
    registerModel({ id: vendor.model, provider: vendor.registry, contextWindow: BELIEVED });
    const stated = 3_000;
    const { server, exchanges } = await vendorServer(vendor, (_seen, _tokens, answered) =>
      answered < 3 ? readCall(answered, `src/f${answered}.ts`) : { reject: 'overflow', window: stated },
    );
    const files = readFileTool((path) => `// ${path}\n${prose(path.charCodeAt(5), FILE_CHARS)}`);
    const agent = createAgent({
      provider: vendor.make(server.url),
      instructions: 'Read every file, then say done.',
      tools: [files.tool],
      compaction: true,
    });
    const outcome = await streamed(agent, 'Read src/f0.ts, src/f1.ts and src/f2.ts.');

    expect(outcome.result).toBeUndefined();
    expect(outcome.error?.code).toBe('LOUSHO_CONTEXT_OVERFLOW');
    const rejected = exchanges.filter((e) => e.outcome === 'overflow');
    expect(rejected.length).toBeGreaterThanOrEqual(1);
    expect(rejected.length).toBeLessThanOrEqual(1 + RECOVERY_LIMITS.contextOverflow);
    expect(exchanges.length).toBe(3 + rejected.length);
    const partial = outcome.error?.partialResult as AgentResult | undefined;
    // What the run had done: three answered steps, its transcript (compacted as it went) ending with the last result.
    expect(partial?.steps).toBe(3);
    expect(partial?.messages.at(-1)?.role).toBe('tool');
    expect(outcome.events.filter((e) => e.type === 'run.error')).toHaveLength(1);
    // Each completed recovery is reported once, with its attempt number; the last rejection
    // has none (the run gave up).
    const done = recoveries(outcome.events);
    expect(done.every((e) => e.kind === 'context-overflow' && e.step === 4)).toBe(true);
    expect(done.map((e) => e.attempt)).toEqual(Array.from({ length: rejected.length - 1 }, (_, i) => i + 1));
  });

  it('a system prompt larger than the window is never sent: zero chat requests, LOUSHO_CONTEXT_OVERFLOW', async () => {
    const window = 8_192;
    // A local server reports its own window; the cloud models are registered with it.
    if (vendor.windowRoutes === undefined)
      registerModel({ id: vendor.model, provider: vendor.registry, contextWindow: window });
    const { server, exchanges } = await vendorServer(vendor, () => ({ text: 'hello' }), vendor.windowRoutes?.(window));
    const agent = createAgent({
      provider: vendor.make(server.url),
      instructions: prose(3, 60_000),
      compaction: true,
    });
    const outcome = await streamed(agent, 'Hello');

    expect(outcome.error?.code).toBe('LOUSHO_CONTEXT_OVERFLOW');
    expect(outcome.error?.details).toMatchObject({ limit: window });
    expect(exchanges).toHaveLength(0);
    expect(server.requests.filter((r) => r.path === vendor.path)).toHaveLength(0);
    if (vendor.windowRoutes !== undefined) expect(server.requests.some((r) => r.path.startsWith('/api/'))).toBe(true);
    expect(outcome.error?.partialResult).toBeDefined();
    expect(recoveries(outcome.events)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------
// Ollama's overflow bodies, as the provider reads them
// ---------------------------------------------------------------------------------------

describe("Ollama's /v1 overflow answers, read by createOllama over HTTP", () => {
  it.each([
    ['0.30 (llama-server exceed_context_size_error), 400', 400, ollamaOverflow(26_528, 16_384)],
    [
      '"the input length (M tokens) exceeds the maximum context length (N tokens)", 400',
      400,
      ollamaOverflowWorded(26_528, 16_384),
    ],
    [
      '"the input length (M tokens) exceeds the maximum context length (N tokens)", 500 api_error',
      500,
      ollamaOverflowWorded(26_528, 16_384),
    ],
  ])('%s → LOUSHO_CONTEXT_OVERFLOW with the limit and the request size', async (_, status, body) => {
    const server = await serve((_request, response) => sendJson(response, status, body));
    const provider = createOllama({ host: server.url, retry: { maxRetries: 0 } })('qwen3:8b');
    const error = await provider.generate({ model: 'qwen3:8b', messages: [{ role: 'user', content: 'Hi' }] }).then(
      () => expect.fail('the call succeeded'),
      (e: unknown) => asLoushoError(e),
    );
    expect({ code: error.code, limit: error.details?.limit, requested: error.details?.requested }).toEqual({
      code: 'LOUSHO_CONTEXT_OVERFLOW',
      limit: 16_384,
      requested: 26_528,
    });
  });
});
