import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/commands.js';
import { compactMessages } from '../compaction/compact-messages.js';
import type { Message } from '../messages/types.js';
import { pairingProblem } from '../messages/validate.js';
import { captureIO, noRun } from '../test-support/cli.js';
import { sharedPath } from '../test-support/corpus.js';
import { fromClaudeCode } from './from-claude-code.js';

const DUPLICATE = sharedPath('fixtures/transcripts/claude-code/vibe-claude-code-duplicate-record.jsonl');
const BEADS = sharedPath('fixtures/transcripts/claude-code/spotter-create-beads-opus46.jsonl');
const SUBAGENT = sharedPath('fixtures/transcripts/claude-code/spotter-acompact-subagent-sidechain.jsonl');
const ORCHESTRATOR = sharedPath('fixtures/transcripts/claude-code/ccviewer-nextjs-todo-orchestrator.jsonl');
const REASON = 'shared/fixtures/transcripts is not beside the checkout';

const records = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** What the reader says of a main session's subagent records: `records` of `runs` subagent runs. */
const SIDECHAIN_DETAIL = (records: number, runs: number) =>
  `${records} subagent record${records === 1 ? '' : 's'} (isSidechain, ${runs} run${runs === 1 ? '' : 's'}) left out: the Task results hold their answers; a subagent's own file (subagents/agent-*.jsonl) reads as its conversation`;

const base = { sessionId: 's1', isSidechain: false };
let n = 0;
const user = (content: unknown) => ({ ...base, uuid: `u${n++}`, type: 'user', message: { role: 'user', content } });
const block = (id: string, content: unknown, usage?: Record<string, number>, model = 'claude-opus-4-6') => ({
  ...base,
  uuid: `u${n++}`,
  type: 'assistant',
  message: { id, role: 'assistant', model, content: [content], ...(usage === undefined ? {} : { usage }) },
});
const task = (id: string) => ({
  type: 'tool_use',
  id,
  name: 'Task',
  input: { description: id, prompt: `Explore ${id}` },
});
const textOf = (m: Message) =>
  typeof m.content === 'string' ? m.content : m.content.map((p) => ('text' in p ? p.text : '')).join('');
const result = (id: string, text: string) => user([{ type: 'tool_result', tool_use_id: id, content: text }]);

describe.skipIf(DUPLICATE === undefined)(`real Claude Code logs (skipped when ${REASON})`, () => {
  it('reads a record logged twice with the same uuid once (vibe-claude-code-duplicate-record.jsonl, records 47 and 48)', async () => {
    const lines = await records(DUPLICATE as string);
    expect(lines[47]?.uuid).toBe(lines[48]?.uuid);
    const { messages } = fromClaudeCode(lines);
    expect(pairingProblem(messages)).toBeUndefined();
    const results = messages.filter((m) => m.role === 'tool' && m.toolCallId === 'toolu_01Lv3xFNGrJLeUh53hersj2H');
    expect(results).toHaveLength(1);
    expect(messages).toHaveLength(73);
  });

  it('joins a reply whose second call was logged after the first call had its result (spotter-create-beads-opus46.jsonl, records 16-22)', async () => {
    const lines = await records(BEADS as string);
    // As logged: Glob's tool_use, its tool_result, then WebSearch's tool_use of the same message.id.
    expect(
      [lines[18], lines[20], lines[21]].map((r) => (r?.message as { id?: string } | undefined)?.id ?? r?.type),
    ).toEqual(['msg_01FqB3YigWWkQYHv4wfbcsgM', 'user', 'msg_01FqB3YigWWkQYHv4wfbcsgM']);
    const { messages } = fromClaudeCode(lines);
    const reply = messages.find((m) => m.role === 'assistant' && m.toolCalls?.some((c) => c.name === 'Glob'));
    expect(reply?.role === 'assistant' && reply.toolCalls?.map((c) => c.name)).toEqual(['Glob', 'WebSearch']);
    const at = messages.indexOf(reply as (typeof messages)[number]);
    expect(messages.slice(at + 1, at + 3).map((m) => m.role)).toEqual(['tool', 'tool']);
    expect(messages).toHaveLength(32);
  });

  it("reads a subagent's own file, all isSidechain, as its conversation and says so", async () => {
    const reading = fromClaudeCode(await records(SUBAGENT as string));
    expect(reading.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(reading.detail).toBe("a subagent's own conversation: its records are all isSidechain");
    expect(reading.model).toBe('claude-opus-4-6');
  });

  it('says how many subagent records a main session left out (ccviewer-nextjs-todo-orchestrator.jsonl: 405 of 438, 5 Task runs)', async () => {
    const lines = await records(ORCHESTRATOR as string);
    expect([lines.length, lines.filter((r) => r.isSidechain === true).length]).toEqual([438, 405]);
    const reading = fromClaudeCode(lines);
    expect(reading.messages).toHaveLength(23);
    expect(reading.detail).toBe(SIDECHAIN_DETAIL(405, 5));
    const { out, io } = captureIO();
    expect(await runCli(['inspect', ORCHESTRATOR as string], io, noRun)).toBe(0);
    expect(out).toContain(
      `  read as Claude Code session JSONL (${SIDECHAIN_DETAIL(405, 5)}), which lousho does not write back`,
    );
  });

  it('sets the usage Anthropic reported on every assistant message of a real session', async () => {
    const { messages } = fromClaudeCode(await records(BEADS as string));
    const replies = messages.filter((m) => m.role === 'assistant');
    expect(replies.every((m) => m.metadata?.reportedUsage !== undefined)).toBe(true);
    // Records 16-22 carry input 1,562 + cache write 1,427 + cache read 28,160.
    expect(replies.find((m) => m.toolCalls?.some((c) => c.name === 'Glob'))?.metadata?.reportedUsage).toMatchObject({
      inputTokens: 31149,
      cacheReadTokens: 28160,
      cacheWriteTokens: 1427,
    });
  });
});

describe('the quirks of Claude Code logs', () => {
  // Claude Code 2.x logs each block of a reply as its own record (same message.id) and starts a
  // tool as soon as its block is written, so the results of parallel calls are logged as they
  // finish, between the calls. Shape as in marot/spotter test/fixtures/transcripts/
  // 4d5611e5-241a-462a-8d15-5122611a9569.jsonl (msg_01PdWvcj...: two Bash blocks, a result between)
  // and spotter-create-beads-opus46.jsonl records 16-22; three Task calls, as the issue reports.
  const usage = (output: number) => ({
    input_tokens: 3,
    cache_read_input_tokens: 900,
    cache_creation_input_tokens: 100,
    output_tokens: output,
  });
  const PARALLEL = [
    user('Explore the three packages.'),
    block('msg_A', { type: 'text', text: 'Three explorers at once.' }, usage(9)),
    block('msg_A', task('toolu_1'), usage(9)),
    block('msg_A', task('toolu_2'), usage(9)),
    result('toolu_2', 'Package two: 4 files.'),
    block('msg_A', task('toolu_3'), usage(240)),
    result('toolu_1', 'Package one: 12 files.'),
    result('toolu_3', 'Package three: 7 files.'),
    block('msg_B', { type: 'text', text: 'All three are explored.' }, usage(30)),
  ];

  it('pairs parallel Task calls whose results are logged between the calls, by id', () => {
    const { messages } = fromClaudeCode(PARALLEL);
    expect(pairingProblem(messages)).toBeUndefined();
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'assistant']);
    const [, reply] = messages;
    expect(reply?.role === 'assistant' && reply.toolCalls?.map((c) => c.id)).toEqual(['toolu_1', 'toolu_2', 'toolu_3']);
    expect(messages.slice(2, 5).map((m) => (m.role === 'tool' ? m.toolCallId : ''))).toEqual([
      'toolu_2',
      'toolu_1',
      'toolu_3',
    ]);
  });

  it('counts a streamed reply once, as its largest usage so far, and reports the newest reply', () => {
    const reading = fromClaudeCode(PARALLEL);
    const [first, second] = reading.messages.filter((m) => m.role === 'assistant');
    expect(first?.metadata?.reportedUsage).toEqual({
      inputTokens: 1003,
      outputTokens: 240,
      cacheReadTokens: 900,
      cacheWriteTokens: 100,
    });
    expect(second?.metadata?.reportedUsage).toMatchObject({ outputTokens: 30 });
    expect(reading.reported).toEqual(second?.metadata?.reportedUsage);
  });

  it("does not count Claude Code's own <synthetic> replies", () => {
    const reading = fromClaudeCode([
      ...PARALLEL,
      user('Go on.'),
      block('msg_C', { type: 'text', text: 'No response requested.' }, usage(0), '<synthetic>'),
    ]);
    const replies = reading.messages.filter((m) => m.role === 'assistant');
    expect(replies).toHaveLength(3);
    expect(replies[2]?.metadata?.reportedUsage).toBeUndefined();
    expect(reading.reported).toMatchObject({ outputTokens: 30 });
    expect(reading.model).toBe('claude-opus-4-6');
  });

  it('prunes the results of the parallel calls like any others', async () => {
    const big = PARALLEL.map((r) =>
      r.type === 'user' && Array.isArray(r.message.content)
        ? result((r.message.content[0] as { tool_use_id: string }).tool_use_id, 'file\n'.repeat(3000))
        : r,
    );
    const { messages } = fromClaudeCode([...big, user('Thanks.'), block('msg_D', { type: 'text', text: 'Welcome.' })]);
    const { prunedToolCallIds } = await compactMessages(messages, { protectedTokens: 0 });
    expect([...prunedToolCallIds].sort()).toEqual(['toolu_1', 'toolu_2', 'toolu_3']);
  });

  it('reads from the last compact_boundary on, its summary first, and no summary record as a message', () => {
    // The records Claude Code writes on /compact (shape of claude-code-viewer's mock sessions and the
    // compact_boundary system record of Claude Code 1.0.x+): a system record, then the summary as a user turn.
    const { messages } = fromClaudeCode([
      { type: 'summary', summary: 'Setup', leafUuid: 'u0' },
      user('Old question.'),
      block('msg_0', { type: 'text', text: 'Old answer.' }),
      { ...base, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', uuid: 'cb' },
      { ...user('This session is being continued from a previous conversation. Summary: ...'), isCompactSummary: true },
      block('msg_1', { type: 'text', text: 'Continuing.' }),
    ]);
    expect(messages.map(textOf)).toEqual([
      'This session is being continued from a previous conversation. Summary: ...',
      'Continuing.',
    ]);
  });

  it('leaves the sidechain records of a main session out, their answer being the Task result, and says how many', () => {
    const side = {
      ...block('msg_S', { type: 'text', text: 'Inside the subagent.' }),
      isSidechain: true,
      parentUuid: null,
    };
    const { messages, detail } = fromClaudeCode([user('Hi.'), side, block('msg_M', { type: 'text', text: 'Hello.' })]);
    expect(messages.map(textOf)).toEqual(['Hi.', 'Hello.']);
    expect(detail).toBe(SIDECHAIN_DETAIL(1, 1));
    expect(fromClaudeCode([user('Hi.'), block('msg_M', { type: 'text', text: 'Hello.' })]).detail).toBeUndefined();
  });
});
