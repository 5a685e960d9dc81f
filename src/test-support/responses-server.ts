import type { ServerResponse } from 'node:http';
import { type ReceivedRequest, sendJson, sendSse } from './loopback-server.js';

/** One scripted reply of a Responses API stand-in. */
export interface ResponsesReply {
  /** A reasoning item first: its id, encrypted content and summary. */
  reasoning?: { id: string; encrypted?: string; summary?: string[] };
  /** A compaction item (server-side compaction) before the rest. */
  compaction?: { id: string; encrypted: string };
  /** The message text. */
  text?: string;
  /** Function calls. */
  calls?: { id: string; name: string; args: string }[];
  /** Ends as incomplete with this reason instead of completed. */
  incomplete?: 'max_output_tokens' | 'content_filter';
}

/** The usage every scripted response reports: 42 in (32 cached), 7 out (3 of them reasoning). */
export const RESPONSES_USAGE = {
  input_tokens: 42,
  input_tokens_details: { cached_tokens: 32 },
  output_tokens: 7,
  output_tokens_details: { reasoning_tokens: 3 },
  total_tokens: 49,
};

/** The output items of a reply, as the API writes them. */
export function outputItems(reply: ResponsesReply, n: number): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (reply.compaction !== undefined)
    items.push({ id: reply.compaction.id, type: 'compaction', encrypted_content: reply.compaction.encrypted });
  if (reply.reasoning !== undefined)
    items.push({
      id: reply.reasoning.id,
      type: 'reasoning',
      ...(reply.reasoning.encrypted === undefined ? {} : { encrypted_content: reply.reasoning.encrypted }),
      summary: (reply.reasoning.summary ?? []).map((text) => ({ type: 'summary_text', text })),
    });
  if (reply.text !== undefined)
    items.push({
      id: `msg_${n}`,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: reply.text }],
    });
  for (const call of reply.calls ?? [])
    items.push({
      id: `fc_${call.id}`,
      type: 'function_call',
      status: 'completed',
      arguments: call.args,
      call_id: call.id,
      name: call.name,
    });
  return items;
}

/** A whole response object. */
export function responseObject(model: string, reply: ResponsesReply, n: number, status?: string) {
  return {
    id: `resp_${n}`,
    object: 'response',
    created_at: 1,
    status: status ?? (reply.incomplete === undefined ? 'completed' : 'incomplete'),
    error: null,
    incomplete_details: reply.incomplete === undefined ? null : { reason: reply.incomplete },
    model,
    output: status === 'in_progress' ? [] : outputItems(reply, n),
    usage: status === 'in_progress' ? null : RESPONSES_USAGE,
  };
}

/** The events of a streamed reply, in the order the API sends them. */
export function responseEvents(model: string, reply: ResponsesReply, n: number): { event: string; data: unknown }[] {
  const events: Record<string, unknown>[] = [];
  events.push({ type: 'response.created', response: responseObject(model, reply, n, 'in_progress') });
  events.push({ type: 'response.in_progress', response: responseObject(model, reply, n, 'in_progress') });
  outputItems(reply, n).forEach((item, index) => {
    const base = { output_index: index, item_id: item.id };
    const start =
      item.type === 'message'
        ? { ...item, status: 'in_progress', content: [] }
        : item.type === 'function_call'
          ? { ...item, status: 'in_progress', arguments: '' }
          : item.type === 'reasoning'
            ? { ...item, summary: [] }
            : item;
    events.push({ type: 'response.output_item.added', output_index: index, item: start });
    if (item.type === 'reasoning') {
      (reply.reasoning?.summary ?? []).forEach((text, summary_index) => {
        events.push({
          type: 'response.reasoning_summary_part.added',
          ...base,
          summary_index,
          part: { type: 'summary_text', text: '' },
        });
        for (const delta of text.split(/(?<= )/))
          events.push({ type: 'response.reasoning_summary_text.delta', ...base, summary_index, delta });
        events.push({ type: 'response.reasoning_summary_text.done', ...base, summary_index, text });
      });
    } else if (item.type === 'message') {
      for (const delta of (reply.text ?? '').split(/(?<= )/))
        events.push({ type: 'response.output_text.delta', ...base, content_index: 0, delta });
      events.push({ type: 'response.output_text.done', ...base, content_index: 0, text: reply.text });
    } else if (item.type === 'function_call') {
      events.push({ type: 'response.function_call_arguments.delta', ...base, delta: item.arguments });
      events.push({ type: 'response.function_call_arguments.done', ...base, arguments: item.arguments });
    }
    events.push({ type: 'response.output_item.done', output_index: index, item });
  });
  const end = reply.incomplete === undefined ? 'response.completed' : 'response.incomplete';
  events.push({ type: end, response: responseObject(model, reply, n) });
  return events.map((data, sequence_number) => ({
    event: data.type as string,
    data: { ...data, sequence_number },
  }));
}

/** A handler that answers each POST /v1/responses with the next reply of the script (JSON or SSE, as asked). */
export function responsesReplies(model: string, script: ResponsesReply[]) {
  let n = 0;
  return (request: ReceivedRequest, response: ServerResponse) => {
    if (request.path !== '/v1/responses') return sendJson(response, 404, { error: { message: 'not found' } });
    const reply = script[Math.min(n++, script.length - 1)] as ResponsesReply;
    if ((request.body as { stream?: boolean }).stream === true)
      return sendSse(response, responseEvents(model, reply, n));
    return sendJson(response, 200, responseObject(model, reply, n));
  };
}
