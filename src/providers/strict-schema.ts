/** Whether a JSON Schema keeps OpenAI's strict rules: each object has additionalProperties false and requires every property. */
export function isStrictSchema(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return true;
  if (Array.isArray(schema)) return schema.every(isStrictSchema);
  const s = schema as Record<string, unknown>;
  if (s.type === 'object' || s.properties !== undefined) {
    const keys = Object.keys((s.properties ?? {}) as object);
    const required = Array.isArray(s.required) ? s.required : [];
    if (s.additionalProperties !== false || !keys.every((k) => required.includes(k))) return false;
  }
  return Object.entries(s).every(([k, v]) => k === 'enum' || k === 'const' || k === 'default' || isStrictSchema(v));
}

/** Keywords whose value is a schema, or a list or map of schemas, that closeObjectSchemas() goes into. */
const ONE = ['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else', 'propertyNames'];
const LIST = ['anyOf', 'oneOf', 'prefixItems', 'items'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions'];

const closed = new WeakMap<object, unknown>();

/**
 * The schema with every object schema that says nothing of other properties closed
 * (`additionalProperties: false`), at any depth: what strict structured outputs and strict
 * tools need, and what a zod object means (its input JSON Schema leaves objects open). An
 * object that states `additionalProperties` (true, or a schema) stays as it says, which is how
 * a schema opts out; `allOf` members stay open, since closing them would refuse each other's
 * properties. A copy: the schema itself is left as it is (the copy is kept per schema object).
 */
export function closeObjectSchemas<T>(schema: T): T {
  if (typeof schema !== 'object' || schema === null) return schema;
  const known = closed.get(schema);
  if (known !== undefined) return known as T;
  const out = close(schema) as T;
  closed.set(schema, out);
  return out;
}

function close(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const s = schema as Record<string, unknown>;
  const out: Record<string, unknown> = { ...s };
  for (const key of ONE) if (isObject(s[key])) out[key] = close(s[key]);
  for (const key of LIST) if (Array.isArray(s[key])) out[key] = (s[key] as unknown[]).map(close);
  for (const key of MAP)
    if (isObject(s[key]))
      out[key] = Object.fromEntries(Object.entries(s[key] as object).map(([k, v]) => [k, close(v)]));
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const object = types.includes('object') || s.properties !== undefined;
  const open =
    s.additionalProperties !== undefined || s.patternProperties !== undefined || s.unevaluatedProperties !== undefined;
  if (object && !open) out.additionalProperties = false;
  return out;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
