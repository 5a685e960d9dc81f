import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairingProblem } from '../messages/validate.js';
import { captureIO, noRun } from '../test-support/cli.js';
import { sharedPath } from '../test-support/corpus.js';
import { runCli } from './commands.js';
import { readTranscriptFile } from './transcript-file.js';

const FIXTURES = sharedPath('fixtures/transcripts');
if (FIXTURES === undefined)
  console.warn(
    'agent-logs.test.ts: shared/fixtures/transcripts was not found beside the checkout; its tests are skipped.',
  );

/** Each real log: what it is read as, its messages, its answered calls, the model it names, the calls still waiting. */
const LOGS: [
  file: string,
  read: string,
  messages: number,
  paired: number,
  model: string | undefined,
  waiting: number,
][] = [
  [
    'claude-code/ccviewer-nextjs-todo-orchestrator.jsonl',
    'Claude Code session JSONL',
    23,
    11,
    'claude-sonnet-4-20250514',
    0,
  ],
  // Records 16-22 are one reply (Glob, then WebSearch logged after Glob's result): one assistant message.
  ['claude-code/spotter-create-beads-opus46.jsonl', 'Claude Code session JSONL', 32, 16, 'claude-opus-4-6', 0],
  // One tool_result record is logged twice with the same uuid: read once (it exited 1 with 'a second result').
  [
    'claude-code/vibe-claude-code-duplicate-record.jsonl',
    'Claude Code session JSONL',
    73,
    30,
    'claude-sonnet-4-20250514',
    0,
  ],
  // A subagent's own file: every record isSidechain, read as its conversation (it gave no messages).
  [
    'claude-code/spotter-acompact-subagent-sidechain.jsonl',
    "Claude Code session JSONL (a subagent's own conversation",
    2,
    0,
    'claude-opus-4-6',
    0,
  ],
  ['gemini-cli/vibe-gemini-cli-recording.jsonl', 'Gemini CLI chat recording', 21, 12, 'gemini-3.1-pro-preview', 0],
  ['copilot-cli/vibe-copilot-cli-session.json', 'GitHub Copilot CLI session', 21, 15, undefined, 0],
  ['codex-cli/codemie-rollout-gpt55-0.125.jsonl', 'Codex CLI rollout', 173, 102, 'gpt-5.5', 0],
  ['codex-cli/acidicsoil-rollout-gpt51codex-0.58.jsonl', 'Codex CLI rollout', 80, 39, 'gpt-5.1-codex', 0],
  ['opencode/darkfactory-nimble-pixel-gpt53codex.json', 'opencode session export', 12, 4, 'gpt-5.3-codex', 0],
  ['opencode/darkfactory-quiet-meadow-subagents.json', 'opencode session export', 60, 37, 'gpt-5.3-codex', 0],
  [
    'openhands/openhands-basic-gui-mode-claude35.json',
    'OpenHands event stream',
    10,
    4,
    'claude-3-5-sonnet-20241022',
    0,
  ],
  // Its closing `finish` call has no observation: the newest turn waits, and is kept so.
  [
    'openhands/openhands-wrong-initial-state-claude35.json',
    'OpenHands event stream',
    8,
    3,
    'claude-3-5-sonnet-20241022',
    1,
  ],
  ['swe-agent/sweagent-gpt4-test-repo-i1.traj', 'SWE-agent trajectory', 12, 0, undefined, 0],
  ['swe-agent/sweagent-fc-gpt4o-marshmallow-1867.traj', 'SWE-agent trajectory', 24, 11, 'gpt-4o', 0],
  [
    'mini-swe-agent/gemini3pro-django__django-16255.traj.json',
    'mini-swe-agent trajectory',
    36,
    0,
    'google/gemini-3-pro-preview',
    0,
  ],
  [
    'mini-swe-agent/gemini3pro-django__django-11163.traj.json',
    'mini-swe-agent trajectory',
    28,
    0,
    'google/gemini-3-pro-preview',
    0,
  ],
  ['tau-bench/avaljotsingh-retail-tool-calling-1task.json', 'tau-bench results', 30, 10, undefined, 0],
  // Its tool calls have no ids: they get ids, each reply answering the oldest open call.
  ['tau-bench/avaljotsingh-retail-assertions-agent-10tasks.json', 'tau-bench results', 25, 5, undefined, 0],
];

/** Files of kinds lousho does not read, each refused in one line that names what it is and what to give. */
const REFUSED: [file: string, says: string][] = [
  ['anthropic/pydanticai-cassette-parallel-tool-calls.yaml', "it is a VCR cassette (YAML): give one request's body"],
  ['openai-chat/pydanticai-cassette-openai-tool-output.yaml', "it is a VCR cassette (YAML): give one request's body"],
  ['openai-responses/pydanticai-cassette-simple-response-with-tool-call.yaml', 'it is a VCR cassette (YAML)'],
  ['langchain/langsmith-run-chatopenai-lc-constructor.ts', 'it is a JavaScript or TypeScript module'],
  // A real Aider history whose every user line is an aider command: recognised, and nothing in it reached a model.
  [
    'aider/zen-aider.chat.history.md',
    "read as Aider chat history (aider's own commands left out: /add, /copy-context), it gave none",
  ],
];

describe.skipIf(FIXTURES === undefined)('the real agent logs of shared/fixtures/transcripts', () => {
  it.each(LOGS)(
    'reads %s as %s: %i messages, %i calls answered, the model it names',
    async (file, read, count, paired, model, waiting) => {
      const { messages, source, ...extras } = await readTranscriptFile(join(FIXTURES as string, file));
      expect(source.log ?? `${source.within?.replace(/^a /, '')}`).toContain(read);
      expect(messages).toHaveLength(count);
      const calls = messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
      const results = messages.filter((m) => m.role === 'tool');
      expect(results).toHaveLength(paired);
      expect(calls).toHaveLength(paired + waiting);
      expect(pairingProblem(messages, { pendingCalls: true })).toBeUndefined();
      expect(pairingProblem(messages) === undefined).toBe(waiting === 0);
      expect(extras.model).toBe(model);
    },
  );

  it.each([
    ['claude-code/ccviewer-nextjs-todo-orchestrator.jsonl', 9, 9],
    ['claude-code/vibe-claude-code-duplicate-record.jsonl', 31, 31],
    ['codex-cli/codemie-rollout-gpt55-0.125.jsonl', 66, 66],
    ['codex-cli/acidicsoil-rollout-gpt51codex-0.58.jsonl', 39, 39],
    // The newest reply was cut off before the provider answered: it reports zeros, read as none.
    ['opencode/darkfactory-nimble-pixel-gpt53codex.json', 6, 5],
    // Its closing answer is a `message` action of the agent, logged without the model response it came from.
    ['openhands/openhands-basic-gui-mode-claude35.json', 5, 4],
    ['gemini-cli/vibe-gemini-cli-recording.jsonl', 6, 6],
    ['mini-swe-agent/gemini3pro-django__django-16255.traj.json', 17, 17],
  ])(
    'sets metadata.reportedUsage on each reply of %s whose request it reports (%i replies, %i reported)',
    async (file, replies, reported) => {
      const { messages } = await readTranscriptFile(join(FIXTURES as string, file));
      const assistant = messages.filter((m) => m.role === 'assistant');
      expect(assistant).toHaveLength(replies);
      const usages = assistant.map((m) => m.metadata?.reportedUsage as { inputTokens?: number } | undefined);
      expect(usages.filter((u) => u !== undefined)).toHaveLength(reported);
      expect(usages.every((u) => u === undefined || (u.inputTokens ?? 0) > 0)).toBe(true);
    },
  );

  it('takes the usage of the newest request from the logs that record it', async () => {
    const usage = async (file: string) => (await readTranscriptFile(join(FIXTURES as string, file))).reported;
    // Claude Code: input_tokens 3 + cache read 20,542 + cache write 1,004 (the reply's last streamed record).
    expect(await usage('claude-code/ccviewer-nextjs-todo-orchestrator.jsonl')).toMatchObject({
      cacheReadTokens: 20542,
      cacheWriteTokens: 1004,
    });
    expect(await usage('codex-cli/codemie-rollout-gpt55-0.125.jsonl')).toEqual({
      inputTokens: 131573,
      outputTokens: 433,
      cacheReadTokens: 130432,
      reasoningTokens: 127,
    });
    // The session's newest reply was cut off and reports zeros: the one before it is taken.
    expect((await usage('opencode/darkfactory-nimble-pixel-gpt53codex.json'))?.inputTokens).toBeGreaterThan(0);
    expect(await usage('swe-agent/sweagent-fc-gpt4o-marshmallow-1867.traj')).toBeUndefined();
  });

  it.each(REFUSED)('refuses %s with exit 2 in one short line naming it, and writes nothing', async (file, says) => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-logs-'));
    const out = join(dir, 'out.json');
    const cli = captureIO();
    const path = join(FIXTURES as string, file);
    expect(await runCli(['compact', path, '--out', out], cli.io, noRun)).toBe(2);
    expect(cli.err).toHaveLength(1);
    expect(cli.err[0]).toContain(`LOUSHO_TRANSCRIPT_UNRECOGNIZED: ${path} holds no messages: ${says}`);
    expect((cli.err[0] as string).replace(path, '').length).toBeLessThan(200);
    expect(cli.err[0]).not.toMatch(/\.\.$/);
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
  });

  it('reads the trajectory --trajectory names (from 1) in inspect, compact and report, saying which of how many', async () => {
    const file = join(FIXTURES as string, 'tau-bench/avaljotsingh-retail-assertions-agent-10tasks.json');
    const first = captureIO();
    expect(await runCli(['inspect', file], first.io, noRun)).toBe(0);
    expect(first.out.join('\n')).toContain(
      'read as tau-bench results (trajectory 1 of 10, task_id 80; --trajectory N reads another)',
    );
    const third = captureIO();
    expect(await runCli(['inspect', file, '--trajectory', '3'], third.io, noRun)).toBe(0);
    expect(third.out.join('\n')).toContain('read as tau-bench results (trajectory 3 of 10, task_id 82)');
    expect(third.out[0]).toMatch(/: 17 messages,/);
    const dir = await mkdtemp(join(tmpdir(), 'lousho-logs-'));
    const compacted = captureIO();
    const out = join(dir, 'three.json');
    expect(await runCli(['compact', file, '--trajectory', '3', '--out', out], compacted.io, noRun)).toBe(0);
    expect((await readTranscriptFile(out)).messages).toHaveLength(17);
    const page = captureIO();
    expect(await runCli(['report', file, '--trajectory', '10', '--out', join(dir, 'ten.html')], page.io, noRun)).toBe(
      0,
    );
    expect(page.out.join('\n')).toContain('read as tau-bench results (trajectory 10 of 10, task_id 89)');
    for (const [args, says] of [
      [['--trajectory', '11'], 'holds 10 trajectories; give a number from 1 to 10, not 11.'],
      [['--trajectory', '0'], '--trajectory must be a number from 1'],
    ] as const) {
      const bad = captureIO();
      expect(await runCli(['inspect', file, ...args], bad.io, noRun)).toBe(2);
      expect(bad.err[0]).toContain(says);
    }
    const one = captureIO();
    const traj = join(FIXTURES as string, 'swe-agent/sweagent-gpt4-test-repo-i1.traj');
    expect(await runCli(['compact', traj, '--trajectory', '2'], one.io, noRun)).toBe(2);
    expect(one.err[0]).toContain('holds one trajectory (SWE-agent trajectory); drop --trajectory.');
  });

  it('compacts a Claude Code session into the format it names, and refuses to write it over the log', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-logs-'));
    const file = join(FIXTURES as string, 'claude-code/spotter-create-beads-opus46.jsonl');
    const out = join(dir, 'compacted.json');
    const cli = captureIO();
    expect(await runCli(['compact', file, '--out', out, '--protected-tokens', '2000'], cli.io, noRun)).toBe(0);
    expect(cli.err).toContain(
      'read as Claude Code session JSONL, which lousho does not write back; written as Anthropic messages',
    );
    const again = await readTranscriptFile(out);
    expect(again.source.format).toBe('anthropic');
    expect(again.messages).toHaveLength(32);
    const copy = join(dir, 'session.jsonl');
    await writeFile(copy, await readFile(file));
    const over = captureIO();
    expect(await runCli(['compact', copy, '--out', copy, '--overwrite'], over.io, noRun)).toBe(2);
    expect((await readFile(copy)).equals(await readFile(file))).toBe(true);
  });
});
