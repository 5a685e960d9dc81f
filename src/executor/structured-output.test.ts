import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { chatRequestBody } from '../providers/openai-request.js';
import { rejection } from '../test-support/errors.js';
import { mockModel } from '../testing/mock-model.js';
import type { OutputSchema } from './structured-output.js';
import { jsonSchema, type StandardSchemaV1, tool } from './tool.js';

/** A Standard Schema validator that is a function and carries Standard JSON Schema, as arktype's types are. */
function callableSchema(): ((value: unknown) => unknown) & StandardSchemaV1<unknown, { city: string }> {
  const validate = (value: unknown) =>
    typeof (value as { city?: unknown })?.city === 'string'
      ? { value: value as { city: string } }
      : { issues: [{ message: 'must be a string', path: ['city'] }] };
  const json = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  return Object.assign((value: unknown) => validate(value), {
    '~standard': {
      version: 1 as const,
      vendor: 'arktype',
      validate,
      jsonSchema: { input: () => ({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...json }) },
    },
  });
}

describe('createAgent({ outputSchema })', () => {
  it('sends a zod schema to the provider as real JSON Schema, not zod internals, its objects closed', async () => {
    const model = mockModel(['{"city":"Oslo"}']);
    await createAgent({ provider: model, outputSchema: z.object({ city: z.string() }) }).send('where?');
    const sent = model.calls[0]?.outputSchema;
    expect(sent).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    });
    expect(JSON.stringify(sent)).not.toContain('"def"');
  });

  it('a plain z.object() goes to OpenAI strict (it went with strict: false); a loose one, or one that says so, stays open', async () => {
    const strictOf = async (schema: OutputSchema) => {
      const model = mockModel(['{"city":"Oslo","at":{"lat":59.9}}']);
      await createAgent({ provider: model, outputSchema: schema }).send('where?');
      const outputSchema = model.calls[0]?.outputSchema;
      const messages = [{ role: 'user' as const, content: 'q' }];
      const body = chatRequestBody({ model: 'm', messages, ...(outputSchema ? { outputSchema } : {}) }, 'm', {
        maxTokensField: 'max_tokens',
      });
      return body.response_format?.json_schema.strict;
    };
    expect(await strictOf(z.object({ city: z.string(), at: z.object({ lat: z.number() }) }))).toBe(true);
    expect(await strictOf(z.looseObject({ city: z.string() }))).toBe(false);
    expect(
      await strictOf({ type: 'object', properties: { city: { type: 'string' } }, additionalProperties: true }),
    ).toBe(false);
  });

  it('gives result.output parsed, validated and typed', async () => {
    const agent = createAgent({
      provider: mockModel(['```json\n{"city":"Oslo","days":3}\n```']),
      outputSchema: z.object({ city: z.string(), days: z.number().default(1) }),
    });
    const result = await agent.send('where?');
    expect(result.output).toEqual({ city: 'Oslo', days: 3 });
    expectTypeOf(result.output).toEqualTypeOf<{ city: string; days: number } | undefined>();
  });

  it('types result.output by jsonSchema<T>() and validates against the JSON Schema', async () => {
    const schema = jsonSchema<{ city: string }>({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    });
    const result = await createAgent({ provider: mockModel(['{"city":"Bergen"}']), outputSchema: schema }).send('q');
    expect(result.output?.city).toBe('Bergen');
    expectTypeOf(result.output).toEqualTypeOf<{ city: string } | undefined>();
  });

  it('asks once more with the validation error when a reply breaks the schema', async () => {
    const model = mockModel(['{"town":"Oslo"}', '{"city":"Oslo"}']);
    const result = await createAgent({ provider: model, outputSchema: z.object({ city: z.string() }) }).send('q');
    expect(result.output).toEqual({ city: 'Oslo' });
    const retry = model.calls[1]?.messages.at(-1);
    expect(retry).toMatchObject({ role: 'user' });
    expect(String(retry?.content)).toMatch(/does not match the required JSON Schema: city: /);
  });

  it('fails with LOUSHO_OUTPUT_INVALID carrying the raw text when the retry breaks it too', async () => {
    const model = mockModel(['not json at all', '{"city": 7}']);
    const error = await rejection(
      createAgent({ provider: model, outputSchema: z.object({ city: z.string() }) }).send('q'),
    );
    expect(error).toMatchObject({ code: 'LOUSHO_OUTPUT_INVALID', details: { text: '{"city": 7}' } });
    expect((error as Error).message).toContain('city');
  });

  it('takes a plain JSON Schema and refuses a value that is no schema', async () => {
    const result = await createAgent({
      provider: mockModel(['[1,2]']),
      outputSchema: { type: 'array', items: { type: 'number' } },
    }).send('q');
    expect(result.output).toEqual([1, 2]);
    expect(() => createAgent({ provider: mockModel([]), outputSchema: 'json' as never })).toThrow(
      /outputSchema must be/,
    );
  });

  it("sends OpenAI's response_format json_schema, strict when the schema allows it", () => {
    const closed = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    };
    const body = chatRequestBody(
      { model: 'm', messages: [{ role: 'user', content: 'q' }], outputSchema: closed },
      'm',
      { maxTokensField: 'max_tokens' },
    );
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'output', schema: closed, strict: true },
    });
    const open = { type: 'object', properties: { a: { type: 'string' } } };
    const loose = chatRequestBody({ model: 'm', messages: [{ role: 'user', content: 'q' }], outputSchema: open }, 'm', {
      maxTokensField: 'max_tokens',
    });
    expect(loose.response_format?.json_schema.strict).toBe(false);
  });
});

describe('Standard Schema validators of other libraries', () => {
  it('refuses a valibot schema without @valibot/to-json-schema, saying what to install and pass', () => {
    const attempt = () => createAgent({ provider: mockModel([]), outputSchema: v.object({ city: v.string() }) });
    expect(attempt).toThrow(
      /outputSchema: its valibot schema gives no JSON Schema.*npm install @valibot\/to-json-schema, then pass toStandardJsonSchema\(schema\)/,
    );
    expect(rejectionOf(attempt)).toMatchObject({
      code: 'LOUSHO_CONFIG_INVALID',
      details: { vendor: 'valibot', install: '@valibot/to-json-schema' },
    });
    const asTool = () =>
      createAgent({
        provider: mockModel([]),
        tools: [tool({ name: 't', parameters: v.object({ a: v.string() }), execute: () => '' })],
      });
    expect(asTool).toThrow(/Tool 't': its valibot schema gives no JSON Schema/);
  });

  it('takes a valibot schema given Standard JSON Schema (what toStandardJsonSchema() adds), validating with valibot', async () => {
    const schema = v.object({ city: v.string() });
    const withJson = {
      '~standard': { ...schema['~standard'], jsonSchema: { input: () => ({ type: 'object', required: ['city'] }) } },
    } as StandardSchemaV1<unknown, { city: string }>;
    const model = mockModel(['{"city":1}', '{"city":"Oslo"}']);
    const result = await createAgent({ provider: model, outputSchema: withJson }).send('q');
    expect(model.calls[0]?.outputSchema).toEqual({ type: 'object', required: ['city'], additionalProperties: false });
    expect(result.output).toEqual({ city: 'Oslo' });
    expect(String(model.calls[1]?.messages.at(-1)?.content)).toMatch(/city: Invalid type/);
  });

  it("takes a validator that is a function, as arktype's types are, for the output and for a tool", async () => {
    const model = mockModel([
      { toolCalls: [{ id: 'c', name: 'where', arguments: { city: 'Oslo' } }] },
      '{"city":"Bergen"}',
    ]);
    const where = tool({ name: 'where', parameters: callableSchema(), execute: ({ city }) => `in ${city}` });
    const result = await createAgent({ provider: model, outputSchema: callableSchema(), tools: [where] }).send('q');
    expect(model.calls[0]?.outputSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    });
    expect(model.calls[0]?.tools?.[0]?.parameters).toMatchObject({ required: ['city'] });
    expect(result.messages[2]).toMatchObject({ content: 'in Oslo' });
    expect(result.output).toEqual({ city: 'Bergen' });
  });
});

function rejectionOf(attempt: () => unknown): unknown {
  try {
    attempt();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('tool({ parameters: jsonSchema<T>() })', () => {
  it('types the arguments by T and validates them against the schema', async () => {
    const weather = tool({
      name: 'get_weather',
      parameters: jsonSchema<{ city: string }>({
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
      }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string }>();
        return `Sunny in ${args.city.toUpperCase()}`;
      },
    });
    const model = mockModel([{ toolCalls: [{ id: 'c', name: 'get_weather', arguments: { city: 'oslo' } }] }, 'ok']);
    const result = await createAgent({ provider: model, tools: [weather] }).send('q');
    expect(result.messages.at(-2)).toMatchObject({ content: 'Sunny in OSLO' });
  });
});
