/**
 * Fits the estimator's framing constants to the corpus's provider counts:
 * prompt_tokens - BPE(content, names, arguments) = a + b * plainMessages + c * callOrResultMessages.
 * Run: npx tsx scripts/fit-framing.ts (needs ../shared/corpus).
 */
import { readCorpus } from '../bench/corpus.js';
import { contentText } from '../src/messages/content.js';
import type { Message } from '../src/messages/types.js';
import { argumentsText } from '../src/models/estimate-tokens.js';
import { countTextTokens } from '../src/models/tokenizer.js';

function bpe(m: Message): number {
  let n = countTextTokens(contentText(m.content));
  if (m.role === 'assistant') {
    for (const c of m.toolCalls ?? []) n += countTextTokens(c.name) + countTextTokens(argumentsText(c.arguments));
  }
  return n;
}

function solve(matrix: number[][]): number[] {
  const k = matrix.length;
  for (let p = 0; p < k; p++) {
    for (let q = p + 1; q < k; q++) {
      const f = (matrix[q]?.[p] ?? 0) / (matrix[p]?.[p] ?? 1);
      for (let c = p; c <= k; c++) (matrix[q] as number[])[c] = (matrix[q]?.[c] ?? 0) - f * (matrix[p]?.[c] ?? 0);
    }
  }
  const x = new Array<number>(k).fill(0);
  for (let p = k - 1; p >= 0; p--) {
    let s = matrix[p]?.[k] ?? 0;
    for (let c = p + 1; c < k; c++) s -= (matrix[p]?.[c] ?? 0) * (x[c] ?? 0);
    x[p] = s / (matrix[p]?.[p] ?? 1);
  }
  return x;
}

const k = 3;
const normal = Array.from({ length: k }, () => new Array<number>(k + 1).fill(0));
let count = 0;
for (const t of readCorpus()) {
  const tokens = t.messages.map(bpe);
  for (const call of t.calls) {
    const prefix = t.messages.slice(0, call.prefixLength);
    const content = tokens.slice(0, call.prefixLength).reduce((a, b) => a + b, 0);
    const structured = prefix.filter((m) => m.role === 'assistant' || m.role === 'tool').length;
    const row = [1, prefix.length - structured, structured];
    const y = call.promptTokens - content;
    for (let p = 0; p < k; p++) {
      for (let q = 0; q < k; q++) (normal[p] as number[])[q] = (normal[p]?.[q] ?? 0) + (row[p] ?? 0) * (row[q] ?? 0);
      (normal[p] as number[])[k] = (normal[p]?.[k] ?? 0) + (row[p] ?? 0) * y;
    }
    count++;
  }
}
const [intercept, plain, structured] = solve(normal).map((v) => v.toFixed(2));
console.log(
  `${count} calls: intercept ${intercept}, per plain message ${plain}, per call or result message ${structured}`,
);
