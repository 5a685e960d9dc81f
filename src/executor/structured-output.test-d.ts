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
