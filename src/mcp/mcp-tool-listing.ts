import type { JSONSchema } from '../contracts/json-schema.js';
import { jsonSchemaProblem } from '../executor/json-schema-shape.js';
import { toolArgumentsProblem } from '../executor/tool-limits.js';
import type { McpToolFilter, McpToolListing } from './mcp-server-config.js';

/** A tool of a server as the agent offers it: the server's listing, checked. */
export interface McpToolInfo extends McpToolListing {
  /** Its arguments' schema, an object schema. */
  inputSchema: JSONSchema;
  /** The schema its structuredContent must match, when it gives a usable one. */
  outputSchema?: JSONSchema;
}

/** The longest description a tool keeps: a server could otherwise fill the request with one. */
export const MAX_DESCRIPTION_CHARS = 10_000;

/** What is wrong with a schema a server gave, or undefined: too deep or too long (see toolArgumentsProblem), or no JSON Schema. */
function schemaProblem(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'it is not an object';
  return toolArgumentsProblem(schema) ?? jsonSchemaProblem(schema);
}

/** Whether a filter lets the model see a tool. */
function allowed(filter: McpToolFilter | undefined, tool: McpToolListing): boolean {
  if (filter === undefined) return true;
  if (typeof filter === 'function') return filter(tool) === true;
  return (filter.allow === undefined || filter.allow.includes(tool.name)) && !(filter.deny ?? []).includes(tool.name);
}

/**
 * The tools of a tools/list the agent can offer, in the server's order: each with a string
 * name (the first of a name listed twice), an object input schema no deeper than 64 levels and
 * under 1,000,000 characters that is JSON Schema, and a description of at most 10,000
 * characters; an unusable outputSchema is left out (its results are not checked). `filter` picks
 * among them. What was left out, and why, is in `skipped`.
 */
export function usableTools(
  listed: readonly unknown[],
  filter: McpToolFilter | undefined,
): { tools: McpToolInfo[]; skipped: string[] } {
  const tools: McpToolInfo[] = [];
  const skipped: string[] = [];
  const names = new Set<string>();
  for (const item of listed) {
    const t = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const name = t.name;
    if (typeof name !== 'string') {
      skipped.push('a tool without a name');
      continue;
    }
    const label = JSON.stringify(name.slice(0, 80));
    if (names.has(name)) {
      skipped.push(`${label}: listed twice`);
      continue;
    }
    const input = t.inputSchema as JSONSchema;
    const problem =
      schemaProblem(input) ??
      (input.type === undefined || input.type === 'object' ? undefined : 'its type is not object');
    if (problem !== undefined) {
      skipped.push(`${label}: its inputSchema is unusable (${problem})`);
      continue;
    }
    names.add(name);
    if ((t.execution as { taskSupport?: unknown } | undefined)?.taskSupport === 'required') {
      skipped.push(`${label}: it runs only as a task, which this client does not start`);
      continue;
    }
    const description = typeof t.description === 'string' ? t.description : undefined;
    const info: McpToolInfo = {
      name,
      ...(description === undefined
        ? {}
        : {
            description:
              description.length > MAX_DESCRIPTION_CHARS
                ? `${description.slice(0, MAX_DESCRIPTION_CHARS)} [cut]`
                : description,
          }),
      ...(typeof t.annotations === 'object' && t.annotations !== null
        ? { annotations: t.annotations as Record<string, unknown> }
        : {}),
      inputSchema: { ...input, type: 'object' },
      ...(t.outputSchema !== undefined && schemaProblem(t.outputSchema) === undefined
        ? { outputSchema: t.outputSchema as JSONSchema }
        : {}),
    };
    const seen: McpToolListing = { name, ...(info.description === undefined ? {} : { description: info.description }) };
    if (info.annotations !== undefined) seen.annotations = info.annotations;
    if (allowed(filter, seen)) tools.push(info);
  }
  return { tools, skipped };
}
