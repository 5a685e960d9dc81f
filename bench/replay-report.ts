/**
 * How the replay is reported: one table per window (both price models, per trajectory),
 * the check of the cache model against the corpus, and a plot per window of cost against
 * forgetting that marks the peers' frontier and each of our configurations.
 */
import type { ReplayBill, ReplayReport, ReplayRow } from './replay.js';

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ratio = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '–');
const ratio3 = (n: number) => (Number.isFinite(n) ? `${n.toFixed(3)}×` : '–');
const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
const compactTokens = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(n >= 1e7 ? 1 : 2)}M` : n >= 1e3 ? `${Math.round(n / 1e3)}K` : `${Math.round(n)}`;

const billOf = (row: ReplayRow, prices: string) => row.bills.find((b) => b.prices === prices) as ReplayBill;

/** The peers no other peer beats on both bill and identifier loss, cheapest first. */
export function peerFrontier(rows: readonly ReplayRow[]): ReplayRow[] {
  return frontierOf(rows.filter((r) => r.peer));
}

/** Our configurations that keep every request in the window and that no other such one beats on both axes. */
export function ourFrontier(rows: readonly ReplayRow[]): ReplayRow[] {
  return frontierOf(rows.filter((r) => !r.peer && r.overWindow === 0));
}

function frontierOf(peers: readonly ReplayRow[]): ReplayRow[] {
  const sorted = [...peers].sort((a, b) => a.billedTokens - b.billedTokens || a.identifierLoss - b.identifierLoss);
  const out: ReplayRow[] = [];
  for (const row of sorted) if (out.every((f) => row.identifierLoss < f.identifierLoss)) out.push(row);
  return out;
}

/** One table per window: a row per configuration, a column per metric, then what the columns mean. */
export function renderReplayMarkdown(report: ReplayReport): string {
  const [first, second] = report.prices;
  const check = report.cacheCheck;
  const lines: string[] = [
    '## Replay of real agent runs',
    '',
    `${report.trajectories} trajectories of the corpus replayed step by step (${int(report.requests)} requests per ` +
      `configuration and window), in ${report.seconds.toFixed(1)} s. At each step the request is what the model saw ` +
      'before its next tool call, after the policy ran; each policy keeps its own transcript between steps. ' +
      'Our configurations run through the real compaction hook (createCompactionHook with the window; preGenerate, ' +
      "then the provider's prompt count for the request actually sent calibrates the run's budget) and, when the " +
      "request is still over the window, the executor's last-resort fit (fitRequest, which asks the hook to compact " +
      'harder, then folds the oldest turns and cuts the newest results). Baselines (bench/baselines.ts): the LangChain ' +
      'and opencode thresholds are scaled to the window (the same share of 200K); LangChain and observation masking ' +
      'edit a copy of the full history before every call, as their frameworks do; the AI SDK guide and opencode keep ' +
      'their edit. Baselines run alone, without our fit.',
    '',
    `Billing: every request is billed under two price models. **${first}** (cached input at 10%, writes free): the ` +
      'prefix it shares with the previous request (message by message, the tool definitions first) is read from the ' +
      `cache, the rest is billed in full. **${second}** (reads at 10%, writes at 125%): only what the Anthropic ` +
      "provider's cache_control breakpoints make cached is read. Each request is built by the provider's own code, " +
      'breakpoints included (the tools, the system prompt, the newest message, the one before the newest answer); ' +
      'it reads the longest prefix an earlier request cached at a breakpoint that ends at one of its own breakpoints ' +
      'or up to 20 blocks before one, and writes up to its newest breakpoint (prefixes under 1,024 tokens are not ' +
      'cached), as Anthropic documents its cache. After a compaction that rewrote an old message, that reads the ' +
      "prefix up to the system prompt, not up to the change: the bill a real Anthropic run pays, not an ideal cache's. " +
      "*× uncompacted* is the total over the no-compaction run's; *median ×* is the median over the trajectories of " +
      "each trajectory's own ratio, and *over* counts the trajectories that bill more than with no compaction.",
    '',
    `Cache model check: on the ${int(check.calls)} calls of the uncompacted run with a recorded ` +
      '`usage.prompt_tokens_details.cached_tokens` (every call but the first of each trajectory), the model gives ' +
      `${int(check.modeledTokens)} cached tokens against ${int(check.recordedTokens)} recorded ` +
      `(${ratio3(check.modeledTokens / check.recordedTokens)}); median per call ${ratio3(check.medianRatio)}, and ` +
      `${percent(check.withinTenPercent)} of the calls within 10% (or 256 tokens). The provider caches in blocks ` +
      '(OpenAI: 1,024 tokens, then 128 at a time) and only on a best-effort basis, so it reports a little less than the ' +
      'whole shared prefix.',
    '',
  ];
  for (const window of report.windows) {
    lines.push(`### Window ${int(window)} tokens`, '');
    lines.push(
      `| configuration | over window | peak request | compactions | last-resort fits (tokens dropped) | ${first} billed | × uncompacted | median × | over | ${second} billed | × uncompacted | median × | over | identifier loss |`,
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const row of report.rows.filter((r) => r.window === window)) {
      const a = billOf(row, first as string);
      const b = billOf(row, second as string);
      const fits = row.peer ? '–' : `${int(row.fits)} (${int(row.fitDroppedTokens)})`;
      lines.push(
        `| ${row.peer ? '' : '**'}${row.configuration}${row.peer ? '' : '**'} | ${int(row.overWindow)} | ${int(row.peakTokens)} | ` +
          `${int(row.compactions)} | ${fits} | ${int(a.billedTokens)} | ${ratio(a.ratio)} | ${ratio(a.medianRatio)} | ` +
          `${a.trajectoriesOver} | ${int(b.billedTokens)} | ${ratio(b.ratio)} | ${ratio(b.medianRatio)} | ${b.trajectoriesOver} | ` +
          `${percent(row.identifierLoss)} |`,
      );
    }
    lines.push('');
  }
  lines.push(
    'Columns: *over window*: requests whose estimated size (messages and the bash tool, o200k) is above the window. ' +
      '*compactions*: requests at which the policy changed the transcript. *last-resort fits*: requests the executor ' +
      'had to compact before sending, and the tokens that took off them. ' +
      '*identifier loss*: for each tool call, the share of the paths, identifiers and quoted strings of its command that an earlier message showed ' +
      'and the request no longer shows (a marker or summary naming them counts as showing them); the mean over tool calls. ' +
      'Bold rows are our configurations; the others are the peers.',
    '',
    ...renderRoom(report),
    ...renderOver(report),
  );
  return lines.join('\n');
}

/** What the bounds leave under the cheapest peer, per price model. */
function renderRoom(report: ReplayReport): string[] {
  const reference = report.rows.find((r) => !r.peer);
  if (reference === undefined) return [];
  const lines = ['### Room under the cheapest peer', ''];
  for (const bound of report.bounds) {
    const base = billOf(reference, bound.prices).billedTokens / billOf(reference, bound.prices).ratio;
    const peers = report.rows.filter((r) => r.peer);
    const cheapest = peers.reduce<ReplayRow | undefined>(
      (best, r) =>
        best === undefined || billOf(r, bound.prices).billedTokens < billOf(best, bound.prices).billedTokens ? r : best,
      undefined,
    );
    if (cheapest === undefined) continue;
    const cheap = billOf(cheapest, bound.prices).billedTokens;
    const room = cheap - bound.skeletonBilled;
    lines.push(
      `- **${bound.prices}** (an ideal cache, every shared prefix read): sending every message once, with only the system prompt and the task kept, bills ` +
        `${int(bound.floorBilled)} (${ratio3(bound.floorBilled / base)}): no policy that keeps the task bills less. ` +
        `Keeping every message but the tool results, each result only while it is new, bills ${int(bound.skeletonBilled)} ` +
        `(${ratio3(bound.skeletonBilled / base)}). The cheapest peer, ${cheapest.configuration}, bills ${int(cheap)} ` +
        `(${ratio3(cheap / base)}) and loses ${percent(cheapest.identifierLoss)} of the names. Keeping, besides, each of ` +
        `the ${int(bound.names)} names the results showed (as the identifier-loss metric finds them), once, from the ` +
        `step it appeared, adds at least ${int(bound.namesBilled)} (${ratio3(bound.namesBilled / base)}): ` +
        `${room > 0 ? `${percent(room / bound.namesBilled)} of that fits under the cheapest peer's bill` : "none of that fits under the cheapest peer's bill"}. ` +
        "A policy as cheap as that peer must choose which names to keep; lean mode's digestChars is that choice.",
    );
  }
  lines.push('');
  return lines;
}

/** For our configurations: the trajectories that bill more than with no compaction, and when they last compacted. */
function renderOver(report: ReplayReport): string[] {
  const ours = new Set(report.rows.filter((r) => !r.peer).map((r) => r.configuration));
  const over = report.overTrajectories.filter((o) => ours.has(o.configuration));
  if (over.length === 0) return [];
  const lines = [
    `### Trajectories that bill more than with no compaction (${report.prices[0]} prices)`,
    '',
    'For each of our configurations and windows, the trajectories that bill more, as *steps before the end at which ' +
      'it last compacted / steps in all*. A compaction sends everything after its first change again at the write ' +
      'price, so one in the last steps of a run cannot pay for itself before the run ends (docs/compaction.md).',
    '',
  ];
  const groups = new Map<string, typeof over>();
  for (const o of over) {
    const key = `${o.configuration} at ${int(o.window)}`;
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  for (const [key, list] of groups) {
    const shapes = list.map((o) => `${o.steps - 1 - o.lastCompaction}/${o.steps}`).join(', ');
    lines.push(`- ${key}: ${list.length} (${shapes})`);
  }
  lines.push('');
  return lines;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** About 5 round tick values from 0 to at least `max`. */
function ticks(max: number): number[] {
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  const out: number[] = [];
  for (let v = 0; v <= max + step * 1e-9; v += step) out.push(v);
  if ((out[out.length - 1] ?? 0) < max) out.push(out.length * step);
  return out;
}

interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

const COLORS = [
  '#555555',
  '#1f77b4',
  '#2ca02c',
  '#17becf',
  '#bcbd22',
  '#0b5394',
  '#38761d',
  '#ff7f0e',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
];

/**
 * A scatter plot of billed input tokens (x) against identifier loss (y) at one window,
 * a labelled point per configuration: hollow when some of its requests were over the window.
 */
export function renderReplaySvg(report: ReplayReport, window: number): string {
  const rows = report.rows.filter((r) => r.window === window);
  const width = 760;
  const height = 460;
  const m = { left: 70, right: 30, top: 50, bottom: 80 };
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const xTicks = ticks(Math.max(1, ...rows.map((r) => r.billedTokens)) * 1.05);
  const yTicks = ticks(Math.max(0.05, ...rows.map((r) => r.identifierLoss)) * 1.1);
  const xMax = xTicks[xTicks.length - 1] ?? 1;
  const yMax = yTicks[yTicks.length - 1] ?? 1;
  const x = (v: number) => m.left + (v / xMax) * plotW;
  const y = (v: number) => m.top + plotH - (v / yMax) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(`Billed input tokens against identifier loss per configuration, ${int(window)}-token window`)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">` +
      `${escapeXml(`Replay at a ${int(window)}-token window: cost against forgetting`)}</text>`,
  ];
  for (const v of xTicks) {
    out.push(
      `<line x1="${x(v)}" y1="${m.top}" x2="${x(v)}" y2="${m.top + plotH}" stroke="#eeeeee"/>`,
      `<text x="${x(v)}" y="${m.top + plotH + 18}" text-anchor="middle">${compactTokens(v)}</text>`,
    );
  }
  for (const v of yTicks) {
    out.push(
      `<line x1="${m.left}" y1="${y(v)}" x2="${m.left + plotW}" y2="${y(v)}" stroke="#eeeeee"/>`,
      `<text x="${m.left - 8}" y="${y(v) + 4}" text-anchor="end">${(v * 100).toFixed(v * 100 < 10 ? 1 : 0)}%</text>`,
    );
  }
  out.push(
    `<rect x="${m.left}" y="${m.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333333"/>`,
    `<text x="${m.left + plotW / 2}" y="${m.top + plotH + 40}" text-anchor="middle">` +
      'input tokens billed over the corpus (cached prefix at 10%)</text>',
    `<text transform="translate(18 ${m.top + plotH / 2}) rotate(-90)" text-anchor="middle">` +
      'identifier loss (mean share per tool call)</text>',
    `<text x="${m.left}" y="${height - 14}" fill="#555555">` +
      "Circles: ours; squares: peers; solid: our frontier; dashed: the peers' frontier. Hollow: some requests over the window.</text>",
  );
  const points = rows.map((row, i) => ({
    row,
    color: COLORS[i % COLORS.length] ?? '#000000',
    px: x(row.billedTokens),
    py: y(row.identifierLoss),
  }));
  // Points first, so labels are drawn over them; each label goes to the first free place near its point.
  const taken: Box[] = points.map((p) => ({ x0: p.px - 8, x1: p.px + 8, y0: p.py - 8, y1: p.py + 8 }));
  const inside = (b: Box) =>
    b.x0 >= m.left + 2 && b.x1 <= m.left + plotW - 2 && b.y0 >= m.top + 2 && b.y1 <= m.top + plotH - 2;
  // The peers' frontier: from each frontier peer, across to the next cheaper-and-better one, as a step line.
  for (const [line, stroke, dash] of [
    [peerFrontier(rows), '#888888', ' stroke-dasharray="6 4"'],
    [ourFrontier(rows), '#1f4e79', ''],
  ] as const) {
    const frontier = line.map((r) => ({ px: x(r.billedTokens), py: y(r.identifierLoss) }));
    if (frontier.length === 0) continue;
    const path: string[] = [];
    const firstPoint = frontier[0] as { px: number; py: number };
    path.push(
      `M ${firstPoint.px.toFixed(1)} ${(m.top + 2).toFixed(1)} L ${firstPoint.px.toFixed(1)} ${firstPoint.py.toFixed(1)}`,
    );
    for (let i = 1; i < frontier.length; i++) {
      const p = frontier[i] as { px: number; py: number };
      path.push(
        `L ${p.px.toFixed(1)} ${(frontier[i - 1] as { py: number }).py.toFixed(1)} L ${p.px.toFixed(1)} ${p.py.toFixed(1)}`,
      );
    }
    const lastPoint = frontier[frontier.length - 1] as { px: number; py: number };
    path.push(`L ${(m.left + plotW - 2).toFixed(1)} ${lastPoint.py.toFixed(1)}`);
    out.push(`<path d="${path.join(' ')}" fill="none" stroke="${stroke}" stroke-width="1.5"${dash}/>`);
  }
  for (const p of points) {
    const fill = p.row.overWindow === 0 ? p.color : '#ffffff';
    const shape = p.row.peer
      ? `<rect x="${(p.px - 6).toFixed(1)}" y="${(p.py - 6).toFixed(1)}" width="12" height="12"`
      : `<circle cx="${p.px.toFixed(1)}" cy="${p.py.toFixed(1)}" r="6"`;
    out.push(`${shape} fill="${fill}" stroke="${p.color}" stroke-width="2"/>`);
  }
  // The points with the most neighbours are labelled first: they need the places next to them most.
  const neighbours = (p: (typeof points)[number]) =>
    points.filter((q) => q !== p && Math.abs(q.px - p.px) < 120 && Math.abs(q.py - p.py) < 40).length;
  const order = [...points].sort((a, b) => neighbours(b) - neighbours(a));
  for (const p of order) {
    const label = `${p.row.configuration} (${ratio(p.row.billedRatio)})`;
    const labelW = label.length * 6.8;
    let chosen: { box: Box; right: boolean; dy: number } | undefined;
    for (const dy of [0, 14, -14, 28, -28, 42, -42, 56, -56, 70, -70, 84, -84, 98, -98, 112, -112]) {
      for (const right of [true, false]) {
        const x0 = right ? p.px + 10 : p.px - 10 - labelW;
        const box = { x0, x1: x0 + labelW, y0: p.py + dy - 8, y1: p.py + dy + 6 };
        if (inside(box) && !taken.some((b) => overlaps(b, box))) {
          chosen = { box, right, dy };
          break;
        }
      }
      if (chosen !== undefined) break;
    }
    chosen ??= { box: { x0: p.px + 10, x1: p.px + 10 + labelW, y0: p.py - 8, y1: p.py + 6 }, right: true, dy: 0 };
    taken.push(chosen.box);
    const tx = chosen.right ? chosen.box.x0 : chosen.box.x1;
    const ty = p.py + chosen.dy;
    if (chosen.dy !== 0) {
      out.push(
        `<line x1="${p.px.toFixed(1)}" y1="${p.py.toFixed(1)}" x2="${(chosen.right ? tx - 2 : tx + 2).toFixed(1)}" ` +
          `y2="${(ty - 1).toFixed(1)}" stroke="${p.color}" stroke-width="0.8"/>`,
      );
    }
    out.push(
      `<text x="${tx.toFixed(1)}" y="${(ty + 4).toFixed(1)}" text-anchor="${chosen.right ? 'start' : 'end'}" fill="${p.color}">` +
        `${escapeXml(label)}</text>`,
    );
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
