import { NEWEST_BILLED, newestBilledText } from './billed-size.js';
import { reportChart } from './report-chart.js';
import { billedTokens, freedTokens, type ReportData, type ReportStep } from './report-data.js';
import { count, escapeHtml, percent, wellFormed } from './report-format.js';
import { REPORT_SCRIPT } from './report-script.js';
import { shownSteps } from './report-series.js';
import { largestTable, makeupTable, marksTable } from './report-tables.js';

/** The page may load nothing from anywhere: its styles and script are inline, and this policy enforces it. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

const STYLE = `
:root { color-scheme: light; --ink: #1d2430; --dim: #5b6472; --line: #d9dee5; --series: #2563eb;
  --reported: #059669; --window: #b91c1c; --threshold: #d97706; --compaction: #7c3aed; --recovery: #db2777; --rewind: #0f766e; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); }
h1 { font-size: 22px; margin: 0 0 4px; word-break: break-all; } h2 { font-size: 17px; margin: 28px 0 8px; } h3 { font-size: 14px; margin: 16px 0 6px; }
.source, .none, figcaption, .notes, footer { color: var(--dim); }
dl.summary { display: grid; grid-template-columns: repeat(auto-fill, minmax(190px, 1fr)); gap: 8px; margin: 16px 0; }
dl.summary div { border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; }
dl.summary dt { color: var(--dim); font-size: 12px; } dl.summary dd { margin: 0; font-size: 17px; font-weight: 600; }
svg.chart { width: 100%; height: auto; display: block; font-size: 11px; }
svg.chart text { fill: var(--dim); paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.grid line { stroke: var(--line); stroke-width: 1; }
.window line { stroke: var(--window); stroke-dasharray: 6 4; } .window text { fill: var(--window); }
.threshold line { stroke: var(--threshold); stroke-dasharray: 2 3; } .threshold text { fill: var(--threshold); }
.series { fill: none; stroke: var(--series); stroke-width: 1.5; stroke-linejoin: round; }
.reported { fill: none; stroke: var(--reported); stroke-width: 1.5; stroke-dasharray: 5 2; stroke-linejoin: round; }
.mark line { stroke-width: 2; } .mark.compaction line { stroke: var(--compaction); } .mark.compaction path { fill: var(--compaction); }
.mark.recovery line { stroke: var(--recovery); } .mark.recovery path { fill: var(--recovery); }
.mark.rewind line { stroke: var(--rewind); } .mark.rewind path { fill: var(--rewind); }
.mark.group line { stroke-width: 1.2; opacity: .55; } .mark.group path { opacity: .7; }
.mark:hover line { stroke-width: 4; opacity: 1; }
.cursor { stroke: var(--dim); stroke-dasharray: 3 3; } .cursor-dot { fill: var(--series); }
#tip { position: absolute; background: #111827; color: #fff; padding: 4px 8px; border-radius: 4px; font-size: 12px; pointer-events: none; white-space: nowrap; }
ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 16px; color: var(--dim); }
ul.legend span { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 6px; }
table { border-collapse: collapse; width: 100%; margin: 4px 0 12px; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { font-size: 12px; color: var(--dim); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.bar { width: 28%; } td.bar span { display: block; height: 10px; background: var(--series); min-width: 1px; border-radius: 2px; }
tr.compaction td:nth-child(2) { color: var(--compaction); } tr.recovery td:nth-child(2) { color: var(--recovery); } tr.rewind td:nth-child(2) { color: var(--rewind); }
caption { text-align: left; color: var(--dim); padding: 4px 0; }
td.preview pre { margin: 0; max-width: 520px; max-height: 4.5em; overflow: hidden; white-space: pre-wrap; word-break: break-all; font-size: 12px; }
code { font-size: 12px; }
`;

/** The page's figures at a glance; a step's size is the billed one where the log records it (and it says so). */
function summary(data: ReportData): string {
  const peak = data.steps.reduce<ReportStep | undefined>(
    (top, s) => (top === undefined || billedTokens(s) > billedTokens(top) ? s : top),
    undefined,
  );
  const compactions = data.marks.filter((m) => m.kind === 'compaction');
  const billed = data.newestBilled;
  const recoveries = data.marks.filter((m) => m.kind === 'recovery');
  const freed = data.marks.reduce((sum, m) => sum + (m.kind === 'rewind' ? 0 : freedTokens(m)), 0);
  const over = (limit: number) => data.steps.filter((s) => billedTokens(s) > limit).length;
  const largest = (step: ReportStep) =>
    `${count(billedTokens(step))}${step.reported === undefined ? '' : ` as billed (estimated ${count(step.tokens)})`} (step ${count(step.step)}, ${percent(billedTokens(step), data.contextWindow)} of the window)`;
  const items: [string, string][] = [
    ['steps', count(data.steps.length)],
    ['largest request', peak === undefined ? '–' : largest(peak)],
    ...(billed === undefined
      ? []
      : [
          [
            NEWEST_BILLED,
            `${newestBilledText(billed)}${billed.step === undefined ? ", the file's own request" : ` (step ${count(billed.step)})`}`,
          ] as [string, string],
        ]),
    ...(data.transcriptTokens === undefined
      ? []
      : [['transcript size', `${count(data.transcriptTokens)} tokens`] as [string, string]]),
    ['context window / threshold', `${count(data.contextWindow)} / ${count(data.thresholdTokens)}`],
    ['requests over the threshold', count(over(data.thresholdTokens))],
    ['requests over the window', count(over(data.contextWindow))],
    ['compactions', count(compactions.length)],
    ['recoveries', count(recoveries.length)],
    ['tokens freed', count(freed)],
    [
      'messages',
      data.totals.keptMessages === undefined
        ? count(data.totals.messages)
        : `${count(data.totals.messages)} made, ${count(data.totals.keptMessages)} at the end`,
    ],
  ];
  return `<dl class="summary">${items.map(([k, v]) => `<div><dt>${k}</dt><dd>${escapeHtml(v)}</dd></div>`).join('')}</dl>`;
}

const LEGEND = [
  ['series', 'request size per step'],
  ['reported', 'input tokens the provider reported (billed)'],
  ['window', 'context window'],
  ['threshold', 'compaction threshold'],
  ['compaction', 'compaction: the line runs from the size before to the size after'],
  ['recovery', 'recovery (a request that did not fit the window)'],
  ['rewind', 'rewind'],
];

/** `value` as the text of a JSON script element (no `</script>` can end it early). */
const jsonScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The run report as one self-contained HTML page: the request's size per step (thinned to
 * at most MAX_SHOWN_STEPS drawn steps) against the window and the threshold, every
 * compaction and recovery marked with what it freed, the make-up by role and by tool, the
 * largest results. No fonts, styles, scripts or images are loaded from anywhere. Any string
 * goes in: the page is well-formed Unicode (a lone surrogate shows as U+FFFD).
 */
export function reportPage(data: ReportData, generator: string): string {
  const shown = shownSteps(data.steps);
  const { svg, geometry } = reportChart(data, shown);
  const thinned =
    shown.length < data.steps.length
      ? ` ${count(shown.length)} of the ${count(data.steps.length)} steps are drawn: the first, the last, and of each stretch between them the smallest and the largest request.`
      : '';
  const labels = shown.some((s) => s.label !== undefined) ? { labels: shown.map((s) => s.label ?? '') } : {};
  const reported = shown.some((s) => s.reported !== undefined)
    ? { reported: shown.map((s) => s.reported ?? null) }
    : {};
  const series = {
    steps: shown.map((s) => s.step),
    tokens: shown.map((s) => s.tokens),
    ...reported,
    ...labels,
    geometry,
    window: data.contextWindow,
  };
  const drawn = (cls: string | undefined) =>
    cls === 'rewind'
      ? data.marks.some((m) => m.kind === 'rewind')
      : cls !== 'reported' || data.steps.some((s) => s.reported !== undefined);
  const legend = LEGEND.filter(([cls]) => drawn(cls))
    .map(([cls, text]) => `<li><span style="background:var(--${cls})"></span>${text}</li>`)
    .join('');
  const total = data.totals.tokens;
  return wellFormed(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>lousho report: ${escapeHtml(data.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(data.title)}</h1>
<p class="source">${escapeHtml(data.source.charAt(0).toUpperCase() + data.source.slice(1))}${data.model === undefined ? '' : `; model ${escapeHtml(data.model)}`}; window ${count(data.contextWindow)} tokens (${escapeHtml(data.windowFrom)}).</p>
</header>
${summary(data)}
<section>
<h2>Request size per step</h2>
<figure>${svg}<figcaption>Sizes are ${escapeHtml(data.sizes)}.${thinned}</figcaption></figure>
<ul class="legend">${legend}</ul>
<div id="tip" hidden></div>
</section>
<section>
<h2>Compactions and recoveries</h2>
${marksTable(data)}
</section>
<section>
<h2>What the run is made of</h2>
<p class="source">${count(data.totals.messages)} messages, ${count(total)} tokens${data.totals.keptTokens === undefined ? '' : `; the transcript at the end holds ${count(data.totals.keptMessages ?? 0)} messages, ${count(data.totals.keptTokens)} tokens`}.</p>
<h3>By role</h3>
${makeupTable('role', data.byRole, total)}
<h3>Tool results by tool</h3>
${makeupTable('tool', data.byTool, total)}
</section>
<section>
<h2>Largest tool results</h2>
${largestTable(data)}
</section>
${data.notes.length === 0 ? '' : `<section class="notes"><h2>Notes</h2>${data.notes.map((n) => `<p>${escapeHtml(n)}</p>`).join('')}</section>`}
<footer><p>${escapeHtml(generator)}. This page is self-contained: it loads nothing from the network.</p></footer>
<script type="application/json" id="report-series">${jsonScript(series)}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`);
}
