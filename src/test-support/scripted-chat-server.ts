import type { ServerResponse } from 'node:http';
import { fromOpenAIChat } from '../converters/from-openai-chat.js';
import type { Message } from '../messages/types.js';
import { countTextTokens } from '../models/tokenizer.js';
import {
  type LoopbackServer,
  type ReceivedRequest,
  sendJson,
  sendSse,
  startLoopbackServer,
} from './loopback-server.js';

/** One request the scripted server answered: our reading of its messages and the prompt tokens it reported. */
export interface ScriptedRequest {
  messages: Message[];
  promptTokens: number;
  stream: boolean;
}

/**
 * The prompt tokens of a chat request as the corpus's provider counted them: o200k tokens of
 * the contents and tool calls, ~8.5 per message and ~143 for the tool schema (DESIGN.md).
 */
export function providerPromptTokens(messages: readonly Message[]): number {
  let tokens = 143;
  for (const m of messages) {
    tokens += 8.5 + countTextTokens(typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
    if (m.role === 'assistant')
      for (const c of m.toolCalls ?? []) tokens += countTextTokens(c.name + JSON.stringify(c.arguments));
  }
  return Math.round(tokens);
}

/**
 * An OpenAI-compatible chat-completions server on loopback playing a tool-loop model: its
 * i-th request gets a call read_file({"path":"src/file<i>.ts"}) (id call_<i>) until the
 * last, which gets the text "Done.". JSON and SSE (with usage) alike. Each request is read
 * with fromOpenAIChat, so a malformed one fails the run. `hiddenTokens` are counted on top,
 * as a gateway's own framing would be: only calibration from the reported usage sees them.
 */
export async function startScriptedChatServer(
  steps: number,
  options: { hiddenTokens?: number } = {},
): Promise<LoopbackServer & { answered: ScriptedRequest[] }> {
  const answered: ScriptedRequest[] = [];
  const handler = (request: ReceivedRequest, response: ServerResponse) => {
    const body = request.body as { stream?: boolean; messages: unknown[] };
    const messages = fromOpenAIChat(body.messages);
    const promptTokens = providerPromptTokens(messages) + (options.hiddenTokens ?? 0);
    const step = answered.length;
    answered.push({ messages, promptTokens, stream: body.stream === true });
    const last = step >= steps - 1;
    const call = {
      id: `call_${step}`,
      type: 'function',
      function: { name: 'read_file', arguments: JSON.stringify({ path: `src/file${step}.ts` }) },
    };
    const usage = { prompt_tokens: promptTokens, completion_tokens: 12, total_tokens: promptTokens + 12 };
    const base = { id: `chatcmpl-${step}`, created: 1, model: 'loopback-16k' };
    if (body.stream !== true) {
      const message = last
        ? { role: 'assistant', content: 'Done.' }
        : { role: 'assistant', content: null, tool_calls: [call] };
      return sendJson(response, 200, {
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: last ? 'stop' : 'tool_calls' }],
        usage,
      });
    }
    const chunk = (delta: unknown, finish: string | null = null) => ({
      ...base,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const events = last
      ? [chunk({ role: 'assistant', content: 'Done.' }), chunk({}, 'stop')]
      : [chunk({ role: 'assistant', tool_calls: [{ index: 0, ...call }] }), chunk({}, 'tool_calls')];
    return sendSse(response, [
      ...events.map((data) => ({ data })),
      { data: { ...base, object: 'chat.completion.chunk', choices: [], usage } },
      '[DONE]',
    ]);
  };
  const server = await startLoopbackServer(handler);
  return Object.assign(server, { answered });
}
