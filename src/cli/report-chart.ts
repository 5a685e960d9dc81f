import { billedTokens, freedTokens, type ReportData, type ReportMark, type ReportStep } from './report-data.js';
import { count, escapeHtml, shortTokens } from './report-format.js';

/** The most marks drawn one by one; past that, marks close together are drawn as one. */
export const MAX_MARKS = 300;
/** How many of a drawn group's marks its label names (those that freed the most). */
const GROUP_LABELS = 3;

const WIDTH = 1000;
const HEIGHT = 380;
const LEFT = 64;
const RIGHT = 16;
const TOP = 18;
const BOTTOM = 40;
const PLOT_W = WIDTH - LEFT - RIGHT;
const PLOT_H = HEIGHT - TOP - BOTTOM;

/** Where the chart's data sits in the SVG, for the page's script (the cursor and its tip). */
export interface ChartGeometry {
  left: number;
  width: number;
  top: number;
  height: number;
  first: number;
  last: number;
  yMax: number;
}

/** A tick spacing of 1, 2, 2.5 or 5 times a power of ten, for about `wanted` ticks up to `max`. */
function tickStep(max: number, wanted: number): number {
  const rough = max / wanted;
  const power = 10 ** Math.floor(Math.log10(rough));
  return ([1, 2, 2.5, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
}

/** The ticks of {@link tickStep} up to `max`. */
function ticks(max: number, wanted: number): number[] {
  const step = tickStep(max, wanted);
  const out: number[] = [];
  for (let v = step; v <= max + 1e-9; v += step) out.push(Math.round(v * 1000) / 1000);
  return out;
}

const fixed = (v: number) => Number(v.toFixed(1));

/** The chart's scales: a step to x, tokens to y. */
function scales(data: ReportData) {
  const last = Math.max(1, ...data.steps.slice(-1).map((s) => s.step), ...data.marks.map((m) => m.step));
  const first = Math.min(1, ...data.steps.slice(0, 1).map((s) => s.step));
  let top = Math.max(data.contextWindow, 1);
  for (const s of data.steps) top = Math.max(top, s.tokens, billedTokens(s));
  // A compaction's size before raises the top by half at most: one huge request that was compacted
  // must not flatten the run; a mark above the top ends in an arrow there.
  const before = Math.max(0, ...data.marks.map((m) => m.tokensBefore ?? 0));
  top = Math.max(top, Math.min(before, top * 1.5));
  const yStep = tickStep(top * 1.04, 6);
  const yMax = Math.ceil((top * 1.04) / yStep) * yStep;
  const x = (step: number) => fixed(LEFT + (last === first ? PLOT_W / 2 : ((step - first) / (last - first)) * PLOT_W));
  const y = (tokens: number) => fixed(TOP + PLOT_H - (Math.min(tokens, yMax) / yMax) * PLOT_H);
  return { first, last, yMax, x, y };
}

const KIND_WORDS = { compaction: 'compaction', recovery: 'recovery', rewind: 'rewind' };

/** A mark's label: 'compaction before step 13 (two-phase, ran prune-tool-results): 25,820 -> 17,066 tokens, freed 8,754; ...'. */
export function markLabel(mark: ReportMark): string {
  const sizes =
    mark.tokensBefore === undefined || mark.tokensAfter === undefined
      ? ''
      : `: ${count(mark.tokensBefore)} -> ${count(mark.tokensAfter)} tokens, freed ${count(freedTokens(mark))}`;
  return `${KIND_WORDS[mark.kind]} before step ${mark.step} (${mark.what})${sizes}${mark.detail ? `; ${mark.detail}` : ''}`;
}

function markShape(marks: readonly ReportMark[], s: ReturnType<typeof scales>, label: string, kind: string): string {
  const x = s.x(marks[0]?.step ?? 1);
  const sized = marks.filter((m) => m.tokensBefore !== undefined && m.tokensAfter !== undefined);
  const freed = marks.reduce((sum, m) => sum + freedTokens(m), 0);
  const data = `data-step="${marks[0]?.step}" data-freed="${freed}"${marks.length > 1 ? ` data-count="${marks.length}"` : ''}`;
  let shape: string;
  if (sized.length > 0) {
    const before = Math.max(...sized.map((m) => m.tokensBefore as number));
    const high = s.y(before);
    const low = s.y(Math.min(...sized.map((m) => m.tokensAfter as number)));
    // A size above the chart's top ends in an arrow pointing up; else a head points down at the drop.
    const head =
      before > s.yMax ? `M${fixed(x - 4)} ${fixed(high + 7)}h8l-4 -7z` : `M${fixed(x - 4)} ${fixed(high - 7)}h8l-4 7z`;
    shape = `<line x1="${x}" x2="${x}" y1="${high}" y2="${low}"/><path d="${head}"/>`;
  } else shape = `<path d="M${fixed(x - 4)} ${TOP}h8l-4 8z"/>`;
  return `<g class="mark ${kind}" ${data}><title>${escapeHtml(label)}</title>${shape}</g>`;
}

/** The marks, one by one, or (past {@link MAX_MARKS}) those that share a slice of the width as one. */
function marksSvg(marks: readonly ReportMark[], s: ReturnType<typeof scales>): string {
  if (marks.length <= MAX_MARKS) return marks.map((m) => markShape([m], s, markLabel(m), m.kind)).join('');
  const groups: ReportMark[][] = [];
  let slot = -1;
  for (const mark of [...marks].sort((a, b) => a.step - b.step)) {
    const at = Math.floor(((s.x(mark.step) - LEFT) / PLOT_W) * MAX_MARKS);
    if (at !== slot) groups.push([]);
    slot = at;
    groups[groups.length - 1]?.push(mark);
  }
  return groups
    .map((group) => {
      if (group.length === 1)
        return markShape(group, s, markLabel(group[0] as ReportMark), (group[0] as ReportMark).kind);
      const kinds = [...new Set(group.map((m) => m.kind))];
      const freed = group.reduce((sum, m) => sum + freedTokens(m), 0);
      const head = `${group.length} ${kinds.map((k) => `${KIND_WORDS[k]}s`).join(' and ')}, steps ${group[0]?.step}–${group.at(-1)?.step}: freed ${count(freed)} tokens in all`;
      const largest = [...group].sort((a, b) => freedTokens(b) - freedTokens(a)).slice(0, GROUP_LABELS);
      const more = group.length > GROUP_LABELS ? [`and ${group.length - GROUP_LABELS} more`] : [];
      const label = [head, ...largest.map(markLabel), ...more].join('\n');
      return markShape(group, s, label, `${kinds.length === 1 ? kinds[0] : 'recovery'} group`);
    })
    .join('');
}

/** The request's size per shown step against the window and the threshold, with every compaction and recovery marked. */
export function reportChart(data: ReportData, shown: readonly ReportStep[]): { svg: string; geometry: ChartGeometry } {
  const s = scales(data);
  const yTicks = ticks(s.yMax, 6).filter((t) => t <= s.yMax);
  const xTicks = s.last <= 1 ? [1] : [1, ...ticks(s.last, 8).filter((t) => t > 1 && Number.isInteger(t))];
  const grid = [
    ...yTicks.map(
      (t) =>
        `<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${s.y(t)}" y2="${s.y(t)}"/><text x="${LEFT - 6}" y="${s.y(t) + 4}" text-anchor="end">${shortTokens(t)}</text>`,
    ),
    ...xTicks.map(
      (t) =>
        `<text x="${s.x(t)}" y="${HEIGHT - BOTTOM + 16}" text-anchor="middle">${count(t)}</text><line x1="${s.x(t)}" x2="${s.x(t)}" y1="${HEIGHT - BOTTOM}" y2="${HEIGHT - BOTTOM + 4}"/>`,
    ),
  ].join('');
  // The window's label above its line, the threshold's below (they are often close), at the left edge.
  const level = (cls: string, tokens: number, text: string, below: boolean) =>
    `<g class="${cls}"><line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${s.y(tokens)}" y2="${s.y(tokens)}"/><text x="${LEFT + 4}" y="${fixed(s.y(tokens) + (below ? 12 : -4))}">${text}</text></g>`;
  const points = shown.map((step) => `${s.x(step.step)},${s.y(step.tokens)}`).join(' ');
  // What the provider reported, where the log says, as a line of its own through those steps.
  const billed = shown.filter((step) => step.reported !== undefined);
  const reported = billed.map((step) => `${s.x(step.step)},${s.y(step.reported as number)}`).join(' ');
  const svg = [
    `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="The request's size per step against the context window and the compaction threshold">`,
    `<g class="grid">${grid}<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${HEIGHT - BOTTOM}" y2="${HEIGHT - BOTTOM}"/></g>`,
    `<text class="axis" x="${LEFT + PLOT_W / 2}" y="${HEIGHT - 6}" text-anchor="middle">step</text>`,
    level('window', data.contextWindow, `window ${count(data.contextWindow)}`, false),
    level('threshold', data.thresholdTokens, `threshold ${count(data.thresholdTokens)}`, true),
    `<polyline class="series" points="${points}"/>`,
    ...(billed.length === 0 ? [] : [`<polyline class="reported" points="${reported}"/>`]),
    `<g class="marks">${marksSvg(data.marks, s)}</g>`,
    `<line class="cursor" x1="0" x2="0" y1="${TOP}" y2="${HEIGHT - BOTTOM}" visibility="hidden"/><circle class="cursor-dot" r="4" cx="0" cy="0" visibility="hidden"/>`,
    '</svg>',
  ].join('');
  const geometry = { left: LEFT, width: PLOT_W, top: TOP, height: PLOT_H, first: s.first, last: s.last, yMax: s.yMax };
  return { svg, geometry };
}
