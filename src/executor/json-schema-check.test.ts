import { describe, expect, it } from 'vitest';
import { checkJsonSchema } from './json-schema-check.js';

describe('checkJsonSchema()', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 2, maxLength: 5 },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      score: { type: 'number' },
      tags: { type: 'array', items: { type: 'string' } },
      mode: { enum: ['fast', 'slow'] },
      kind: { const: 'person' },
      nickname: { type: ['string', 'null'] },
    },
    required: ['name'],
    additionalProperties: false,
  };

  it('returns no problems for a value that fits', () => {
    expect(
      checkJsonSchema(
        { name: 'Ada', age: 36, score: 1, tags: ['x'], mode: 'fast', kind: 'person', nickname: null },
        schema,
      ),
    ).toEqual([]);
  });

  it('accepts an integer where a number is expected, but not a fraction where an integer is', () => {
    expect(checkJsonSchema({ name: 'Ada', score: 3 }, schema)).toEqual([]);
    expect(checkJsonSchema({ name: 'Ada', age: 3.5 }, schema)).toEqual([
      expect.stringMatching(/^\$\.age: .*"integer"/),
    ]);
  });

  it('reports each problem with the path of the value it concerns', () => {
    const problems = checkJsonSchema(
      { age: -1, tags: ['ok', 7], mode: 'medium', kind: 'robot', extra: true, nickname: 3 },
      schema,
    );
    const paths = problems.map((p) => p.split(/[: ]/)[0]);
    expect(new Set(paths)).toEqual(new Set(['$', '$.age', '$.tags[1]', '$.mode', '$.kind', '$.extra', '$.nickname']));
    expect(problems).toContain('$.extra is not allowed');
    expect(problems.find((p) => p.startsWith('$:'))).toMatch(/name/);
  });

  it('checks string and number bounds', () => {
    expect(checkJsonSchema({ name: 'A' }, schema)).toHaveLength(1);
    expect(checkJsonSchema({ name: 'Abcdef' }, schema)[0]).toMatch(/^\$\.name:/);
    expect(checkJsonSchema({ name: 'Ab', age: 151 }, schema)[0]).toMatch(/^\$\.age:/);
  });

  it('checks the keywords a hand-written subset let through: pattern, format, anyOf, oneOf, $ref, enum', () => {
    const strict = {
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        slug: { type: 'string', pattern: '^[a-z-]+$' },
        size: { anyOf: [{ type: 'integer' }, { enum: ['small', 'large'] }] },
        unit: { oneOf: [{ const: 'kg' }, { const: 'lb' }] },
        color: { $ref: '#/$defs/color' },
      },
      $defs: { color: { enum: ['red', 'green'] } },
    };
    expect(
      checkJsonSchema(
        { id: '0f8fad5b-d9cb-469f-a165-70867728950e', slug: 'a-b', size: 3, unit: 'kg', color: 'red' },
        strict,
      ),
    ).toEqual([]);
    expect(checkJsonSchema({ id: 'not-a-uuid' }, strict)).toEqual([expect.stringMatching(/^\$\.id: .*uuid/)]);
    expect(checkJsonSchema({ slug: 'Not Slug' }, strict)).toEqual([expect.stringMatching(/^\$\.slug: .*pattern/)]);
    expect(checkJsonSchema({ size: 'medium' }, strict).length).toBeGreaterThan(0);
    expect(checkJsonSchema({ unit: 'g' }, strict).length).toBeGreaterThan(0);
    expect(checkJsonSchema({ color: 'blue' }, strict)).toEqual([expect.stringMatching(/^\$\.color: /)]);
  });

  it('stops at a wrong type', () => {
    expect(checkJsonSchema('not an object', schema)).toEqual([expect.stringMatching(/^\$: .*"object"/)]);
    expect(checkJsonSchema(null, schema)).toHaveLength(1);
  });

  it('allows unknown properties unless additionalProperties is false', () => {
    expect(checkJsonSchema({ anything: 1 }, { type: 'object' })).toEqual([]);
  });
});
