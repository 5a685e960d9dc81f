/**
 * The inputs of bench/adversarial.ts: text that makes BPE tokenizers slow, and ordinary
 * text for reference. Every generator takes a size in UTF-8 bytes and a seed and returns
 * a new text for every seed, so no repetition reuses a text a cache has already seen.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from './stats.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** One input: a name, where its text comes from, and how to make `bytes` of it from a seed. */
export interface AdversarialInput {
  input: string;
  source: string;
  make(bytes: number, seed: number): string;
}

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
  const last = text.charCodeAt(lo - 1); // never end on half of a surrogate pair
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? lo - 1 : lo);
}

/** Pieces from `next` joined until `bytes` bytes of UTF-8, then trimmed to at most that. */
function fill(bytes: number, next: (i: number) => string): string {
  const parts: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
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

/** `bytes` of characters drawn from `alphabet` (one UTF-16 unit each), in blocks so no huge argument list is built. */
function randomFrom(alphabet: string, bytesPerChar: number, bytes: number, seed: number): string {
  const random = seededRandom(seed);
  const codes = [...alphabet].map((c) => c.charCodeAt(0));
  const count = Math.floor(bytes / bytesPerChar);
  const blocks: string[] = [];
  const block: number[] = [];
  for (let i = 0; i < count; i++) {
    block.push(codes[Math.floor(random() * codes.length)] as number);
    if (block.length === 4096 || i === count - 1) {
      blocks.push(String.fromCharCode(...block));
      block.length = 0;
    }
  }
  return blocks.join('');
}

const LOWERCASE = 'abcdefghijklmnopqrstuvwxyz';
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
let cjk: string | undefined;
/** Every character of U+4E00..U+9FFF (3 bytes of UTF-8 each). */
const CJK = () => {
  cjk ??= Array.from({ length: 0x9fff - 0x4e00 + 1 }, (_, i) => String.fromCharCode(0x4e00 + i)).join('');
  return cjk;
};

/**
 * Varied text from a small fixture: its sentences in a new random order for every
 * paragraph, each sentence numbered, so the text does not repeat itself.
 */
function variedText(fixture: string, bytes: number, seed: number, isCjk: boolean): string {
  const sentences = (isCjk ? fixture.match(/[^。！？\n]+[。！？]?/g) : fixture.match(/[^.!?\n]+[.!?]?\s*/g))
    ?.map((s) => s.trim())
    .filter((s) => s !== '');
  if (sentences === undefined || sentences.length === 0) throw new Error('The fixture has no sentences.');
  const random = seededRandom(seed);
  return fill(bytes, (p) => {
    const picked = shuffled(sentences, random).slice(0, 4 + Math.floor(random() * 4));
    const numbered = picked.map((s, i) => (isCjk ? `（${seed}.${p}.${i + 1}）${s}` : `(${seed}.${p}.${i + 1}) ${s}`));
    return `${numbered.join(isCjk ? '' : ' ')}\n\n`;
  });
}

let manifests: unknown[] | undefined;
/** package-lock.json and the package.json of every installed package. */
function packageManifests(): unknown[] {
  if (manifests !== undefined) return manifests;
  const modules = join(root, 'node_modules');
  const dirs: string[] = [];
  for (const name of readdirSync(modules).sort()) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@'))
      for (const sub of readdirSync(join(modules, name)).sort()) dirs.push(join(modules, name, sub));
    else dirs.push(join(modules, name));
  }
  manifests = [JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as unknown];
  for (const dir of dirs) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) manifests.push(JSON.parse(readFileSync(path, 'utf8')));
  }
  return manifests;
}

let sources: string[] | undefined;
/** The project's own TypeScript sources, in path order. */
function projectSources(): string[] {
  sources ??= readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => readFileSync(join(root, 'src', f), 'utf8'));
  return sources;
}

/** The inputs, with the files they read loaded once. */
export function adversarialInputs(): AdversarialInput[] {
  const code = projectSources();
  const fixture = (name: string) => readFileSync(join(root, 'scripts/fixtures', name), 'utf8');
  const prose = fixture('prose.txt');
  const cjkText = fixture('cjk.txt');
  return [
    {
      input: 'one repeated character',
      source: 'one lowercase letter repeated, a different letter for each seed',
      make: (bytes, seed) => String.fromCharCode(97 + (seed % 26)).repeat(bytes),
    },
    {
      input: 'random base64',
      source: 'seeded random characters of the base64 alphabet, no line breaks',
      make: (bytes, seed) => randomFrom(BASE64, 1, bytes, seed),
    },
    {
      input: 'random lowercase letters, no spaces',
      source: 'seeded random a-z: one pre-token of the whole size',
      make: (bytes, seed) => randomFrom(LOWERCASE, 1, bytes, seed),
    },
    {
      input: 'random lowercase words of 1,000 letters',
      source:
        'seeded random a-z in words of 1,000 letters between spaces: pre-tokens just under the 1,024-character cut, merged whole',
      make: (bytes, seed) => {
        const random = seededRandom(seed);
        return fill(bytes, () => `${randomFrom(LOWERCASE, 1, 1_000, Math.floor(random() * 2 ** 31))} `);
      },
    },
    {
      input: 'random CJK characters',
      source: 'seeded random characters of U+4E00..U+9FFF, no spaces or punctuation',
      make: (bytes, seed) => randomFrom(CJK(), 3, bytes, seed),
    },
    {
      input: 'letter blocks and random CJK',
      source:
        'alternating 1,024-character blocks of one repeated lowercase letter and of seeded random U+4E00..U+9FFF: one pre-token whose chunks alternate between two rates of tokens per character',
      make: (bytes, seed) => {
        const random = seededRandom(seed);
        const letter = String.fromCharCode(97 + (seed % 26)).repeat(1_024);
        return fill(bytes, (i) =>
          i % 2 === 0 ? letter : randomFrom(CJK(), 3, 3 * 1_024, Math.floor(random() * 2 ** 31)),
        );
      },
    },
    {
      input: 'random emoji',
      source: 'seeded random emoji of U+1F300..U+1F64F (a surrogate pair, 4 bytes of UTF-8 each), no spaces',
      make: (bytes, seed) => {
        const random = seededRandom(seed);
        return fill(bytes, () => {
          let block = '';
          for (let i = 0; i < 1_024; i++) {
            const point = 0x1f300 + Math.floor(random() * 0x350) - 0x10000;
            block += String.fromCharCode(0xd800 + (point >> 10), 0xdc00 + (point & 0x3ff));
          }
          return block;
        });
      },
    },
    {
      input: 'CJK text (varied)',
      source: 'the sentences of scripts/fixtures/cjk.txt, shuffled per paragraph and numbered',
      make: (bytes, seed) => variedText(cjkText, bytes, seed, true),
    },
    {
      input: 'minified JSON',
      source:
        "package-lock.json and the package.json of every installed package in a seeded random order, each numbered, as JSON.stringify'd arrays one after another",
      make: (bytes, seed) => {
        const random = seededRandom(seed);
        const items = packageManifests();
        return fill(
          bytes,
          (copy) => `${JSON.stringify(shuffled(items, random).map((m, i) => ({ seed, copy, i, m })))}`,
        );
      },
    },
    {
      input: 'code',
      source: "this project's src/**/*.ts files in a seeded random order, each with a numbered header",
      make: (bytes, seed) => {
        const random = seededRandom(seed);
        return fill(bytes, (copy) =>
          shuffled(code, random)
            .map((file, i) => `// ${seed}.${copy}.${i}\n${file}\n`)
            .join(''),
        );
      },
    },
    {
      input: 'English prose',
      source: 'the sentences of scripts/fixtures/prose.txt, shuffled per paragraph and numbered',
      make: (bytes, seed) => variedText(prose, bytes, seed, false),
    },
  ];
}

/** The longest run of characters without whitespace. */
export function longestRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11) run = 0;
    else if (++run > longest) longest = run;
  }
  return longest;
}
