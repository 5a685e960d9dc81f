/**
 * Measures what a very large tool result costs a saved session: a one-turn session whose tool
 * returns `MB` megabytes (100 by default) is saved in a FileSessionStore, then a fresh process
 * loads it and reports the time of the load, the peak RSS of that process and the size of the
 * log on disk. Run: npx tsx scripts/measure-large-tool-result.ts [MB]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgent } from '../src/agent/create-agent.js';
import { tool } from '../src/executor/tool.js';
import { FileSessionStore } from '../src/sessions/file-store.js';
import { mockModel } from '../src/testing/mock-model.js';

const [mode, dir] = process.argv.slice(2);

if (mode === '--load' && dir !== undefined) {
  const started = performance.now();
  const session = createAgent({ provider: mockModel([]) }).session({ id: 'big', store: new FileSessionStore({ dir }) });
  await session.load();
  const ms = performance.now() - started;
  const chars = session.messages.reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : 0), 0);
  console.log(JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, chars }));
} else {
  const megabytes = Number(mode ?? 100);
  const folder = mkdtempSync(join(tmpdir(), 'lousho-big-result-'));
  try {
    const big = tool({
      name: 'dump',
      parameters: { type: 'object' },
      execute: () => 'x'.repeat(megabytes * 1024 * 1024),
    });
    const model = mockModel([{ toolCalls: [{ id: 'c1', name: 'dump', arguments: {} }] }, 'done']);
    const session = createAgent({ provider: model, tools: [big] }).session({
      id: 'big',
      store: new FileSessionStore({ dir: folder }),
    });
    await session.send('dump it');
    const logBytes = statSync(join(folder, 'big.jsonl')).size;
    const script = fileURLToPath(import.meta.url);
    const out = execFileSync(process.execPath, ['--import', 'tsx', script, '--load', folder], { encoding: 'utf8' });
    const loaded = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { ms: number; maxRssMb: number; chars: number };
    console.log(`tool result: ${megabytes} MB`);
    console.log(`session log on disk: ${(logBytes / 1024 / 1024).toFixed(2)} MB`);
    console.log(`reload: ${(loaded.ms / 1000).toFixed(2)} s, peak RSS ${loaded.maxRssMb.toFixed(0)} MB`);
    console.log(`characters of content reloaded: ${loaded.chars.toLocaleString('en-US')}`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
