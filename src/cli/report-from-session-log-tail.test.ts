import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentsStoreSession } from '../integrations/agents-store-session.js';
import { compactingSession } from '../integrations/compacting-session.js';
import { fileLogEntries } from '../sessions/file-log-lines.js';
import { FileSessionStore } from '../sessions/file-store.js';
import { decodeEntry, encodeEntry, type SessionRecord } from '../sessions/records.js';
import { SessionState } from '../sessions/session-state.js';
import { agentsTurnItems } from '../test-support/agents-turn-items.js';
import { sessionLogReport } from './report-from-session-log.js';

/** The same log with each tail written as the rewrite of the whole transcript it leads to. */
function asRewrites(text: string): string {
  const state = new SessionState();
  const lines = fileLogEntries(text).filter((line) => line.trim() !== '');
  return lines
    .map((line) => {
      const records = decodeEntry(line).map((record): SessionRecord => {
        const whole = record.type === 'tail' ? [...state.messages.slice(0, record.keep), ...record.messages] : [];
        state.apply(record);
        return record.type === 'tail' ? { type: 'rewrite', messages: whole } : record;
      });
      return encodeEntry(records);
    })
    .join('\n');
}

describe("the report of an Agents SDK session's log", () => {
  it('reads its tails as the rewrites they stand for: a compaction each, and no message counted twice', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-report-tail-'));
    const store = new FileSessionStore({ dir });
    const inner = new AgentsStoreSession({ store, sessionId: 'lean' });
    const session = compactingSession({ session: inner, model: 'gpt-4o-mini', contextWindow: 128_000, mode: 'lean' });
    for (let turn = 0; turn < 12; turn++) {
      await session.getItems();
      await session.addItems(agentsTurnItems(turn));
      await session.runCompaction();
    }
    const text = await readFile(join(dir, 'lean.jsonl'), 'utf8');
    const tails = text.split('\n').filter((line) => line.includes('"type":"tail"')).length;
    expect(tails).toBeGreaterThan(6);
    const options = { model: 'gpt-4o-mini', contextWindow: 128_000 };
    const data = sessionLogReport('lean.jsonl', text, options);
    expect(data).toEqual(sessionLogReport('lean.jsonl', asRewrites(text), options));
    expect(data.marks.length).toBe(tails);
    for (const mark of data.marks) expect(mark.detail).toMatch(/^1 tool results pruned/);
    expect(data.totals.messages).toBe(48);
    expect(data.totals.keptMessages).toBe((await inner.messages()).length);
    const tool = data.byRole.find((r) => r.name === 'tool');
    expect(tool?.messages).toBe(12);
    expect(tool?.keptTokens).toBeLessThan((tool?.tokens as number) / 4);
  });
});
