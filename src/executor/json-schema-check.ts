import type { JSONSchema } from '../contracts/json-schema.js';

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

function matchesType(value: unknown, type: unknown): boolean {
  if (type === undefined) return true;
  if (Array.isArray(type)) return type.some((t) => matchesType(value, t));
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/**
 * Checks a value against the common keywords of a JSON Schema (type, properties,
 * required, additionalProperties: false, items, enum, const, string and number bounds).
 * Returns the problems found, each with its path; [] when it fits. Other keywords are
 * not checked.
 */
export function checkJsonSchema(value: unknown, schema: JSONSchema, path = '$'): string[] {
  const problems: string[] = [];
  if (!matchesType(value, schema.type)) {
    return [`${path} must be ${JSON.stringify(schema.type)}, got ${typeOf(value)}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    problems.push(`${path} must be one of ${JSON.stringify(schema.enum)}`);
  }
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) {
    problems.push(`${path} must be ${JSON.stringify(schema.const)}`);
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength)
      problems.push(`${path} is shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength)
      problems.push(`${path} is longer than ${schema.maxLength}`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      problems.push(`${path} must be >= ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      problems.push(`${path} must be <= ${schema.maximum}`);
  }
  if (Array.isArray(value) && typeof schema.items === 'object' && schema.items !== null) {
    value.forEach((item, i) => {
      problems.push(...checkJsonSchema(item, schema.items as JSONSchema, `${path}[${i}]`));
    });
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, JSONSchema>;
    for (const key of Array.isArray(schema.required) ? (schema.required as string[]) : []) {
      if (object[key] === undefined) problems.push(`${path}.${key} is required`);
    }
    for (const [key, item] of Object.entries(object)) {
      const property = properties[key];
      if (property !== undefined) problems.push(...checkJsonSchema(item, property, `${path}.${key}`));
      else if (schema.additionalProperties === false) problems.push(`${path}.${key} is not allowed`);
    }
  }
  return problems;
}
