import { type Schema, Validator } from '@cfworker/json-schema';
import type { JSONSchema } from '../contracts/json-schema.js';

/** Keywords whose own error only says that something below them failed; the failure below is reported instead. */
const WRAPPERS = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'items',
  'prefixItems',
  'additionalItems',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'allOf',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
]);

const validators = new WeakMap<object, Validator>();

function validatorFor(schema: JSONSchema): Validator {
  let validator = validators.get(schema);
  if (validator === undefined) {
    validator = new Validator(schema as Schema, '2020-12', false);
    validators.set(schema, validator);
  }
  return validator;
}

/** '#/tags/1/name' as '$.tags[1].name'. */
function pathOf(instanceLocation: string): string {
  let path = '$';
  for (const raw of instanceLocation.replace(/^#\/?/, '').split('/')) {
    if (raw === '') continue;
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    path += /^\d+$/.test(part) ? `[${part}]` : `.${part}`;
  }
  return path;
}

/**
 * Checks a value against a JSON Schema (draft 2020-12: type, properties, required,
 * additionalProperties, items, enum, const, pattern, format, anyOf, oneOf, allOf, not,
 * $ref and $defs, numeric and length bounds, ...) with @cfworker/json-schema. Returns the
 * problems found, each with the path of the value it concerns; [] when the value fits.
 * Validators are compiled once per schema object.
 */
export function checkJsonSchema(value: unknown, schema: JSONSchema): string[] {
  const result = validatorFor(schema).validate(value);
  if (result.valid) return [];
  const problems: string[] = [];
  for (const unit of result.errors) {
    if (WRAPPERS.has(unit.keyword)) continue;
    const path = pathOf(unit.instanceLocation);
    problems.push(unit.keyword === 'false' ? `${path} is not allowed` : `${path}: ${unit.error}`);
  }
  return problems.length > 0 ? problems : ['$: does not match the schema'];
}
