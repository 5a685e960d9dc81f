import { mcpServerError } from './mcp-errors.js';

/** How far a list may go. */
export interface ListBounds {
  maxListPages: number;
  maxListItems: number;
}

/**
 * Every page of a paginated list (tools/list, resources/list, prompts/list), read one page
 * after the other while the server gives a next cursor. A list longer than `maxListPages`
 * pages or `maxListItems` entries, or a server that gives a cursor it gave before (a list
 * that never ends), is refused with LOUSHO_MCP_SERVER_FAILED naming the server and the bound.
 */
export async function listAll(
  server: string,
  key: 'tools' | 'resources' | 'resourceTemplates' | 'prompts',
  page: (cursor: string | undefined) => Promise<Record<string, unknown>>,
  bounds: ListBounds,
): Promise<unknown[]> {
  const all: unknown[] = [];
  const seen = new Set<string>();
  const refuse = (why: string) =>
    mcpServerError(
      server,
      `gave a ${key} list that does not end`,
      new Error(why),
      'list-too-long',
      `Raise maxListPages or maxListItems in the server's entry if the list is that long, or fix the server.`,
    );
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const result = await page(cursor);
    const items: unknown[] = Array.isArray(result[key]) ? result[key] : [];
    if (all.length + items.length > bounds.maxListItems)
      throw refuse(`more than ${bounds.maxListItems} entries (maxListItems)`);
    for (const item of items) all.push(item);
    const next = result.nextCursor;
    if (typeof next !== 'string') return all;
    if (seen.has(next)) throw refuse(`it gave the cursor ${JSON.stringify(next.slice(0, 40))} twice`);
    if (pages >= bounds.maxListPages) throw refuse(`more than ${bounds.maxListPages} pages (maxListPages)`);
    seen.add(next);
    cursor = next;
  }
}
