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
