import { describe, expect, it } from 'vitest';
import { closeObjectSchemas, isStrictSchema } from './strict-schema.js';

/* Closing object schemas for strict structured outputs and tools (schemas written for each case). */

/** The value at a path inside a schema. */
const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);

describe('closeObjectSchemas()', () => {
  it('closes every object that says nothing of other properties, at any depth', () => {
    const schema = {
      type: 'object',
      properties: {
        at: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] },
        tags: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } }, required: ['k'] } },
        either: { anyOf: [{ type: 'object', properties: {}, required: [] }, { type: 'null' }] },
        ref: { $ref: '#/$defs/point' },
      },
      required: ['at', 'tags', 'either', 'ref'],
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
    };
    const closed = closeObjectSchemas(schema);
    expect(at(closed, 'additionalProperties')).toBe(false);
    expect(at(closed, 'properties.at.additionalProperties')).toBe(false);
    expect(at(closed, 'properties.tags.items.additionalProperties')).toBe(false);
    expect(at(closed, 'properties.either.anyOf.0.additionalProperties')).toBe(false);
    expect(at(closed, '$defs.point.additionalProperties')).toBe(false);
    expect(isStrictSchema(schema)).toBe(false);
    expect(isStrictSchema(closed)).toBe(true);
  });

  it('keeps what a schema states (the way to opt out), leaves allOf members open and the schema itself as it was', () => {
    const schema = {
      type: 'object',
      properties: {
        free: { type: 'object', additionalProperties: true },
        typed: { type: 'object', additionalProperties: { type: 'string' } },
      },
      allOf: [{ type: 'object', properties: { a: { type: 'string' } } }],
    };
    const closed = closeObjectSchemas(schema);
    expect(at(closed, 'properties.free.additionalProperties')).toBe(true);
    expect(at(closed, 'properties.typed.additionalProperties')).toEqual({ type: 'string' });
    expect(at(closed, 'allOf.0.additionalProperties')).toBeUndefined();
    expect(at(schema, 'additionalProperties')).toBeUndefined();
    expect(closeObjectSchemas(schema)).toBe(closed);
  });
});
