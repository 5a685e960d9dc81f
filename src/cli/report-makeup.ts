import { contentLength, contentText } from '../messages/content.js';
import type { Message } from '../messages/types.js';
import { messageTokens, type TokenProfile } from '../models/estimate-tokens.js';
import type { ReportData, ReportResult, ReportRow } from './report-data.js';

/** How many of the largest results the page lists. */
export const LARGEST_RESULTS = 10;
const PREVIEW_CHARS = 240;

/** What a run's messages are made of: per role, per tool, the largest results, the totals. */
export type ReportMakeup = Pick<ReportData, 'byRole' | 'byTool' | 'largest' | 'totals'>;

const byTokens = (a: { tokens: number }, b: { tokens: number }) => b.tokens - a.tokens;

/** Messages and tokens per role and per tool name. */
function count(messages: readonly Message[], profile: TokenProfile) {
  const roles = new Map<string, { messages: number; tokens: number }>();
  const tools = new Map<string, { messages: number; tokens: number }>();
  const callNames = new Map<string, string>();
  const add = (rows: typeof roles, name: string, tokens: number) => {
    const row = rows.get(name) ?? { messages: 0, tokens: 0 };
    row.messages++;
    row.tokens += tokens;
    rows.set(name, row);
  };
  const results: { message: Message; tool: string; tokens: number }[] = [];
  let tokens = 0;
  for (const m of messages) {
    const t = messageTokens(m, profile);
    tokens += t;
    add(roles, m.role, t);
    if (m.role === 'assistant') for (const call of m.toolCalls ?? []) callNames.set(call.id, call.name);
    if (m.role !== 'tool') continue;
    const tool = m.toolName ?? callNames.get(m.toolCallId) ?? 'unknown';
    add(tools, tool, t);
    results.push({ message: m, tool, tokens: t });
  }
  return { roles, tools, results, tokens };
}

function rows(
  produced: Map<string, { messages: number; tokens: number }>,
  kept: Map<string, { messages: number; tokens: number }> | undefined,
): ReportRow[] {
  const names = [...new Set([...produced.keys(), ...(kept?.keys() ?? [])])];
  return names.map((name) => {
    const row = produced.get(name) ?? { messages: 0, tokens: 0 };
    if (kept === undefined) return { name, ...row };
    const end = kept.get(name) ?? { messages: 0, tokens: 0 };
    return { name, ...row, keptMessages: end.messages, keptTokens: end.tokens };
  });
}

/**
 * What a run's messages are made of, by role and by tool, and its largest tool results.
 * `produced` is every message the run made, each once; `kept` the transcript at its end when
 * that differs (a compacted run: summaries and markers in place of what they replaced), else
 * undefined. `stepOf` gives the step of each tool call, for the largest results.
 */
export function reportMakeup(
  produced: readonly Message[],
  kept: readonly Message[] | undefined,
  profile: TokenProfile,
  stepOf: ReadonlyMap<string, number> = new Map(),
): ReportMakeup {
  const all = count(produced, profile);
  const end = kept === undefined ? undefined : count(kept, profile);
  const largest = all.results
    .sort(byTokens)
    .slice(0, LARGEST_RESULTS)
    .map(({ message, tool, tokens }): ReportResult => {
      const id = message.role === 'tool' ? message.toolCallId : '';
      const step = stepOf.get(id);
      return {
        ...(step === undefined ? {} : { step }),
        tool,
        toolCallId: id,
        tokens,
        chars: contentLength(message.content),
        preview: contentText(message.content).slice(0, PREVIEW_CHARS),
      };
    });
  const totals: ReportMakeup['totals'] = { messages: produced.length, tokens: all.tokens };
  if (kept !== undefined && end !== undefined)
    Object.assign(totals, { keptMessages: kept.length, keptTokens: end.tokens });
  return {
    byRole: rows(all.roles, end?.roles),
    byTool: rows(all.tools, end?.tools).sort(byTokens),
    largest,
    totals,
  };
}
