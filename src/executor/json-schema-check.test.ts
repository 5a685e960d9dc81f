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
    expect(checkJsonSchema({ name: 'Ada', age: 3.5 }, schema)).toEqual(['$.age must be "integer", got number']);
  });

  it('reports each problem with its path', () => {
    const problems = checkJsonSchema(
      { age: -1, tags: ['ok', 7], mode: 'medium', kind: 'robot', extra: true, nickname: 3 },
      schema,
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        '$.name is required',
        '$.age must be >= 0',
        '$.tags[1] must be "string", got integer',
        '$.mode must be one of ["fast","slow"]',
        '$.kind must be "person"',
        '$.extra is not allowed',
        '$.nickname must be ["string","null"], got integer',
      ]),
    );
    expect(problems).toHaveLength(7);
  });

  it('checks string and number bounds', () => {
    expect(checkJsonSchema({ name: 'A' }, schema)).toEqual(['$.name is shorter than 2']);
    expect(checkJsonSchema({ name: 'Abcdef' }, schema)).toEqual(['$.name is longer than 5']);
    expect(checkJsonSchema({ name: 'Ab', age: 151 }, schema)).toEqual(['$.age must be <= 150']);
  });

  it('stops at a wrong type instead of checking the keywords below it', () => {
    expect(checkJsonSchema('not an object', schema)).toEqual(['$ must be "object", got string']);
    expect(checkJsonSchema(null, schema)).toEqual(['$ must be "object", got null']);
    expect(checkJsonSchema([], schema)).toEqual(['$ must be "object", got array']);
  });

  it('allows unknown properties unless additionalProperties is false', () => {
    expect(checkJsonSchema({ anything: 1 }, { type: 'object' })).toEqual([]);
  });
});
