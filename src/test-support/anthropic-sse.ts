import type { ServerResponse } from 'node:http';
import { sendJson, sendSse } from './loopback-server.js';

/** A whole Messages API reply, as a test writes it. */
export interface AnthropicTestMessage {
  model: string;
  content: Record<string, unknown>[];
  stop_reason: string;
  usage: Record<string, unknown>;
}

/**
 * The documented event stream of a whole reply: message_start, each block (text and
 * tool_use input as deltas; other blocks, such as an on-demand compaction block, whole in
 * content_block_start), message_delta with the stop reason, message_stop.
 */
export function anthropicMessageEvents(message: AnthropicTestMessage): { event: string; data: unknown }[] {
  const events: Record<string, unknown>[] = [
    {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: message.model,
        content: [],
        stop_reason: null,
        usage: message.usage,
      },
    },
  ];
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else if (block.type === 'tool_use') {
      events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    } else events.push({ type: 'content_block_start', index, content_block: block });
    events.push({ type: 'content_block_stop', index });
  });
  events.push({
    type: 'message_delta',
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: message.usage,
  });
  events.push({ type: 'message_stop' });
  return events.map((data) => ({ event: data.type as string, data }));
}

/** Answers a Messages API request with `message`: as SSE when the request asked to stream, else as JSON. */
export function sendAnthropicMessage(response: ServerResponse, streamed: boolean, message: AnthropicTestMessage) {
  if (streamed) return sendSse(response, anthropicMessageEvents(message));
  return sendJson(response, 200, { id: 'msg_1', type: 'message', role: 'assistant', stop_sequence: null, ...message });
}
