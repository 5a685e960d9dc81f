import { onceWarner } from '../compaction/request-budget.js';
import type { ToolDefinition } from '../contracts/tool-definition.js';
import { configError } from '../errors/lousho-error.js';
import type { RunState } from '../executor/run-state.js';
import type { Tool } from '../executor/tool.js';
import { tokenProfile, toolDefinitionTokens } from '../models/estimate-tokens.js';

/** Settings of tool search. */
export interface ToolSearchOptions {
  /** Context window in tokens; by default read like the compaction hook's (registry, server, 128,000). */
  contextWindow?: number;
  /** Search replaces the definitions when they would take more than this share of the window. Default 0.1. */
  thresholdPercent?: number;
  /** Most tools one search returns. Default 5. */
  maxResults?: number;
}

/** The name of the tool that tool search sends instead of the tool definitions. */
export const SEARCH_TOOL_NAME = 'search_tools';
const DEFAULT_SHARE = 0.1;
const DEFAULT_MAX_RESULTS = 5;

export function checkToolSearch(value: unknown): ToolSearchOptions | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return {};
  if (typeof value !== 'object' || value === null)
    throw configError('toolSearch must be true or { contextWindow?, thresholdPercent?, maxResults? }.');
  const unknown = Object.keys(value).filter((k) => !['contextWindow', 'thresholdPercent', 'maxResults'].includes(k));
  if (unknown.length > 0) {
    throw configError(
      `toolSearch has unknown option ${unknown.map((k) => `'${k}'`).join(', ')}; it takes contextWindow, thresholdPercent, maxResults.`,
    );
  }
  const o = value as ToolSearchOptions;
  if (o.contextWindow !== undefined && (!Number.isInteger(o.contextWindow) || o.contextWindow <= 0)) {
    throw configError(
      `toolSearch.contextWindow must be a positive whole number of tokens, got ${String(o.contextWindow)}.`,
    );
  }
  if (o.thresholdPercent !== undefined && !(o.thresholdPercent > 0 && o.thresholdPercent <= 1)) {
    throw configError(`toolSearch.thresholdPercent must be in (0, 1], got ${String(o.thresholdPercent)}.`);
  }
  if (o.maxResults !== undefined && (!Number.isInteger(o.maxResults) || o.maxResults <= 0)) {
    throw configError(`toolSearch.maxResults must be a positive whole number, got ${String(o.maxResults)}.`);
  }
  return o;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
}

/** Ranks tool definitions by how many query words their name and description contain. */
export function rankTools(query: string, definitions: readonly ToolDefinition[]): ToolDefinition[] {
  const terms = words(query);
  return definitions
    .map((d) => {
      const hay = `${d.name.replace(/[_-]/g, ' ')} ${d.description ?? ''}`.toLowerCase();
      const name = d.name.toLowerCase();
      const score = terms.reduce((sum, t) => sum + (name.includes(t) ? 3 : 0) + (hay.includes(t) ? 1 : 0), 0);
      return { d, score };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score)
    .map((r) => r.d);
}

/**
 * Tool search for one agent: when the tool definitions would take more than a share of
 * the window, the model sees one `search_tools` tool instead, and the tools it finds are
 * sent with every later request of the run.
 */
export function createToolSearch(options: ToolSearchOptions) {
  const warn = onceWarner();
  const share = options.thresholdPercent ?? DEFAULT_SHARE;
  const maxResults = options.maxResults ?? DEFAULT_MAX_RESULTS;

  /** The search tool of one run, and the tools it has found so far. */
  function forRun(): {
    tool: Tool<Record<string, unknown>, string>;
    found: Set<string>;
    definitions: { all: ToolDefinition[] };
  } {
    const found = new Set<string>();
    const definitions = { all: [] as ToolDefinition[] };
    const tool: Tool<Record<string, unknown>, string> = {
      name: SEARCH_TOOL_NAME,
      description:
        'Search the available tools by what they do. The tools found become callable from your next step. ' +
        'Call it with a few words describing the capability you need.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: 'What the tool should do, e.g. "read a file".' } },
        required: ['query'],
        additionalProperties: false,
      },
      execute(args) {
        const hits = rankTools(
          String(args.query),
          definitions.all.filter((d) => d.name !== SEARCH_TOOL_NAME),
        ).slice(0, maxResults);
        if (hits.length === 0) return `No tool matches "${String(args.query)}". Try other words.`;
        for (const hit of hits) found.add(hit.name);
        return `These tools are now available:\n${hits.map((h) => `- ${h.name}: ${h.description ?? ''}`).join('\n')}`;
      },
    };
    return { tool, found, definitions };
  }

  /** The definitions to send at this step. */
  async function select(
    run: RunState,
    all: ToolDefinition[],
    searchState: { found: Set<string>; definitions: { all: ToolDefinition[] } },
  ): Promise<ToolDefinition[]> {
    searchState.definitions.all = all;
    const model = run.provider.modelId;
    const contextWindow = await run.budget.contextWindow({
      option: options.contextWindow,
      feature: { name: 'Tool search', setting: 'toolSearch.contextWindow', warn },
    });
    const own = all.filter((d) => d.name !== SEARCH_TOOL_NAME);
    if (toolDefinitionTokens(own, tokenProfile(model)) <= contextWindow * share) return own;
    return all.filter((d) => d.name === SEARCH_TOOL_NAME || searchState.found.has(d.name));
  }

  return { forRun, select };
}
