/**
 * Measures the token estimator for the README: (1) the error of estimateTokens against
 * the exact count of gpt-tokenizer (an independent implementation of the same o200k BPE)
 * on code, JSON, English prose and CJK text; (2) the cost of
 * re-estimating a 2,000-message transcript after one new message, against estimating
 * it from scratch. Run: npx tsx scripts/measure-estimation.ts
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { listTree } from '../src/cli/file-tools.js';
import type { Message } from '../src/messages/types.js';
import { estimateTokens, MESSAGE_FRAMING_TOKENS, REQUEST_FRAMING_TOKENS } from '../src/models/estimate-tokens.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

async function samples(): Promise<Record<string, string>> {
  const { files } = await listTree(root);
  const code = files
    .filter((f) => f.startsWith('src/') && f.endsWith('.ts'))
    .map(read)
    .join('\n');
  const json = JSON.stringify(JSON.parse(read('package-lock.json')));
  const prose = read('scripts/fixtures/prose.txt');
  const cjk = read('scripts/fixtures/cjk.txt');
  return { code, 'JSON (minified)': json, 'English prose': prose, CJK: cjk };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function transcript(size: number, seed: string): Message[] {
  const messages: Message[] = [{ role: 'system', content: 'You are a coding agent.' }];
  for (let i = 0; messages.length < size; i++) {
    const id = `call_${i}`;
    messages.push({
      role: 'assistant',
      content: '',
      toolCalls: [{ id, name: 'bash', arguments: { command: `cat file${i}.py` } }],
    });
    messages.push({
      role: 'tool',
      toolCallId: id,
      content: `${seed.slice((i * 997) % 5000, ((i * 997) % 5000) + 1500)} #${i}`,
    });
  }
  return messages;
}

async function main(): Promise<void> {
  console.log('| text | chars | exact o200k | estimateTokens | error |');
  console.log('|---|---:|---:|---:|---:|');
  const texts = await samples();
  for (const [name, text] of Object.entries(texts)) {
    const exact = countTokens(text, { disallowedSpecial: new Set() });
    const estimate =
      estimateTokens([{ role: 'user', content: text }]) - MESSAGE_FRAMING_TOKENS - REQUEST_FRAMING_TOKENS;
    const error = ((estimate - exact) / exact) * 100;
    console.log(`| ${name} | ${text.length} | ${exact} | ${estimate} | ${error >= 0 ? '+' : ''}${error.toFixed(2)}% |`);
  }

  const seed = texts.code ?? '';
  const scratch: number[] = [];
  const incremental: number[] = [];
  for (let round = 0; round < 15; round++) {
    const messages = transcript(2_000, seed);
    let t = performance.now();
    estimateTokens(messages);
    scratch.push(performance.now() - t);
    messages.push({ role: 'user', content: `one more message ${round}` });
    t = performance.now();
    estimateTokens(messages);
    incremental.push(performance.now() - t);
  }
  const s = median(scratch);
  const i = median(incremental);
  console.log(
    `\nRe-estimating 2,000 messages after one new message: median ${i.toFixed(3)} ms, ` +
      `from scratch ${s.toFixed(1)} ms; ratio ${(i / s).toFixed(4)} (${(s / i).toFixed(0)}x cheaper).`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
