import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/commands.js';
import { readTranscriptFile } from '../cli/transcript-file.js';
import { compactMessages } from '../compaction/compact-messages.js';
import { pairingProblem } from '../messages/validate.js';
import { captureIO, noRun } from '../test-support/cli.js';
import { fromClineTask, isClineTask } from './from-cline.js';

const env = { type: 'text', text: '<environment_details>\n# Current Mode\nACT MODE\n</environment_details>' };
const file = (lines: number) => Array.from({ length: lines }, (_, i) => `${i + 1} | const line${i} = ${i};`).join('\n');

// Cline 3.x with native tool calls, as in mike4567/MRA04242026 api_conversation_history.json
// (commit 7644913): tool_use blocks with a call_id, and the results as text blocks of the next
// user turn, one per call in order ("[read_file for '...'] Result:\n..."), then reminders and
// the environment details; modelInfo and metrics.tokens on each assistant message.
const NATIVE = [
  { role: 'user', content: [{ type: 'text', text: '<task>\nFind the GCP references.\n</task>' }, env], ts: 1 },
  {
    role: 'assistant',
    content: [
      {
        type: 'tool_use',
        id: 'tooluse_A',
        name: 'read_file',
        input: { path: 'src/lib/firebase.ts' },
        call_id: 'tooluse_A',
      },
      { type: 'tool_use', id: 'tooluse_B', name: 'list_files', input: { path: 'src/ai' }, call_id: 'tooluse_B' },
    ],
    modelInfo: { modelId: 'claude_4_5_opus', providerId: 'openai', mode: 'plan' },
    metrics: { tokens: { prompt: 13115, completion: 224, cached: 12000 } },
    ts: 2,
  },
  {
    role: 'user',
    content: [
      { type: 'text', text: `[read_file for 'src/lib/firebase.ts'] Result:\n${file(400)}` },
      { type: 'text', text: "[list_files for 'src/ai'] Result:\ndev.ts\ngenkit.ts" },
      { type: 'text', text: '# TODO LIST UPDATE REQUIRED - include the task_progress parameter.' },
      env,
    ],
    ts: 3,
  },
  { role: 'assistant', content: [{ type: 'text', text: 'firebase.ts names the bucket mra-media.' }], ts: 4 },
  { role: 'user', content: [{ type: 'text', text: 'Thanks.' }], ts: 5 },
];

// The first protocol of Cline and Roo Code: the call is XML in the model's text, and the result a
// header block "[tool for '...'] Result:" followed by the output as its own block (cline/cline
// src/core/Cline.ts: toolDescription() and pushToolResult); after a rejection, "Skipping tool [...]".
const XML = [
  { role: 'user', content: [{ type: 'text', text: '<task>\nRun the tests.\n</task>' }, env] },
  {
    role: 'assistant',
    content: [
      {
        type: 'text',
        text: '<thinking>Run them.</thinking>\n<execute_command>\n<command>npm test</command>\n<requires_approval>false</requires_approval>\n</execute_command>\n<attempt_completion>\n<result>Done</result>\n</attempt_completion>',
      },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'text', text: "[execute_command for 'npm test'] Result:" },
      { type: 'text', text: 'The user denied this operation.' },
      { type: 'text', text: 'Skipping tool [attempt_completion] due to user rejecting a previous tool.' },
      env,
    ],
  },
  { role: 'assistant', content: 'I will wait for your go-ahead.' },
];

describe('Cline and Roo Code task histories', () => {
  it('reads each text-block result as the tool result of the call it answers, in order', () => {
    expect(isClineTask(NATIVE)).toBe(true);
    const { messages, model, reported } = fromClineTask(NATIVE);
    expect(pairingProblem(messages)).toBeUndefined();
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user', 'assistant', 'user']);
    expect(messages.slice(2, 4).map((m) => (m.role === 'tool' ? m.toolCallId : ''))).toEqual([
      'tooluse_A',
      'tooluse_B',
    ]);
    expect(messages[3]).toMatchObject({
      content: [{ type: 'text', text: "[list_files for 'src/ai'] Result:\ndev.ts\ngenkit.ts" }],
    });
    // The reminder and the environment details stay the user's text.
    expect(messages[4]).toMatchObject({ role: 'user', content: [{ text: expect.stringMatching(/^# TODO/) }, env] });
    expect(model).toBe('claude_4_5_opus');
    expect(reported).toEqual({ inputTokens: 13115, outputTokens: 224 });
    expect(messages[1]?.metadata?.reportedUsage).toEqual(reported);
  });

  it('so compactMessages() prunes those results', async () => {
    const { messages } = fromClineTask(NATIVE);
    const { prunedToolCallIds, tokensAfter, tokensBefore } = await compactMessages(messages, { protectedTokens: 0 });
    expect(prunedToolCallIds).toContain('tooluse_A');
    expect(tokensAfter).toBeLessThan(tokensBefore / 2);
  });

  it('gives an XML call of the first protocol a tool call, its arguments read from the XML, and its output block to the result', () => {
    const { messages } = fromClineTask(XML);
    expect(pairingProblem(messages)).toBeUndefined();
    const reply = messages[1];
    expect(reply?.role === 'assistant' && reply.toolCalls).toEqual([
      {
        id: 'execute_command_1_0',
        name: 'execute_command',
        arguments: { command: 'npm test', requires_approval: 'false' },
      },
      { id: 'attempt_completion_1_1', name: 'attempt_completion', arguments: { result: 'Done' } },
    ]);
    expect(messages[2]).toMatchObject({
      role: 'tool',
      content: [{ text: "[execute_command for 'npm test'] Result:" }, { text: 'The user denied this operation.' }],
    });
    expect(messages[3]).toMatchObject({ role: 'tool', isError: true, toolCallId: 'attempt_completion_1_1' });
    expect(messages[4]).toEqual({ role: 'user', content: [env] });
  });

  it('reads a task file from the CLI, which no longer refuses it, and a Roo Code native history as Anthropic messages', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-cline-'));
    const path = join(dir, 'api_conversation_history.json');
    await writeFile(path, JSON.stringify(NATIVE));
    const read = await readTranscriptFile(path);
    expect(read.source.log).toBe('Cline or Roo Code task history');
    expect(read.messages).toHaveLength(7);
    // Roo Code with native tools writes tool_result blocks itself (YuhangTsim/public_note
    // roocode_learning/05_dual_history.md): a plain Anthropic history, read as one.
    const roo = join(dir, 'roo.json');
    await writeFile(
      roo,
      JSON.stringify([
        { role: 'user', content: [{ type: 'text', text: 'Add error handling to auth.ts' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_abc123', name: 'read_file', input: { path: 'src/auth.ts' } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_abc123', content: 'export async function login() {}' }],
        },
      ]),
    );
    const rooRead = await readTranscriptFile(roo);
    expect(rooRead.source.format).toBe('anthropic');
    expect(rooRead.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });
});

/*
 * How Cline fills `metrics.tokens` (cline/cline): its Task writes `{ prompt: inputTokens,
 * completion: outputTokens, cached: cacheWriteTokens + cacheReadTokens }` of the request's usage
 * chunks (cline/cline src/shared/messages/atif-converter.ts, commit 33e6aed, sums the same two
 * as `cachedTokens`), and what `inputTokens` holds is the provider handler's: the Anthropic one
 * yields `usage.input_tokens`, which leaves out the cache reads and writes it yields apart
 * (src/core/api/providers/anthropic.ts, commit 0162b82); the OpenRouter and Cline ones
 * `prompt_tokens - cached_tokens` (openrouter.ts, commit 0f89a19; cline.ts, commit 0162b82);
 * the OpenAI-compatible one `prompt_tokens`, which holds the cached ones (openai.ts, commit 0162b82).
 */

/**
 * A Cline 3.x task on the Anthropic provider, modelled on gmfstu/Online-Card-Architecture
 * exported_conversation_1769053680585/api_conversation_history.json (commit 2e6753c): its first
 * four replies, each a thinking block and one read_file call, with the modelInfo and the
 * metrics.tokens that file records (prompt 10 each: the cache held the rest).
 */
const reply = (id: string, path: string, tokens: Record<string, number>) => ({
  role: 'assistant',
  content: [
    { type: 'thinking', thinking: `Now read ${path}.`, signature: 'Er0FCkYICxgCKkAF', summary: [] },
    { type: 'tool_use', id, name: 'read_file', input: { path }, reasoning_details: [] },
  ],
  modelInfo: { modelId: 'claude-sonnet-4-5-20250929', providerId: 'anthropic', mode: 'act' },
  metrics: { tokens },
});
const result = (path: string, body: string) => ({
  role: 'user',
  content: [{ type: 'text', text: `[read_file for '${path}'] Result:\n${body}` }, env],
});
const ANTHROPIC_TASK = [
  {
    role: 'user',
    content: [
      { type: 'text', text: '<task>\nSecure the multiplayer card game and add the missing game actions.\n</task>' },
      env,
    ],
  },
  reply('toolu_01', 'ActionSystem.cs', { prompt: 10, completion: 595, cached: 9573 }),
  result('ActionSystem.cs', 'public class ActionSystem : Singleton<ActionSystem> {\n'.repeat(40)),
  reply('toolu_02', 'GameAction.cs', { prompt: 10, completion: 200, cached: 12085 }),
  result('GameAction.cs', 'public abstract class GameAction { }\n'),
  reply('toolu_03', 'DrawCardGA.cs', { prompt: 10, completion: 109, cached: 12370 }),
  result('DrawCardGA.cs', 'public class DrawCardGA : GameAction { }\n'),
  reply('toolu_04', 'DrawCardSystem.cs', { prompt: 10, completion: 82, cached: 12661 }),
  result('DrawCardSystem.cs', 'public class DrawCardSystem : MonoBehaviour { }\n'),
];

describe("Cline's metrics.tokens as the provider handler filled them", () => {
  it('adds the cached tokens to prompt on the Anthropic provider, whose prompt is input_tokens without the cache', () => {
    const { messages, reported } = fromClineTask(ANTHROPIC_TASK);
    const inputs = messages.filter((m) => m.role === 'assistant').map((m) => m.metadata?.reportedUsage);
    expect(inputs.map((u) => (u as { inputTokens: number }).inputTokens)).toEqual([9583, 12095, 12380, 12671]);
    // `cached` is the cache reads and writes together, which Cline does not tell apart.
    expect(reported).toEqual({ inputTokens: 12671, outputTokens: 82 });
  });

  it('keeps prompt as the whole input on an OpenAI-compatible provider, and adds where cached cannot be part of it', () => {
    expect(fromClineTask(NATIVE).reported).toEqual({ inputTokens: 13115, outputTokens: 224 });
    const unknown = ANTHROPIC_TASK.map((m) =>
      'modelInfo' in m ? { ...m, modelInfo: { ...m.modelInfo, providerId: 'vertex' } } : m,
    );
    expect(fromClineTask(unknown).reported).toEqual({ inputTokens: 12671, outputTokens: 82 });
  });

  it('so inspect no longer says the provider reported 10 input tokens for a request of thousands', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'lousho-cline-')), 'api_conversation_history.json');
    await writeFile(path, JSON.stringify(ANTHROPIC_TASK));
    const { out, io } = captureIO();
    expect(await runCli(['inspect', path], io, noRun)).toBe(0);
    const text = out.join('\n');
    expect(text).not.toMatch(/reported 10 input tokens/);
    expect(text).toMatch(/the provider reported 12,671 input tokens for the request that produced messages\[10\]/);
  });
});
