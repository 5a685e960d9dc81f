import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { tool } from '../executor/tool.js';
import { type ReceivedRequest, sendJson, sendSse } from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { createAnthropic } from './anthropic.js';
import { anthropicOutputSchema, OUTPUT_TOOL_NAME, takesOutputConfig } from './anthropic-output-format.js';

const serve = useLoopbackServers();
const body = (request: ReceivedRequest | undefined) => request?.body as Record<string, unknown>;
const usage = { input_tokens: 10, output_tokens: 5 };

/** A Messages API reply with these content blocks, as documented. */
function reply(content: unknown[], stop = 'end_turn') {
  return { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content, stop_reason: stop, usage };
}

/** The SSE events of a reply whose only block is a tool_use streamed as input_json_delta, as documented. */
function streamedToolUse(name: string, json: string) {
  return [
    { event: 'message_start', data: { type: 'message_start', message: { ...reply([]), stop_reason: null } } },
    {
      event: 'content_block_start',
      data: {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_9', name, input: {} },
      },
    },
    {
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: json } },
    },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    {
      event: 'message_delta',
      data: { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ];
}

const City = z.object({ city: z.string(), days: z.number().min(1) });

describe('Anthropic structured output', () => {
  it('sends a model of the 4.5 generation on the schema as output_config.format, and result.output is the parsed reply', async () => {
    const server = await serve((_, response) =>
      sendJson(response, 200, reply([{ type: 'text', text: '{"city":"Oslo","days":2}' }])),
    );
    const agent = createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'k' })('claude-sonnet-4-5'),
      instructions: 'Be brief.',
      outputSchema: City,
    });
    const result = await agent.send('Plan a trip.');
    expect(result.output).toEqual({ city: 'Oslo', days: 2 });
    const sent = body(server.requests[0]);
    expect(sent.output_config).toEqual({
      format: {
        type: 'json_schema',
        schema: {
          type: 'object',
          properties: { city: { type: 'string' }, days: { type: 'number', description: '{minimum: 1}' } },
          required: ['city', 'days'],
          additionalProperties: false,
        },
      },
    });
    expect(JSON.stringify(sent.system)).not.toContain('JSON');
    expect(sent.tool_choice).toBeUndefined();
  });

  it('makes an older model call a final-answer tool (forced), and reads its call as the answer', async () => {
    const server = await serve((_, response) =>
      sendJson(
        response,
        200,
        reply(
          [{ type: 'tool_use', id: 'toolu_1', name: OUTPUT_TOOL_NAME, input: { value: { city: 'Rome', days: 3 } } }],
          'tool_use',
        ),
      ),
    );
    const agent = createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'k' })('claude-sonnet-4-20250514'),
      outputSchema: City,
    });
    const result = await agent.send('Plan a trip.');
    expect(result.output).toEqual({ city: 'Rome', days: 3 });
    expect(result.finishReason).toBe('stop');
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', content: '{"city":"Rome","days":3}' });
    const sent = body(server.requests[0]);
    expect(sent.output_config).toBeUndefined();
    expect(sent.tool_choice).toEqual({ type: 'tool', name: OUTPUT_TOOL_NAME });
    expect(sent.tools).toEqual([
      expect.objectContaining({
        name: OUTPUT_TOOL_NAME,
        input_schema: expect.objectContaining({ required: ['value'] }),
      }),
    ]);
  });

  it('lets an older model with tools call them first (tool_choice any), and reads a streamed final-answer call', async () => {
    const server = await serve((request, response) => {
      const first = server.requests.length === 1;
      if (first)
        return sendJson(
          response,
          200,
          reply([{ type: 'tool_use', id: 'toolu_0', name: 'lookup', input: {} }], 'tool_use'),
        );
      void request;
      return sendSse(response, streamedToolUse(OUTPUT_TOOL_NAME, '{"value":{"city":"Lima","days":5}}'));
    });
    const lookup = tool({ name: 'lookup', parameters: { type: 'object' }, execute: () => 'Lima is nice' });
    const agent = createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'k' })('claude-3-7-sonnet-20250219'),
      outputSchema: City,
      tools: [lookup],
    });
    const stream = agent.stream('Plan a trip.');
    for await (const _ of stream) {
      // events
    }
    const result = await stream.result;
    expect(result.output).toEqual({ city: 'Lima', days: 5 });
    expect(result.finishReason).toBe('stop');
    expect(body(server.requests[0]).tool_choice).toEqual({ type: 'any' });
    expect((body(server.requests[0]).tools as { name: string }[]).map((t) => t.name)).toEqual([
      'lookup',
      OUTPUT_TOOL_NAME,
    ]);
  });

  it('knows which models take output_config', () => {
    const native = [
      'claude-sonnet-4-5',
      'claude-sonnet-4-5-20250929',
      'claude-haiku-4-5',
      'claude-opus-4-6',
      'claude-sonnet-5',
    ];
    const older = [
      'claude-sonnet-4-20250514',
      'claude-opus-4-1-20250805',
      'claude-opus-4',
      'claude-3-7-sonnet-20250219',
      'claude-3-5-haiku-latest',
    ];
    expect(native.filter((m) => !takesOutputConfig(m))).toEqual([]);
    expect(older.filter(takesOutputConfig)).toEqual([]);
  });

  it('closes every object, turns oneOf into anyOf and moves what it does not take into the description', () => {
    expect(
      anthropicOutputSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          tags: {
            type: 'array',
            items: { type: 'object', properties: { t: { type: 'string', maxLength: 9 } } },
            minItems: 1,
          },
          when: { type: 'string', format: 'date' },
          pick: { oneOf: [{ type: 'string', pattern: '^a' }, { type: 'null' }] },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        tags: {
          type: 'array',
          items: {
            type: 'object',
            properties: { t: { type: 'string', description: '{maxLength: 9}' } },
            additionalProperties: false,
          },
          minItems: 1,
        },
        when: { type: 'string', format: 'date' },
        pick: { anyOf: [{ type: 'string', description: '{pattern: "^a"}' }, { type: 'null' }] },
      },
      additionalProperties: false,
    });
  });
});
