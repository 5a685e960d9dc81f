import { describe, expect, it } from 'vitest';
import { fromClaudeCode } from './from-claude-code.js';
import { fromCodexRollout } from './from-codex-rollout.js';

const cc = (type: 'user' | 'assistant', message: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  sessionId: 's',
  isSidechain: false,
  type,
  message: { role: type, ...message },
  ...extra,
});

describe('fromClaudeCode()', () => {
  it('joins a reply logged one block per record, leaves subagent records out, and reads only what follows the last compact_boundary', () => {
    const records = [
      cc('user', { content: 'Old question.' }),
      cc('assistant', { id: 'm0', content: [{ type: 'text', text: 'Old answer.' }] }),
      { type: 'system', subtype: 'compact_boundary', sessionId: 's' },
      cc('user', { content: 'Summary of the conversation so far.' }, { isCompactSummary: true }),
      cc('assistant', { id: 'm1', content: [{ type: 'thinking', thinking: 'Use Task.', signature: 'sig' }] }),
      cc('assistant', { id: 'm1', content: [{ type: 'tool_use', id: 't1', name: 'Task', input: { prompt: 'go' } }] }),
      cc('user', { content: 'Subagent prompt.' }, { isSidechain: true }),
      cc('assistant', { id: 'm9', content: [{ type: 'text', text: 'Subagent work.' }] }, { isSidechain: true }),
      cc('user', { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Subagent answer.' }] }),
      { type: 'summary', summary: 'A title', leafUuid: 'u' },
    ];
    const { messages } = fromClaudeCode(records);
    expect(messages).toEqual([
      { role: 'user', content: 'Summary of the conversation so far.' },
      {
        role: 'assistant',
        content: [{ type: 'reasoning', text: 'Use Task.', signature: 'sig', provider: 'anthropic' }],
        toolCalls: [{ id: 't1', name: 'Task', arguments: { prompt: 'go' } }],
      },
      { role: 'tool', toolCallId: 't1', content: 'Subagent answer.' },
    ]);
  });
});

const codex = (type: string, payload: Record<string, unknown>) => ({ timestamp: 't', type, payload });

describe('fromCodexRollout()', () => {
  it('reads custom tool calls as calls with text arguments, and a compacted history in place of what came before', () => {
    const records = [
      codex('session_meta', { id: 'x', base_instructions: { text: 'You are Codex.' } }),
      codex('turn_context', { model: 'gpt-5.1-codex' }),
      codex('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Old.' }] }),
      codex('compacted', {
        message: '',
        replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Summary.' }] }],
      }),
      codex('turn_context', { model: 'gpt-5.5' }),
      codex('response_item', {
        type: 'custom_tool_call',
        call_id: 'p1',
        name: 'apply_patch',
        input: '*** Begin Patch',
      }),
      codex('event_msg', { type: 'patch_apply_end', call_id: 'p1' }),
      codex('response_item', { type: 'custom_tool_call_output', call_id: 'p1', output: 'Done.' }),
      codex('event_msg', {
        type: 'token_count',
        info: { last_token_usage: { input_tokens: 900, cached_input_tokens: 800, output_tokens: 30 } },
      }),
    ];
    const { messages, model, reported } = fromCodexRollout(records);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(messages[1]).toMatchObject({ content: [{ type: 'text', text: 'Summary.' }] });
    expect(messages[2]).toMatchObject({ toolCalls: [{ id: 'p1', name: 'apply_patch', arguments: '*** Begin Patch' }] });
    expect(model).toBe('gpt-5.5');
    expect(reported).toEqual({ inputTokens: 900, cacheReadTokens: 800, outputTokens: 30 });
  });
});
