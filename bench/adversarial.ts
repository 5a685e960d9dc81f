/**
 * countTextTokens (what estimateTokens counts text with) on input that makes BPE
 * tokenizers slow, at 1 MB and 10 MB: one repeated character, random base64, random
 * lowercase letters without spaces (and in 1,000-letter words), random CJK characters,
 * alternating blocks of one letter and random CJK, random emoji, varied CJK text, minified
 * JSON, code and prose. Every timed run counts a new text (a new seed), so no cache has
 * seen it. Reports MB/s and seconds per MB per input and size, the error against the exact
 * BPE count (exactTextTokens: the same merges on whole pre-tokens, equal to gpt-tokenizer's
 * count in the tests), gpt-tokenizer's own count on 32 KB of each input, the worst error
 * found (input and ratio) and the slowest input. For contrast, the plain tokenizers on one
 * repeated character at growing sizes up to 64 KiB.
 *
 * Run: npx tsx bench/adversarial.ts
 */
import { pathToFileURL } from 'node:url';
import { countTokens as gptTokenizerCount } from 'gpt-tokenizer/encoding/o200k_base';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { countTextTokens, exactTextTokens, MAX_BPE_PIECE } from '../src/models/tokenizer.js';
import { adversarialInputs, longestRun } from './adversarial-inputs.js';
import { formatInt, formatMs, median } from './stats.js';

export interface AdversarialOptions {
  /** Sizes in MB (2^20 bytes of UTF-8). Default 1 and 10. */
  sizesMb?: number[];
  /** Timed runs per input at each size, each on a new text; the median is reported. Default 3 at 1 MB, 2 above. */
  repeats?: (mb: number) => number;
  /** Sizes of the contrast input (one repeated character), in KiB. Default 1, 2, 4, ..., 64. */
  contrastKiB?: number[];
  /** A tokenizer skips the larger contrast sizes once one measurement took longer than this. Default 5,000 ms. */
  capMs?: number;
  /** Size in KB of the text each input is also counted on by gpt-tokenizer itself (O(n^2) on a long run). Default 32. */
  referenceKb?: number;
  /** Progress lines go here (e.g. console.error); silent by default. */
  log?: (line: string) => void;
  /** The size in MB of one more run of the slowest input at the largest size (no exact count: too slow). Default 100; 0 skips it. */
  largestMb?: number;
}

/** countTextTokens on one input at one size. */
export interface SizeResult {
  mb: number;
  bytes: number;
  chars: number;
  /** The longest run of characters without whitespace. */
  longestRun: number;
  runs: number;
  /** countTextTokens and the exact count, on the first run's text. */
  tokens: number;
  exactTokens: number;
  /** (tokens - exact) / exact. */
  error: number;
  /** Median wall-clock seconds over the runs. */
  seconds: number;
  mbPerSecond: number;
  secondsPerMb: number;
  /** Median CPU seconds (user + system) of this process over the runs: less inflated by a busy machine. */
  cpuSeconds: number;
  cpuMbPerSecond: number;
}

/** countTextTokens against gpt-tokenizer's own countTokens on one smaller text of an input. */
export interface ReferenceResult {
  bytes: number;
  tokens: number;
  gptTokens: number;
  /** tokens / gptTokens. */
  ratio: number;
  /** gpt-tokenizer's wall-clock seconds on it. */
  gptSeconds: number;
}

export interface ThroughputRow {
  input: string;
  source: string;
  sizes: SizeResult[];
  reference: ReferenceResult;
}

export interface ContrastRow {
  tokenizer: string;
  /** Per size: milliseconds and tokens, or undefined when skipped. */
  cells: { kib: number; ms: number | undefined; tokens: number | undefined }[];
}

export interface AdversarialReport {
  sizesMb: number[];
  rows: ThroughputRow[];
  /** Per size, the input with the fewest MB/s of CPU time (the steadier measure on a shared machine). */
  worst: { mb: number; input: string; mbPerSecond: number; secondsPerMb: number; cpuMbPerSecond: number }[];
  /** The count furthest from its reference (the exact count at each size, gpt-tokenizer's on the small text), as a ratio. */
  worstError: { input: string; size: string; against: string; ratio: number };
  contrast: ContrastRow[];
  capMs: number;
  runSeconds: number;
  /** One run of the slowest input at `largestMb` (no exact count): that the count finishes, and its rate. */
  largest: { input: string; size: SizeResult } | undefined;
}

const MB = 2 ** 20;

/** Times countTextTokens on `runs` new texts; `exact: false` skips the exact count (too slow at 100 MB), leaving it 0. */
function measure(
  make: (seed: number) => string,
  runs: number,
  mb: number,
  seed: number,
  { exact = true }: { exact?: boolean } = {},
): SizeResult {
  const seconds: number[] = [];
  const cpu: number[] = [];
  let first = '';
  let tokens = 0;
  for (let run = 0; run < runs; run++) {
    const text = make(seed + run);
    const t = performance.now();
    const c = process.cpuUsage();
    const counted = countTextTokens(text);
    const used = process.cpuUsage(c);
    seconds.push((performance.now() - t) / 1000);
    cpu.push((used.user + used.system) / 1e6);
    if (run === 0) {
      first = text;
      tokens = counted;
    }
  }
  const bytes = Buffer.byteLength(first, 'utf8');
  const exactTokens = exact ? exactTextTokens(first) : 0;
  const s = median(seconds);
  return {
    mb,
    bytes,
    chars: first.length,
    longestRun: longestRun(first),
    runs,
    tokens,
    exactTokens,
    error: exact ? (tokens - exactTokens) / exactTokens : 0,
    seconds: s,
    mbPerSecond: bytes / MB / s,
    secondsPerMb: s / (bytes / MB),
    cpuSeconds: median(cpu),
    cpuMbPerSecond: bytes / MB / median(cpu),
  };
}

function referenceCheck(make: (seed: number) => string, seed: number): ReferenceResult {
  const text = make(seed);
  const tokens = countTextTokens(text);
  const t = performance.now();
  const gptTokens = gptTokenizerCount(text, { disallowedSpecial: new Set() });
  const gptSeconds = (performance.now() - t) / 1000;
  return { bytes: Buffer.byteLength(text, 'utf8'), tokens, gptTokens, ratio: tokens / gptTokens, gptSeconds };
}

function contrastRows(kibs: number[], capMs: number): ContrastRow[] {
  const encoder = new Tiktoken(o200kBase);
  const tokenizers: { name: string; count: (text: string) => number }[] = [
    { name: 'js-tiktoken 1.0.21 (o200k_base) encode().length', count: (text) => encoder.encode(text, [], []).length },
    { name: 'gpt-tokenizer 4.0.0 countTokens (o200k)', count: (text) => gptTokenizerCount(text) },
    { name: 'exactTextTokens (our merge, whole pre-tokens)', count: (text) => exactTextTokens(text) },
    { name: 'countTextTokens (what estimateTokens uses)', count: (text) => countTextTokens(text) },
  ];
  return tokenizers.map(({ name, count }) => {
    count('b'.repeat(1024)); // warm-up on another character
    const cells: ContrastRow['cells'] = [];
    let capped = false;
    for (const kib of kibs) {
      if (capped) {
        cells.push({ kib, ms: undefined, tokens: undefined });
        continue;
      }
      const text = 'a'.repeat(kib * 1024);
      const t = performance.now();
      const tokens = count(text);
      const ms = performance.now() - t;
      cells.push({ kib, ms, tokens });
      if (ms > capMs) capped = true;
    }
    return { tokenizer: name, cells };
  });
}

/** Runs the benchmark: a few minutes on two cores with the defaults (the 10 MB exact counts are most of it). */
export function runAdversarial(options: AdversarialOptions = {}): AdversarialReport {
  const started = performance.now();
  const sizesMb = options.sizesMb ?? [1, 10];
  const repeats = options.repeats ?? ((mb: number) => (mb <= 1 ? 3 : 2));
  const log = options.log ?? (() => {});
  const capMs = options.capMs ?? 5_000;
  const inputs = adversarialInputs();
  // Warm-up: load the vocabulary and let the JIT settle, on texts no timed run sees.
  for (const { make } of inputs) countTextTokens(make(64 * 1024, 999_999));

  const rows: ThroughputRow[] = inputs.map(({ input, source, make }, i) => {
    const sizes = sizesMb.map((mb) => {
      const result = measure((seed) => make(mb * MB, seed), repeats(mb), mb, 1_000 * (i + 1) + 100 * mb);
      log(
        `adversarial: ${input} at ${mb} MB: ${result.mbPerSecond.toFixed(2)} MB/s, ${result.cpuMbPerSecond.toFixed(2)} MB/s of CPU`,
      );
      return result;
    });
    const kb = options.referenceKb ?? 32;
    const reference = referenceCheck((seed) => make(kb * 1024, seed), 7_000 + i);
    log(`adversarial: ${input} at ${kb} KB against gpt-tokenizer: ratio ${reference.ratio.toFixed(5)}`);
    return { input, source, sizes, reference };
  });
  const worst = sizesMb.map((mb, k) => {
    const row = rows.reduce((a, b) =>
      (b.sizes[k] as SizeResult).cpuMbPerSecond < (a.sizes[k] as SizeResult).cpuMbPerSecond ? b : a,
    );
    const cell = row.sizes[k] as SizeResult;
    return {
      mb,
      input: row.input,
      mbPerSecond: cell.mbPerSecond,
      secondsPerMb: cell.secondsPerMb,
      cpuMbPerSecond: cell.cpuMbPerSecond,
    };
  });
  let worstError = { input: '', size: '', against: '', ratio: 1 };
  const consider = (input: string, size: string, against: string, ratio: number) => {
    if (Math.abs(ratio - 1) >= Math.abs(worstError.ratio - 1)) worstError = { input, size, against, ratio };
  };
  for (const row of rows) {
    for (const cell of row.sizes)
      consider(row.input, `${cell.mb} MB`, 'the exact count', cell.tokens / cell.exactTokens);
    consider(row.input, `${formatInt(row.reference.bytes)} bytes`, "gpt-tokenizer's count", row.reference.ratio);
  }
  const largestMb = options.largestMb ?? 100;
  const slowest = inputs.find(({ input }) => input === worst[worst.length - 1]?.input);
  let largest: AdversarialReport['largest'];
  if (largestMb > 0 && slowest !== undefined) {
    const size = measure((seed) => slowest.make(largestMb * MB, seed), 1, largestMb, 9_000, { exact: false });
    largest = { input: slowest.input, size };
    log(`adversarial: ${slowest.input} at ${largestMb} MB: ${size.mbPerSecond.toFixed(2)} MB/s`);
  }
  return {
    largest,
    sizesMb,
    rows,
    worst,
    worstError,
    contrast: contrastRows(options.contrastKiB ?? [1, 2, 4, 8, 16, 32, 64], capMs),
    capMs,
    runSeconds: (performance.now() - started) / 1000,
  };
}

const signedPercent = (x: number) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(3)}%`;

/** The report as a markdown section. */
export function renderAdversarialMarkdown(r: AdversarialReport): string {
  const lines: string[] = [];
  lines.push('## Adversarial input: bounded work');
  lines.push('');
  lines.push(
    `countTextTokens (what estimateTokens counts text with) on ${r.sizesMb.map((mb) => `${mb} MB`).join(' and ')} ` +
      '(1 MB = 2^20 bytes of UTF-8) of each input. Every timed run counts a new text (a new seed), so no cache has seen ' +
      "it; the time is the median of the runs, in wall-clock time and in this process's CPU time (user + system), " +
      "which other work on a shared machine inflates less. The error is against the exact BPE count of the first run's text " +
      `(exactTextTokens: the same merges on whole pre-tokens, equal to gpt-tokenizer's count in the tests). Pre-tokens ` +
      `longer than ${formatInt(MAX_BPE_PIECE)} characters are merged in chunks of that length (every chunk, a repeated ` +
      'one once), and the pre-tokenizer cuts a run without a break every few thousand characters; nothing is sampled ' +
      'or extrapolated.',
  );
  lines.push('');
  lines.push(
    '| input | size | runs | longest run without whitespace | tokens | exact tokens | error | time | MB/s | s per MB | MB/s of CPU time |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of r.rows) {
    for (const c of row.sizes) {
      lines.push(
        `| ${row.input} | ${c.mb} MB | ${c.runs} | ${formatInt(c.longestRun)} | ${formatInt(c.tokens)} | ${formatInt(c.exactTokens)} | ` +
          `${signedPercent(c.error)} | ${formatMs(c.seconds * 1000)} | ${c.mbPerSecond.toFixed(2)} | ${c.secondsPerMb.toFixed(3)} | ` +
          `${c.cpuMbPerSecond.toFixed(2)} |`,
      );
    }
  }
  lines.push('');
  for (const row of r.rows) lines.push(`- ${row.input}: ${row.source}.`);
  lines.push('');
  for (const w of r.worst) {
    lines.push(
      `- **Worst input at ${w.mb} MB: ${w.input}**, ${w.cpuMbPerSecond.toFixed(2)} MB/s of CPU time ` +
        `(${w.mbPerSecond.toFixed(2)} MB/s, ${w.secondsPerMb.toFixed(3)} s per MB, wall-clock).`,
    );
  }
  const slowestWall = Math.min(...r.rows.flatMap((row) => row.sizes.map((c) => c.mbPerSecond)));
  lines.push(`- Slowest wall-clock rate of any input and size: ${slowestWall.toFixed(2)} MB/s.`);
  if (r.largest !== undefined) {
    const { input, size: l } = r.largest;
    lines.push(
      `- **${l.mb} MB of the slowest input (${input})**, one run: ${formatInt(l.tokens)} tokens in ` +
        `${formatMs(l.seconds * 1000)}, ${l.mbPerSecond.toFixed(2)} MB/s (${l.cpuMbPerSecond.toFixed(2)} MB/s of CPU time).`,
    );
  }
  const w = r.worstError;
  lines.push(
    `- **Worst error found: ${w.input}** at ${w.size}, counted ${w.ratio.toFixed(5)} × ${w.against} ` +
      `(${signedPercent(w.ratio - 1)}).`,
  );
  lines.push('');
  lines.push(
    "The same inputs against gpt-tokenizer's own countTokens (o200k, special-token text as plain text) on one smaller " +
      'text of each (a new seed): it takes O(n^2) on a long run without a break, so it cannot check the sizes above.',
  );
  lines.push('');
  lines.push('| input | bytes | countTextTokens | gpt-tokenizer | ratio | gpt-tokenizer time |');
  lines.push('|---|---:|---:|---:|---:|---:|');
  for (const row of r.rows) {
    const c = row.reference;
    lines.push(
      `| ${row.input} | ${formatInt(c.bytes)} | ${formatInt(c.tokens)} | ${formatInt(c.gptTokens)} | ${c.ratio.toFixed(5)} | ${formatMs(c.gptSeconds * 1000)} |`,
    );
  }
  lines.push('');
  lines.push(
    'For contrast, the plain tokenizers on one repeated character (`a` × size), one run each, after a warm-up. ' +
      `A tokenizer skips the larger sizes once one measurement took more than ${formatMs(r.capMs)} ("skipped").`,
  );
  lines.push('');
  const sizes = r.contrast[0]?.cells.map((c) => `${c.kib} KiB`) ?? [];
  lines.push(`| tokenizer | ${sizes.join(' | ')} |`);
  lines.push(`|---|${sizes.map(() => '---:').join('|')}|`);
  for (const row of r.contrast) {
    lines.push(
      `| ${row.tokenizer} | ${row.cells.map((c) => (c.ms === undefined ? 'skipped' : formatMs(c.ms))).join(' | ')} |`,
    );
  }
  const mismatch = r.contrast.some((row) =>
    row.cells.some((c, i) => {
      const other = r.contrast[0]?.cells[i]?.tokens;
      return c.tokens !== undefined && other !== undefined && c.tokens !== other;
    }),
  );
  lines.push('');
  lines.push(
    mismatch
      ? 'The tokenizers did not all give the same count at every size measured.'
      : 'Every tokenizer gave the same token count at every size it measured.',
  );
  lines.push('');
  lines.push(`Run time: ${r.runSeconds.toFixed(1)} s.`);
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    console.log(renderAdversarialMarkdown(runAdversarial({ log: (line) => console.error(line) })));
  } catch (error: unknown) {
    console.error(error);
    process.exitCode = 1;
  }
}
