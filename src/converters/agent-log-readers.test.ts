import { describe, expect, it } from 'vitest';
import { compactMessages } from '../compaction/compact-messages.js';
import { pairingProblem } from '../messages/validate.js';
import { fromAcp, isAcpStream } from './from-acp.js';
import { fromAider, isAiderHistory } from './from-aider.js';
import { fromCopilotCli, isCopilotSession } from './from-copilot-cli.js';
import { fromGeminiCli, isGeminiChat } from './from-gemini-cli.js';
import { LOG_FORMATS } from './log-formats.js';

const big = (what: string) => `${what}\n${'line of output\n'.repeat(2500)}`;

describe('Gemini CLI: the older single-JSON chat recording', () => {
  // ConversationRecord of google-gemini/gemini-cli packages/core/src/services/chatRecordingService.ts
  // (a copy of its .d.ts is in IanLuo/nix-config): { sessionId, projectHash, startTime,
  // lastUpdated, messages }, messages typed 'user' | 'gemini' with toolCalls, thoughts, tokens, model.
  const RECORD = {
    sessionId: 'f86f5318',
    projectHash: '79b6fa86',
    startTime: '2025-10-18T14:57:28.974Z',
    lastUpdated: '2025-10-18T14:58:07.161Z',
    messages: [
      { id: 'm1', timestamp: 't', type: 'user', content: 'List the files in the current directory' },
      {
        id: 'm2',
        timestamp: 't',
        type: 'gemini',
        content: '',
        thoughts: [{ subject: 'Listing', description: 'I will list them.', timestamp: 't' }],
        toolCalls: [
          {
            id: 'list_directory-1',
            name: 'list_directory',
            args: { path: '.' },
            result: [
              {
                functionResponse: { id: 'list_directory-1', name: 'list_directory', response: { output: big('a.ts') } },
              },
            ],
            status: 'success',
            timestamp: 't',
          },
        ],
        tokens: { input: 9000, output: 20, cached: 8000, thoughts: 30, tool: 0, total: 9050 },
        model: 'gemini-2.5-pro',
      },
      { id: 'm3', timestamp: 't', type: 'info', content: 'Request cancelled.' },
      { id: 'm4', timestamp: 't', type: 'gemini', content: 'There is one file, a.ts.', model: 'gemini-2.5-pro' },
      { id: 'm5', timestamp: 't', type: 'user', content: 'Thanks.' },
    ],
  };

  it('reads the calls with their results, the usage of each reply, and leaves thoughts and notes out', async () => {
    expect(isGeminiChat(RECORD)).toBe(true);
    const { messages, model, reported } = fromGeminiCli(RECORD);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(messages[1]?.metadata?.reportedUsage).toEqual({
      inputTokens: 9000,
      outputTokens: 50,
      cacheReadTokens: 8000,
      reasoningTokens: 30,
    });
    expect(model).toBe('gemini-2.5-pro');
    expect(reported).toEqual(messages[1]?.metadata?.reportedUsage); // the newest reply reports none
    const { prunedToolCallIds } = await compactMessages(messages, { protectedTokens: 0 });
    expect(prunedToolCallIds).toEqual(['list_directory-1']);
  });
});

describe('GitHub Copilot CLI: the JSON-lines event log', () => {
  // Event shapes of github/copilot-sdk nodejs/src/generated/session-events.ts (session.start,
  // user.message, assistant.message with toolRequests, tool.execution_complete with result.content
  // or error) as in the test lines of entireio/cli cmd/entire/cli/agent/copilotcli.
  const event = (type: string, data: Record<string, unknown>, id: string) => ({
    type,
    data,
    id,
    timestamp: 't',
    parentId: null,
  });
  const EVENTS = [
    event('session.start', { sessionId: 's1', copilotVersion: '0.0.407', selectedModel: 'claude-sonnet-4.5' }, '1'),
    event(
      'user.message',
      { content: 'Create hello.txt', transformedContent: '<current_datetime/>\n\nCreate hello.txt' },
      '2',
    ),
    event('assistant.turn_start', { turnId: '0' }, '3'),
    event(
      'assistant.message',
      {
        messageId: 'a1',
        content: "I'll create it.",
        toolRequests: [
          { toolCallId: 'tc1', name: 'create', arguments: { path: 'hello.txt' }, type: 'function' },
          { toolCallId: 'tc2', name: 'bash', arguments: '{"command":"ls"}', type: 'function' },
        ],
        inputTokens: 12000,
        outputTokens: 80,
        cacheReadTokens: 11000,
      },
      '4',
    ),
    event('tool.execution_start', { toolCallId: 'tc1', toolName: 'create' }, '5'),
    event(
      'tool.execution_complete',
      { toolCallId: 'tc1', success: true, result: { content: 'Created hello.txt' } },
      '6',
    ),
    event(
      'tool.execution_complete',
      { toolCallId: 'tc2', success: false, error: { message: 'ls: denied', code: 'x' } },
      '7',
    ),
    event('tool.execution_complete', { toolCallId: 'sub1', success: true, parentToolCallId: 'tc9' }, '8'),
    event('assistant.message', { messageId: 'a2', content: 'Created hello.txt.', toolRequests: [] }, '9'),
    event('assistant.turn_end', { turnId: '0' }, '10'),
  ];

  it('reads user text as sent, calls with their results, failures as errors, and the usage of the reply', () => {
    expect(isCopilotSession(EVENTS)).toBe(true);
    const { messages, model, reported } = fromCopilotCli(EVENTS);
    expect(pairingProblem(messages)).toBeUndefined();
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(messages[0]?.content).toBe('<current_datetime/>\n\nCreate hello.txt');
    expect(messages[1]).toMatchObject({
      toolCalls: [{ arguments: { path: 'hello.txt' } }, { arguments: { command: 'ls' } }],
    });
    expect(messages[3]).toMatchObject({ toolCallId: 'tc2', isError: true, content: 'ls: denied' });
    expect(model).toBe('claude-sonnet-4.5');
    expect(reported).toEqual({ inputTokens: 12000, outputTokens: 80, cacheReadTokens: 11000 });
  });
});

describe('ACP session/update streams', () => {
  // JSON-RPC notifications of the Agent Client Protocol (agentclientprotocol.com/protocol/prompt-turn
  // and /tool-calls; zed-industries/agent-client-protocol schema): agent_message_chunk,
  // agent_thought_chunk, tool_call, tool_call_update (status, content), plan.
  const update = (u: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 's', update: u },
  });
  const text = (t: string) => ({ type: 'text', text: t });
  const STREAM = [
    { jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { sessionId: 's', prompt: [text('Read the config.')] } },
    update({ sessionUpdate: 'agent_thought_chunk', content: text('The config is ') }),
    update({ sessionUpdate: 'agent_thought_chunk', content: text('in src.') }),
    update({ sessionUpdate: 'agent_message_chunk', content: text('Reading ') }),
    update({ sessionUpdate: 'agent_message_chunk', content: text('it.') }),
    update({ sessionUpdate: 'plan', entries: [{ content: 'Read', priority: 'high', status: 'pending' }] }),
    update({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'Read config.ts',
      kind: 'read',
      status: 'pending',
      rawInput: { path: 'config.ts' },
    }),
    update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress' }),
    update({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c1',
      status: 'completed',
      content: [{ type: 'content', content: text(big('export const port = 80;')) }],
    }),
    update({ sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'Run tests', kind: 'execute', status: 'pending' }),
    update({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c2',
      status: 'failed',
      content: [{ type: 'terminal', terminalId: 't1' }],
    }),
    update({ sessionUpdate: 'agent_message_chunk', content: text('The port is 80.') }),
    { jsonrpc: '2.0', id: 1, result: { stopReason: 'end_turn' } },
  ];

  it('joins chunks, pairs each call with the update that completes it, and starts a new reply after a call', async () => {
    expect(isAcpStream(STREAM)).toBe(true);
    const { messages } = fromAcp(STREAM);
    expect(pairingProblem(messages)).toBeUndefined();
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(messages[1]).toMatchObject({
      content: [
        { type: 'reasoning', text: 'The config is in src.' },
        { type: 'text', text: 'Reading it.' },
      ],
      toolCalls: [{ id: 'c1', name: 'Read config.ts', arguments: { path: 'config.ts' } }],
    });
    expect(messages[4]).toMatchObject({ toolCallId: 'c2', isError: true, content: '[terminal t1]' });
    expect(messages[5]).toEqual({ role: 'assistant', content: 'The port is 80.' });
    const { prunedToolCallIds } = await compactMessages([...messages, { role: 'user', content: 'Thanks.' }], {
      protectedTokens: 0,
    });
    expect(prunedToolCallIds).toContain('c1');
  });
});

describe('Aider chat histories', () => {
  // As aider/io.py of Aider-AI/aider writes them: "#### " before each line the user typed,
  // the reply as Markdown, "> " before aider's own output (a "Tokens: ... sent, ... received."
  // line after each reply), two spaces ending those lines.
  const HISTORY = [
    '',
    '# aider chat started at 2025-10-23 17:04:56',
    '',
    '> /home/u/.local/bin/aider --model gemini/gemini-2.5-pro  ',
    '> Main model: gemini/gemini-2.5-pro with diff-fenced edit format  ',
    '',
    '#### /add utils/file_utils.py  ',
    '> Added utils/file_utils.py to the chat  ',
    '',
    '#### Why are images counted as 256 tokens?  ',
    '#### Look at file_utils.py.  ',
    '',
    'Gemini counts each image as 258 tokens.',
    '',
    'utils/file_utils.py',
    '```python',
    'IMAGE_TOKENS = 258',
    '```',
    '',
    '> Tokens: 12k sent, 1.5k cache hit, 230 received. Cost: $0.02 message, $0.02 session.  ',
    '> Applied edit to utils/file_utils.py  ',
    '',
  ].join('\n');

  it('reads the user lines and the replies, leaves aider commands and notes out, and takes its usage line', () => {
    expect(isAiderHistory(HISTORY)).toBe(true);
    const { messages, model, reported, detail } = fromAider(HISTORY);
    expect(messages).toEqual([
      { role: 'user', content: 'Why are images counted as 256 tokens?\nLook at file_utils.py.' },
      {
        role: 'assistant',
        content: 'Gemini counts each image as 258 tokens.\n\nutils/file_utils.py\n```python\nIMAGE_TOKENS = 258\n```',
        metadata: { reportedUsage: { inputTokens: 12000, cacheReadTokens: 1500, outputTokens: 230 } },
      },
    ]);
    expect(model).toBe('gemini/gemini-2.5-pro');
    expect(reported).toEqual({ inputTokens: 12000, cacheReadTokens: 1500, outputTokens: 230 });
    expect(detail).toBe("aider's own commands left out: /add");
  });
});

describe('the Claude Code web export', () => {
  // The export of a Claude Code web session, as the issue reports it: { loglines: [...] }, whose
  // items are the records a local session's JSONL holds (no public file of it was found).
  it('is recognised and read as the session records its loglines are', () => {
    const web = LOG_FORMATS.find((f) => f.id === 'claude-code-web');
    const data = {
      loglines: [
        { sessionId: 'w', uuid: 'a', type: 'user', message: { role: 'user', content: 'Hi.' } },
        {
          sessionId: 'w',
          uuid: 'b',
          type: 'assistant',
          message: {
            id: 'm',
            role: 'assistant',
            model: 'claude-opus-4-6',
            content: [{ type: 'text', text: 'Hello.' }],
          },
        },
      ],
    };
    expect(LOG_FORMATS.find((f) => f.input !== 'text' && f.detect(data))?.id).toBe('claude-code-web');
    expect(web?.read(data, {}).messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
