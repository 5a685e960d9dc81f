import { freedTokens, type ReportData, type ReportMark, type ReportRow } from './report-data.js';
import { count, escapeHtml, percent } from './report-format.js';

/** The most compactions and recoveries the table lists; past that, those that freed the most. */
export const MAX_MARK_ROWS = 200;
/** The most tools the make-up table lists one by one; the rest share a row. */
export const MAX_TOOL_ROWS = 40;

const cell = (text: string, cls = '') => `<td${cls === '' ? '' : ` class="${cls}"`}>${text}</td>`;
/** A table's head; a name that starts with '#' heads a column of numbers (aligned right). */
const head = (names: string[]) =>
  `<thead><tr>${names.map((n) => (n.startsWith('#') ? `<th class="num">${n.slice(1)}</th>` : `<th>${n}</th>`)).join('')}</tr></thead>`;
const bar = (part: number, whole: number) =>
  `<td class="bar"><span style="width:${whole === 0 ? 0 : ((part / whole) * 100).toFixed(1)}%"></span></td>`;

/** The compactions, recoveries and rewinds, in step order; past {@link MAX_MARK_ROWS}, those that freed the most. */
export function marksTable(data: ReportData): string {
  if (data.marks.length === 0) return '<p class="none">No compaction or recovery happened in this run.</p>';
  let listed: ReportMark[] = data.marks;
  let caption = '';
  if (listed.length > MAX_MARK_ROWS) {
    listed = [...listed].sort((a, b) => freedTokens(b) - freedTokens(a)).slice(0, MAX_MARK_ROWS);
    listed.sort((a, b) => a.step - b.step);
    caption = `<caption>The ${MAX_MARK_ROWS} of ${count(data.marks.length)} that freed the most; the chart marks every one.</caption>`;
  }
  const rows = listed.map((m) => {
    const sized = m.tokensBefore !== undefined && m.tokensAfter !== undefined;
    return `<tr class="${m.kind}">${[
      cell(count(m.step), 'num'),
      cell(m.kind),
      cell(escapeHtml(m.what)),
      cell(sized ? count(m.tokensBefore as number) : '', 'num'),
      cell(sized ? count(m.tokensAfter as number) : '', 'num'),
      cell(sized ? count(freedTokens(m)) : '', 'num'),
      cell(escapeHtml(m.detail ?? '')),
    ].join('')}</tr>`;
  });
  const columns = ['#before step', 'kind', 'what ran', '#tokens before', '#after', '#freed', 'what it did'];
  return `<table class="marks">${caption}${head(columns)}<tbody>${rows.join('')}</tbody></table>`;
}

/** Messages and tokens per role or per tool, with a bar of each one's share, and what the transcript kept at the end. */
export function makeupTable(kind: 'role' | 'tool', list: readonly ReportRow[], total: number): string {
  if (list.length === 0) return '<p class="none">No tool results.</p>';
  let rows = [...list];
  if (kind === 'tool' && rows.length > MAX_TOOL_ROWS) {
    const rest = rows.slice(MAX_TOOL_ROWS - 1);
    const other: ReportRow = { name: `${rest.length} other tools`, messages: 0, tokens: 0 };
    for (const r of rest) {
      other.messages += r.messages;
      other.tokens += r.tokens;
      if (r.keptMessages !== undefined) {
        other.keptMessages = (other.keptMessages ?? 0) + r.keptMessages;
        other.keptTokens = (other.keptTokens ?? 0) + (r.keptTokens ?? 0);
      }
    }
    rows = [...rows.slice(0, MAX_TOOL_ROWS - 1), other];
  }
  const kept = rows.some((r) => r.keptMessages !== undefined);
  const columns = [kind, '#messages', '#tokens', '#share', ''];
  if (kept) columns.push('#kept at the end', '#tokens kept');
  const body = rows.map(
    (r) =>
      `<tr>${[
        `<th scope="row">${escapeHtml(r.name)}</th>`,
        cell(count(r.messages), 'num'),
        cell(count(r.tokens), 'num'),
        cell(percent(r.tokens, total), 'num'),
        bar(r.tokens, total),
        ...(kept ? [cell(count(r.keptMessages ?? 0), 'num'), cell(count(r.keptTokens ?? 0), 'num')] : []),
      ].join('')}</tr>`,
  );
  return `<table class="makeup by-${kind}">${head(columns)}<tbody>${body.join('')}</tbody></table>`;
}

/** The largest tool results, with their first characters. */
export function largestTable(data: ReportData): string {
  if (data.largest.length === 0) return '<p class="none">No tool results.</p>';
  const body = data.largest.map(
    (r) =>
      `<tr>${[
        cell(r.step === undefined ? '' : count(r.step), 'num'),
        `<th scope="row">${escapeHtml(r.tool)}</th>`,
        cell(`<code>${escapeHtml(r.toolCallId)}</code>`),
        cell(count(r.tokens), 'num'),
        cell(count(r.chars), 'num'),
        cell(`<pre>${escapeHtml(r.preview)}</pre>`, 'preview'),
      ].join('')}</tr>`,
  );
  const columns = ['#step', 'tool', 'call', '#tokens', '#characters', 'it begins'];
  return `<table class="largest">${head(columns)}<tbody>${body.join('')}</tbody></table>`;
}
