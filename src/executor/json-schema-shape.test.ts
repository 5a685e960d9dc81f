import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { LoushoError } from '../errors/lousho-error.js';
import { mockModel } from '../testing/mock-model.js';
import { jsonSchemaProblem } from './json-schema-shape.js';
import { tool } from './tool.js';

const readTool = (parameters: Record<string, unknown>) =>
  tool({ name: 'read', description: 'Read a file', parameters, execute: () => 'ok' });

describe('schemas that are not JSON Schema', () => {
  it.each([
    [{ type: 'objekt' }, /^at the top: type "objekt" is none of object, array/],
    [{ type: 'object', properties: { path: { type: 'strng' } } }, /^at properties\.path: type "strng"/],
    [{ type: 'object', required: 'path' }, /required must be a list of property names/],
    [{ type: 'array', items: [{ type: 'string' }, 'x'] }, /^at items: a schema is an object or true\/false/],
    [{ anyOf: { type: 'string' } }, /anyOf must be a list of schemas/],
    [
      { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'text' }] } } },
      /at properties\.a\.anyOf\[1\]/,
    ],
    [{ type: ['string', 'nul'] }, /type "nul"/],
  ])('names what is wrong in %j', (schema, problem) => {
    expect(jsonSchemaProblem(schema)).toMatch(problem);
  });

  it.each([
    { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
    { type: ['string', 'null'], enum: ['a', null] },
    { $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } }, $ref: '#/$defs/node' },
    { type: 'object', 'x-vendor': { anything: 1 } },
    {},
  ])('accepts the JSON Schema %j', (schema) => {
    expect(jsonSchemaProblem(schema)).toBeUndefined();
  });

  it('is refused at createAgent() with LOUSHO_CONFIG_INVALID naming the tool and the place, for a tool and for outputSchema', () => {
    const refusal = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        return error as LoushoError;
      }
      return expect.fail('createAgent() accepted a schema that is no JSON Schema');
    };
    const provider = mockModel(['ok']);
    const forTool = refusal(() =>
      createAgent({ provider, tools: [readTool({ type: 'object', properties: { path: { type: 'objekt' } } })] }),
    );
    expect(LoushoError.isInstance(forTool) && forTool.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(forTool.message).toMatch(/^Tool 'read': its schema is no JSON Schema \(at properties\.path: type "objekt"/);
    const forOutput = refusal(() => createAgent({ provider, outputSchema: { type: 'objekt' } }));
    expect(forOutput.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(forOutput.message).toMatch(/outputSchema: its schema is no JSON Schema/);
  });
});
