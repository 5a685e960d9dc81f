/**
 * The README's "Where it stands", written from a replay: what the default and lean mode bill
 * against no compaction and the peers, and, for each peer, a configuration of ours that bills no
 * more and loses no more names at every window it is judged at, under both bills (or why none
 * does). `npm run bench -- replay` writes it into README.md between its markers, and a test
 * checks it against a fresh replay, so no figure of it is older than the code.
 */
import type { ReplayBill, ReplayReport, ReplayRow } from './replay.js';

/** The windows the README judges at. */
export const README_WINDOWS: readonly number[] = [16_384, 32_768];
export const README_START =
  '<!-- replay summary: written by `npm run bench -- replay`; a test checks it against a fresh replay -->';
export const README_END = '<!-- end of the replay summary -->';

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ratio = (n: number) => `${n.toFixed(2)}×`;
const ratio3 = (n: number) => `${n.toFixed(3)}×`;
const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
const k = (window: number) => `${Math.round(window / 1024)}K`;
const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const billOf = (row: ReplayRow, prices: string) => row.bills.find((b) => b.prices === prices) as ReplayBill;

/** Whether `ours` bills no more than `peer` under every price model and loses no more names, inside the window. */
export function dominates(ours: ReplayRow, peer: ReplayRow): boolean {
  return (
    ours.overWindow === 0 &&
    ours.identifierLoss <= peer.identifierLoss &&
    ours.bills.every((b) => b.billedTokens <= billOf(peer, b.prices).billedTokens)
  );
}

/** Our configurations that dominate `peer` at every README window, most faithful first (then cheapest). */
export function dominatorsOf(report: ReplayReport, peer: string, windows = README_WINDOWS): string[] {
  const at = (name: string, window: number) =>
    report.rows.find((r) => r.configuration === name && r.window === window) as ReplayRow;
  const ours = [...new Set(report.rows.filter((r) => !r.peer).map((r) => r.configuration))];
  const winners = ours.filter((name) => windows.every((w) => dominates(at(name, w), at(peer, w))));
  const loss = (name: string) => windows.reduce((sum, w) => sum + at(name, w).identifierLoss, 0);
  const bill = (name: string) => windows.reduce((sum, w) => sum + at(name, w).billedTokens, 0);
  return winners.sort((a, b) => loss(a) - loss(b) || bill(a) - bill(b));
}

function row(report: ReplayReport, name: string): string[] {
  const cells = README_WINDOWS.flatMap((window) => {
    const r = report.rows.find((x) => x.configuration === name && x.window === window) as ReplayRow;
    return [...report.prices.map((p) => ratio(billOf(r, p).ratio)), percent(r.identifierLoss), int(r.overWindow)];
  });
  const peer = report.rows.find((x) => x.configuration === name)?.peer === true;
  return [peer ? name : `**${name}**`, ...cells];
}

/** A Markdown table laid out as the project's formatter lays it out: the first column left, the others right. */
function table(rows: readonly (readonly string[])[]): string[] {
  const widths = (rows[0] ?? []).map((_, c) => Math.max(3, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join(' | ')} |`;
  const rule = `| ${widths.map((w, c) => (c === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  const [head, ...body] = rows;
  return [line(head ?? []), rule, ...body.map(line)];
}

/** Why no configuration of ours dominates `peer`: at each window where none does, the least loss among ours that bill no more. */
function nearest(report: ReplayReport, peer: string): string {
  const reasons: string[] = [];
  for (const window of README_WINDOWS) {
    const p = report.rows.find((r) => r.configuration === peer && r.window === window) as ReplayRow;
    const ours = report.rows.filter((r) => !r.peer && r.window === window);
    if (ours.some((r) => dominates(r, p))) continue;
    const cheaper = ours.filter(
      (r) => r.overWindow === 0 && r.bills.every((b) => b.billedTokens <= billOf(p, b.prices).billedTokens),
    );
    if (cheaper.length === 0) {
      const cheapest = report.prices.map((prices) => {
        const best = ours.reduce((a, b) => (billOf(b, prices).ratio < billOf(a, prices).ratio ? b : a));
        return `${ratio3(billOf(best, prices).ratio)} against its ${ratio3(billOf(p, prices).ratio)} under ${prices}`;
      });
      reasons.push(`at ${k(window)} none of ours bills as little under both bills (the least: ${cheapest.join(', ')})`);
      continue;
    }
    const best = cheaper.reduce((a, b) => (b.identifierLoss < a.identifierLoss ? b : a));
    reasons.push(
      `at ${k(window)} the most faithful of ours that bills no more, ${best.configuration}, loses ${percent(best.identifierLoss)} of the names against its ${percent(p.identifierLoss)}`,
    );
  }
  return reasons.join('; ');
}

/** The README's summary of a replay (between {@link README_START} and {@link README_END}). */
export function renderReadmeSummary(report: ReplayReport): string {
  const [first, second] = report.prices as [string, string];
  const peers = [...new Set(report.rows.filter((r) => r.peer).map((r) => r.configuration))];
  const shown = ['prune (hook default)', "lean (mode: 'lean')"];
  const named = peers.map((peer) => {
    const all = dominatorsOf(report, peer);
    const bill = (name: string) =>
      README_WINDOWS.reduce(
        (sum, w) => sum + (report.rows.find((r) => r.configuration === name && r.window === w)?.billedTokens ?? 0),
        0,
      );
    const cheapest = [...all].sort((a, b) => bill(a) - bill(b))[0];
    return { peer, faithful: all[0], cheapest };
  });
  for (const { faithful, cheapest } of named)
    for (const name of [cheapest, faithful]) if (name !== undefined && !shown.includes(name)) shown.push(name);
  const defaultOver = README_WINDOWS.map((window) => {
    const r = report.rows.find((x) => x.configuration === shown[0] && x.window === window) as ReplayRow;
    return `${report.prices.map((p) => `${billOf(r, p).trajectoriesOver} under ${p}'s bill`).join(' and ')} at ${k(window)}`;
  });
  const header = README_WINDOWS.flatMap((w) => [`${k(w)}: ${first}`, `${k(w)}: ${second}`, 'names lost', 'over']);
  return [
    README_START,
    `From \`npm run bench\` ([bench/RESULTS.md](bench/RESULTS.md)): ${report.trajectories} real agent trajectories ` +
      `(${int(report.requests)} requests) replayed at ${README_WINDOWS.map(k).join(' and ')} windows, each request ` +
      `billed with the prompt cache priced in: ${first}'s rule (every prefix shared with the previous request read at ` +
      `10%) and ${second}'s breakpoint cache (what the Anthropic provider's cache_control breakpoints make cached read ` +
      'at 10%, writes at 125%). Bills are ratios against no compaction; _names lost_ is the share of the paths and ' +
      'identifiers a tool call uses that an earlier message showed and the request no longer shows; _over_ counts ' +
      'requests over the window.',
    '',
    ...table([['', ...header], ...shown.map((name) => row(report, name)), ...peers.map((name) => row(report, name))]),
    '',
    'Against each peer, the configuration of ours that bills no more under both bills and loses no more names at ' +
      `${README_WINDOWS.map(k).join(' and ')}, with no request over the window ([docs/compaction.md](docs/compaction.md) ` +
      'says when to pick it):',
    '',
    ...named.map(({ peer, faithful, cheapest }) =>
      faithful === undefined || cheapest === undefined
        ? `- ${peer}: no configuration of ours gets there. ${capitalized(nearest(report, peer))}.`
        : faithful === cheapest
          ? `- ${peer}: **${faithful}**.`
          : `- ${peer}: **${cheapest}** (the cheapest of ours that does), or **${faithful}** (the most faithful).`,
    ),
    '',
    `Of the ${report.trajectories} trajectories, the default bills more than no compaction on ${defaultOver.join('; ')}.`,
    README_END,
  ].join('\n');
}

/** `readme` with its summary replaced by `summary` (both markers must be there). */
export function withReadmeSummary(readme: string, summary: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start)
    throw new Error(`README.md has no replay summary between ${README_START} and ${README_END}.`);
  return readme.slice(0, start) + summary + readme.slice(end + README_END.length);
}
