/**
 * estimateTokens on input that makes BPE tokenizers slow: 1 MB each of one repeated
 * character, base64 of random bytes, minified JSON, CJK text (varied sentences and random
 * characters), and English prose for reference. Reports MB/s and seconds per MB, and the
 * worst seconds per MB (the bound). For contrast, the plain tokenizers (js-tiktoken and
 * gpt-tokenizer's exact count) on one repeated character, at growing sizes up to 64 KiB.
 *
 * Run: npx tsx bench/adversarial.ts
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { estimateTokens } from '../src/models/estimate-tokens.js';
import { countTextTokens, exactTextTokens, MAX_BPE_PIECE } from '../src/models/tokenizer.js';
import { formatInt, formatMs, median, seededRandom } from './stats.js';

export interface AdversarialOptions {
  /** UTF-8 bytes of each throughput input. Default 1 MiB (1,048,576). */
  bytes?: number;
  /** Timed runs per throughput input; the median is reported. Default 3. */
  repeats?: number;
  /** Sizes of the contrast input (one repeated character), in KiB. Default 1, 2, 4, ..., 64. */
  contrastKiB?: number[];
  /** A tokenizer skips the larger contrast sizes once one measurement took longer than this. Default 5,000 ms. */
  capMs?: number;
}

/** estimateTokens on one input. */
export interface ThroughputRow {
  input: string;
  /** Where the text comes from. */
  source: string;
  chars: number;
  bytes: number;
  /** The longest run of characters without whitespace. */
  longestRun: number;
  tokens: number;
  /** Median seconds of estimateTokens over the repeats. */
  seconds: number;
  mbPerSecond: number;
  secondsPerMb: number;
}

/** One tokenizer on one contrast size; `ms` is undefined when the size was skipped. */
export interface ContrastCell {
  kib: number;
  ms: number | undefined;
  tokens: number | undefined;
}

export interface ContrastRow {
  tokenizer: string;
  cells: ContrastCell[];
}

export interface AdversarialReport {
  /** MB means 2^20 bytes of UTF-8 throughout. */
  bytesPerInput: number;
  repeats: number;
  rows: ThroughputRow[];
  /** The worst seconds per MB over every input: the bound on estimateTokens' work. */
  worst: { input: string; secondsPerMb: number };
  contrast: ContrastRow[];
  capMs: number;
  runSeconds: number;
}

const MB = 2 ** 20;
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/** The longest prefix of `text` that is at most `bytes` bytes of UTF-8. */
function trimToBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= bytes) return text;
  let lo = 0;
  let hi = Math.min(text.length, bytes);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (Buffer.byteLength(text.slice(0, mid), 'utf8') <= bytes) lo = mid;
    else hi = mid - 1;
  }
  // Never end on half of a surrogate pair.
  const last = text.charCodeAt(lo - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? lo - 1 : lo);
}

/** Pieces from `next` joined until `bytes` bytes of UTF-8, then trimmed to exactly that or just below. */
function fill(bytes: number, next: (i: number) => string): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part = next(i);
    parts.push(part);
    size += Buffer.byteLength(part, 'utf8');
  }
  return trimToBytes(parts.join(''), bytes);
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Varied text from a small fixture: its sentences in a new random order for every
 * paragraph, each sentence numbered, so the text does not repeat itself.
 */
function variedText(fixture: string, bytes: number, seed: number, cjk: boolean): string {
  const sentences = (cjk ? fixture.match(/[^。！？\n]+[。！？]?/g) : fixture.match(/[^.!?\n]+[.!?]?\s*/g))
    ?.map((s) => s.trim())
    .filter((s) => s !== '');
  if (sentences === undefined || sentences.length === 0) throw new Error('The fixture has no sentences.');
  const random = seededRandom(seed);
  return fill(bytes, (p) => {
    const picked = shuffled(sentences, random).slice(0, 4 + Math.floor(random() * 4));
    const numbered = picked.map((s, i) => (cjk ? `（${p}.${i + 1}）${s}` : `(${p}.${i + 1}) ${s}`));
    return `${numbered.join(cjk ? '' : ' ')}\n\n`;
  });
}

function randomCjk(bytes: number, seed: number): string {
  const random = seededRandom(seed);
  const count = Math.floor(bytes / 3); // every character of U+4E00..U+9FFF is 3 bytes of UTF-8
  let text = '';
  const chunk: number[] = [];
  for (let i = 0; i < count; i++) {
    chunk.push(0x4e00 + Math.floor(random() * (0x9fff - 0x4e00 + 1)));
    if (chunk.length === 4096) {
      text += String.fromCharCode(...chunk);
      chunk.length = 0;
    }
  }
  return text + String.fromCharCode(...chunk);
}

function randomBase64(bytes: number, seed: number): string {
  const random = seededRandom(seed);
  const raw = Buffer.alloc(Math.ceil((bytes * 3) / 4));
  for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(random() * 256);
  return trimToBytes(raw.toString('base64'), bytes);
}

/** The package.json manifests installed under node_modules, sorted, as one minified JSON array. */
function minifiedJson(bytes: number): string {
  const modules = join(root, 'node_modules');
  const dirs: string[] = [];
  for (const name of readdirSync(modules).sort()) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) {
      for (const sub of readdirSync(join(modules, name)).sort()) dirs.push(join(modules, name, sub));
    } else dirs.push(join(modules, name));
  }
  const manifests: unknown[] = [];
  for (const dir of dirs) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) manifests.push(JSON.parse(readFileSync(path, 'utf8')));
  }
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as unknown;
  let text = JSON.stringify([lock, ...manifests]);
  // Too few packages installed: repeat them, each copy numbered so the text does not repeat exactly.
  for (let copy = 1; Buffer.byteLength(text, 'utf8') < bytes; copy++) {
    text = `${text.slice(0, -1)},${JSON.stringify({ copy, manifests })}]`;
  }
  return trimToBytes(text, bytes);
}

function longestRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11) run = 0;
    else if (++run > longest) longest = run;
  }
  return longest;
}

function inputs(bytes: number): { input: string; source: string; text: string }[] {
  const fixture = (name: string) => readFileSync(join(root, 'scripts/fixtures', name), 'utf8');
  return [
    { input: 'one repeated character', source: "'a' repeated", text: 'a'.repeat(bytes) },
    {
      input: 'base64 of random bytes',
      source: 'seeded pseudo-random bytes, base64 without line breaks',
      text: randomBase64(bytes, 1),
    },
    {
      input: 'minified JSON',
      source: "package-lock.json and the package.json of every installed package, as one JSON.stringify'd array",
      text: minifiedJson(bytes),
    },
    {
      input: 'CJK text (varied)',
      source: 'the sentences of scripts/fixtures/cjk.txt, shuffled per paragraph and numbered',
      text: variedText(fixture('cjk.txt'), bytes, 2, true),
    },
    {
      input: 'random CJK characters',
      source: 'seeded random characters of U+4E00..U+9FFF, no spaces',
      text: randomCjk(bytes, 3),
    },
    {
      input: 'English prose (reference)',
      source: 'the sentences of scripts/fixtures/prose.txt, shuffled per paragraph and numbered',
      text: variedText(fixture('prose.txt'), bytes, 4, false),
    },
  ];
}

function timeEstimate(text: string): { ms: number; tokens: number } {
  const message = { role: 'user' as const, content: text }; // a new object: never a cache hit
  const t = performance.now();
  const tokens = estimateTokens([message]);
  return { ms: performance.now() - t, tokens };
}

/** Runs the benchmark: about half a minute on two cores with the defaults. */
export function runAdversarial(options: AdversarialOptions = {}): AdversarialReport {
  const started = performance.now();
  const bytes = options.bytes ?? MB;
  const repeats = options.repeats ?? 3;
  const contrastKiB = options.contrastKiB ?? [1, 2, 4, 8, 16, 32, 64];
  const capMs = options.capMs ?? 5_000;

  const all = inputs(bytes);
  // Warm-up: load the vocabulary and let the JIT settle on a slice of every input.
  for (const { text } of all) timeEstimate(text.slice(0, 20_000));

  const rows: ThroughputRow[] = all.map(({ input, source, text }) => {
    const runs = Array.from({ length: repeats }, () => timeEstimate(text));
    const seconds = median(runs.map((r) => r.ms)) / 1000;
    const size = Buffer.byteLength(text, 'utf8');
    return {
      input,
      source,
      chars: text.length,
      bytes: size,
      longestRun: longestRun(text),
      tokens: runs[0]?.tokens ?? 0,
      seconds,
      mbPerSecond: size / MB / seconds,
      secondsPerMb: seconds / (size / MB),
    };
  });
  const worstRow = rows.reduce((a, b) => (b.secondsPerMb > a.secondsPerMb ? b : a));

  // The trap: plain BPE on one long run without spaces.
  const encoder = new Tiktoken(o200kBase);
  const tokenizers: { name: string; count: (text: string) => number }[] = [
    { name: 'js-tiktoken 1.0.21 (o200k_base) encode().length', count: (text) => encoder.encode(text, [], []).length },
    { name: 'gpt-tokenizer exact count (exactTextTokens, o200k)', count: (text) => exactTextTokens(text) },
    {
      name: `countTextTokens (what estimateTokens uses; pre-tokens cut at ${MAX_BPE_PIECE})`,
      count: (text) => countTextTokens(text),
    },
  ];
  const contrast: ContrastRow[] = tokenizers.map(({ name, count }) => {
    count('b'.repeat(1024)); // warm-up on another character
    const cells: ContrastCell[] = [];
    let capped = false;
    for (const kib of contrastKiB) {
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

  return {
    bytesPerInput: bytes,
    repeats,
    rows,
    worst: { input: worstRow.input, secondsPerMb: worstRow.secondsPerMb },
    contrast,
    capMs,
    runSeconds: (performance.now() - started) / 1000,
  };
}

/** The report as a markdown section. */
export function renderAdversarialMarkdown(r: AdversarialReport): string {
  const lines: string[] = [];
  lines.push('## Adversarial input: bounded work');
  lines.push('');
  lines.push(
    `estimateTokens on ${formatInt(r.bytesPerInput)} bytes (1 MB = 2^20 bytes of UTF-8) of each input, the median of ` +
      `${r.repeats} runs, each on a new message object so nothing is cached.`,
  );
  lines.push('');
  lines.push('| input | chars | longest run without whitespace | tokens | time | MB/s | s per MB |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|');
  for (const row of r.rows) {
    lines.push(
      `| ${row.input} | ${formatInt(row.chars)} | ${formatInt(row.longestRun)} | ${formatInt(row.tokens)} | ` +
        `${formatMs(row.seconds * 1000)} | ${row.mbPerSecond.toFixed(2)} | ${row.secondsPerMb.toFixed(3)} |`,
    );
  }
  lines.push('');
  for (const row of r.rows) lines.push(`- ${row.input}: ${row.source}.`);
  lines.push('');
  lines.push(
    `**Bound: at most ${r.worst.secondsPerMb.toFixed(2)} s per MB** on every input here (the worst was ${r.worst.input}).`,
  );
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
    console.log(renderAdversarialMarkdown(runAdversarial()));
  } catch (error: unknown) {
    console.error(error);
    process.exitCode = 1;
  }
}
