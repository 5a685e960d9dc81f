const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
/** Keywords whose value is one schema. */
const ONE = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'];
/** Keywords whose value is a list of schemas. */
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value maps names to schemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The first thing in `schema` that makes it no JSON Schema (draft 2020-12), as "at
 * properties.path: ..."; undefined when its keywords have the shapes the draft gives them.
 * Checked: `type` (one of the seven types, or a list of them), `required` (names), `enum`
 * (a list), and every keyword that holds schemas, at any depth. Unknown keywords are allowed,
 * as the draft allows them.
 */
export function jsonSchemaProblem(schema: unknown, at = ''): string | undefined {
  const where = at === '' ? 'at the top' : `at ${at}`;
  if (typeof schema === 'boolean') return undefined;
  if (!isObject(schema)) return `${where}: a schema is an object or true/false, not ${JSON.stringify(schema)}`;
  const type = schema.type;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    const bad = types.find((t) => typeof t !== 'string' || !TYPES.has(t));
    if (bad !== undefined || types.length === 0)
      return `${where}: type ${JSON.stringify(bad ?? type)} is none of ${[...TYPES].join(', ')}`;
  }
  if (
    schema.required !== undefined &&
    !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string'))
  )
    return `${where}: required must be a list of property names`;
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) return `${where}: enum must be a list of values`;
  const path = (key: string) => (at === '' ? key : `${at}.${key}`);
  for (const key of ONE) {
    if (schema[key] === undefined) continue;
    const problem = jsonSchemaProblem(schema[key], path(key));
    if (problem !== undefined) return problem;
  }
  for (const key of LIST) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) return `${where}: ${key} must be a list of schemas`;
    for (const [i, item] of list.entries()) {
      const problem = jsonSchemaProblem(item, `${path(key)}[${i}]`);
      if (problem !== undefined) return problem;
    }
  }
  for (const key of MAP) {
    const map = schema[key];
    if (map === undefined) continue;
    if (!isObject(map)) return `${where}: ${key} must map names to schemas`;
    for (const [name, item] of Object.entries(map)) {
      const problem = jsonSchemaProblem(item, `${path(key)}.${name}`);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}
