import { billedDiffers, billedWhy, estimateOff, NEWEST_BILLED, newestBilledText } from './billed-size.js';
import type { Colours } from './colour.js';
import { describeProtectedTail } from './compaction-defaults.js';
import type { InspectReport, TokenRow } from './inspect-report.js';

const BAR = 40;
const LABEL = 14;

const n = (value: number) => value.toLocaleString('en-US');
const pct = (part: number, whole: number) => `${whole === 0 ? '0.0' : ((part / whole) * 100).toFixed(1)}%`;

/** A bar of `width` cells for `value` out of `max`; any value above zero gets at least a sliver. */
export function bar(value: number, max: number, width = BAR): string {
  if (value <= 0 || max <= 0) return '';
  const cells = (Math.min(value, max) / max) * width;
  const full = Math.floor(cells);
  const partial = cells - full;
  const eighths = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
  const tail = eighths[Math.round(partial * 7)] ?? '';
  return '█'.repeat(full) + (full === 0 && tail === '' ? '▏' : tail);
}

/**
 * A size against the window: `width` cells for the whole window, filled up to `tokens`, with
 * the threshold marked by '|' (a request beyond the window fills the whole bar).
 */
export function windowBar(tokens: number, window: number, threshold: number, width = BAR): string {
  const filled = Math.min(width, Math.round((tokens / window) * width));
  const mark = Math.min(width - 1, Math.round((threshold / window) * width));
  let out = '';
  for (let i = 0; i < width; i++) out += i === mark ? '|' : i < filled ? '█' : '░';
  return `[${out}]`;
}

/** A name shortened in the middle when it is longer than `max` (`mcp__github__create_issue` keeps both ends). */
export function middleCut(name: string, max: number): string {
  if (name.length <= max) return name;
  const head = Math.ceil((max - 1) / 2);
  return `${name.slice(0, head)}…${name.slice(name.length - (max - 1 - head))}`;
}

function rows(title: string, list: TokenRow[], total: number, c: Colours): string[] {
  const max = Math.max(...list.map((r) => r.tokens), 1);
  const lines = [c.bold(title)];
  // Names are shown whole up to 40 characters (the column widens for them), else shortened in the middle.
  const width = Math.max(LABEL, Math.min(40, ...list.map((r) => r.name.length + 2)));
  for (const row of list) {
    const name = middleCut(row.name, width - 2);
    lines.push(
      `  ${name.padEnd(width)}${String(row.messages).padStart(5)} msg  ${c.cyan(bar(row.tokens, max).padEnd(BAR))} ${n(row.tokens).padStart(9)}  ${pct(row.tokens, total).padStart(6)}`,
    );
  }
  return lines;
}

const MODEL_FROM = {
  option: (model: string) => `priced as ${model} (--model)`,
  file: (model: string) => `priced as ${model}, the model the file names`,
  default: (model: string) => `priced as ${model}: the file names no model; give --model for another`,
};

/** What the total holds beyond the messages, and what the provider said it billed. */
function facts(report: InspectReport, c: Colours): string[] {
  const lines: string[] = [];
  const { toolDefinitions: tools, superseded, billed } = report;
  if (tools.tools > 0) {
    const what = `${tools.tools} tool definition${tools.tools === 1 ? '' : 's'}`;
    lines.push(`  ${n(tools.tokens)} tokens of ${what} (with the provider's tool-use prompt)`);
  }
  if (superseded.messages > 0)
    lines.push(
      `  ${superseded.messages} messages (${n(superseded.tokens)} tokens) before a provider's compaction are not counted: the provider no longer reads them`,
    );
  if (billed !== undefined) {
    const off = estimateOff(billed);
    const which =
      billed.index === report.messages
        ? 'this request'
        : `the request that produced messages[${billed.index}], the newest it reports`;
    lines.push(
      c.bold(
        `  the provider reported ${n(billed.reported)} input tokens for ${which}; estimated ${n(billed.estimated)} (${off})`,
      ),
    );
    if (billedDiffers(billed))
      lines.push(`  ${billedWhy(billed)}; the window below adds what the provider billed beyond the estimate`);
  }
  return lines;
}

/**
 * The chart `lousho inspect` prints: bars per role and per tool, the window and threshold,
 * what compaction would save. Its figures are the one count that compact and report give too;
 * where the file records what the provider billed, the window bars are drawn at the billed size
 * (the estimate plus what the provider billed beyond it at its newest reported request: a log
 * holds no system prompt or tool definitions), and each figure says that size beside it.
 */
export function tokenChart(report: InspectReport, source: string, c: Colours): string[] {
  const { tokens, contextWindow: window, thresholdTokens: threshold } = report;
  const beyond = report.billed?.beyond ?? 0;
  const size = (estimate: number) => Math.max(0, estimate + beyond);
  const windowFrom = { option: '--context-window', model: `${report.model}'s`, fallback: 'an assumed (unknown model)' }[
    report.contextWindowSource
  ];
  const over = size(tokens) > threshold ? c.red(' above the threshold: a run would compact now') : '';
  const headline =
    report.billed === undefined
      ? `${n(tokens)} tokens`
      : `${n(tokens)} tokens estimated; ${NEWEST_BILLED} ${newestBilledText(report.billed)}, from the usage the file records`;
  const lines = [
    `${c.bold(report.file)}: ${report.messages} messages, ${headline}`,
    c.dim(`  counted with the ${report.tokenizer.text}`),
    c.dim(`  read as ${source}`),
    c.dim(`  ${MODEL_FROM[report.modelSource](report.model)}`),
    ...facts(report, c),
    '',
    ...rows('Tokens by role', report.byRole, tokens, c),
  ];
  if (report.byTool.length > 0) lines.push('', ...rows('Tool results by tool', report.byTool, tokens, c));
  const label = (text: string) => `  ${text.padEnd(LABEL + 10)}`;
  // The figures are compact's count; the billed size, which the bars draw, is said beside it.
  const billedSize = (estimate: number) =>
    report.billed === undefined ? '' : `; ${n(size(estimate))} with what was billed beyond`;
  const after = (left: number) =>
    `${n(left)} tokens (saves ${n(tokens - left)}, ${pct(tokens - left, tokens)}${billedSize(left)})`;
  const bar = (estimate: number) => windowBar(size(estimate), window, threshold);
  lines.push(
    '',
    c.bold(`Context window: ${n(window)} tokens (${windowFrom}), threshold | at ${n(threshold)}`),
    `  ${describeProtectedTail(report)}; the previews use it, as \`lousho compact\` does`,
    ...(report.billed === undefined
      ? []
      : [
          `  the bars add what the provider billed beyond the estimate at that request: each estimate ${beyond < 0 ? '-' : '+'} ${n(Math.abs(beyond))}`,
        ]),
    `${label('now')}${bar(tokens)} ${n(tokens)} (${pct(size(tokens), window)}${report.billed === undefined ? '' : ' of the window'}${billedSize(tokens)})${over}`,
    `${label('after pruning')}${c.green(bar(report.prune.tokensAfter))} ${after(report.prune.tokensAfter)}, ${report.prune.results} old tool results replaced by markers`,
    report.summarize.messagesSummarized === 0
      ? `${label('after summarizing')}${c.dim('nothing outside the protected tail is old enough to summarize')}`
      : `${label('after summarizing')}${c.green(bar(report.summarize.tokensAfter))} ${after(report.summarize.tokensAfter)}, ${report.summarize.messagesSummarized} old messages in one summary`,
  );
  if (report.inputCostUsd !== undefined) {
    const at = report.billed === undefined ? '' : ', with what the provider billed beyond the estimate';
    lines.push('', `Sending it once to ${report.model} costs about $${report.inputCostUsd.toFixed(4)} of input${at}.`);
  }
  return lines;
}
