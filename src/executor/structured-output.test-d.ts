import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import type { AgentResult } from '../contracts/agent-result.js';
import { mockModel } from '../testing/mock-model.js';
import { jsonSchema, type StandardSchemaV1, type Tool, tool } from './tool.js';

const provider = mockModel([]);
type Output<A> = A extends { send(...args: never[]): Promise<AgentResult<infer O>> } ? O : never;

describe('createAgent({ outputSchema }) types result.output', () => {
  it('by a zod schema, defaults applied', () => {
    const agent = createAgent({ provider, outputSchema: z.object({ city: z.string(), days: z.number().default(1) }) });
    expectTypeOf<Output<typeof agent>>().toEqualTypeOf<{ city: string; days: number }>();
  });

  it('by the T of jsonSchema<T>()', () => {
    const agent = createAgent({ provider, outputSchema: jsonSchema<{ ids: number[] }>({ type: 'object' }) });
    expectTypeOf<Output<typeof agent>>().toEqualTypeOf<{ ids: number[] }>();
  });

  it('by the output type of any Standard Schema validator, a callable one (as arktype’s) included', () => {
    type Callable = ((value: unknown) => unknown) & StandardSchemaV1<unknown, { ok: boolean }>;
    const agent = createAgent({ provider, outputSchema: {} as Callable });
    expectTypeOf<Output<typeof agent>>().toEqualTypeOf<{ ok: boolean }>();
  });

  it('as unknown for a plain JSON Schema, and without a schema', () => {
    expectTypeOf<Output<ReturnType<typeof createAgent>>>().toEqualTypeOf<unknown>();
    const plain = createAgent({ provider, outputSchema: { type: 'object' } });
    expectTypeOf<Output<typeof plain>>().toEqualTypeOf<unknown>();
  });
});

describe("tool() types execute()'s arguments", () => {
  it('by the T of jsonSchema<T>(), with no String(city) needed', () => {
    const weather = tool({
      name: 'weather',
      parameters: jsonSchema<{ city: string; days?: number }>({ type: 'object' }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number }>();
        // @ts-expect-error: not in T
        void args.country;
        return args.city.toUpperCase();
      },
    });
    expectTypeOf(weather).toEqualTypeOf<Tool<{ city: string; days?: number }, string>>();
  });

  it('by a zod schema', () => {
    tool({
      name: 'read',
      parameters: z.object({ path: z.string() }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ path: string }>();
        return args.path;
      },
    });
  });

  it('as a record for a plain JSON Schema', () => {
    tool({
      name: 'any',
      parameters: { type: 'object' },
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        return '';
      },
    });
  });
});

/*
 * The three Standard Schema libraries, each in createAgent({ outputSchema }), tool({ parameters })
 * and result.output: what must compile does, and each @ts-expect-error line must fail to compile
 * (tsc reports an @ts-expect-error that has no error under it). arktype's outputSchema failed
 * with TS2589 ("Type instantiation is excessively deep") before createAgent() took its options
 * as Omit<CreateAgentOptions, 'outputSchema'>.
 */
describe('zod 4, valibot and arktype', () => {
  const schemas = {
    zod: z.object({ city: z.string(), days: z.number() }),
    valibot: v.object({ city: v.string(), days: v.number() }),
    arktype: type({ city: 'string', days: 'number' }),
  };

  it('type result.output in createAgent({ outputSchema })', async () => {
    const fromZod = createAgent({ provider, outputSchema: schemas.zod });
    const fromValibot = createAgent({ provider, outputSchema: schemas.valibot });
    const fromArktype = createAgent({ provider, outputSchema: schemas.arktype });
    expectTypeOf<Output<typeof fromZod>>().toEqualTypeOf<{ city: string; days: number }>();
    expectTypeOf<Output<typeof fromValibot>>().toEqualTypeOf<{ city: string; days: number }>();
    expectTypeOf<Output<typeof fromArktype>>().toEqualTypeOf<{ city: string; days: number }>();
    const result = await fromArktype.send('q');
    expectTypeOf(result.output).toEqualTypeOf<{ city: string; days: number } | undefined>();
    // @ts-expect-error: not a field of the schema
    void result.output?.country;
    // @ts-expect-error: days is a number
    const days: string | undefined = (await fromValibot.send('q')).output?.days;
    void days;
  });

  it('type the arguments of tool({ parameters })', () => {
    for (const parameters of [schemas.zod, schemas.valibot, schemas.arktype]) {
      tool({
        name: 'weather',
        parameters,
        execute: (args) => {
          expectTypeOf(args).toEqualTypeOf<{ city: string; days: number }>();
          // @ts-expect-error: not a field of the schema
          void args.country;
          return args.city.toUpperCase();
        },
      });
    }
    // @ts-expect-error: execute() takes the schema's arguments, not a number
    tool({ name: 'weather', parameters: schemas.arktype, execute: (args: number) => args });
  });

  it('refuse what is no schema', () => {
    // @ts-expect-error: a string is neither a Standard Schema validator nor a JSON Schema
    createAgent({ provider, outputSchema: 'city: string' });
  });
});
