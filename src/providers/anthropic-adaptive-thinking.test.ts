/**
 * Reasoning each Claude model accepts, through the Anthropic provider on loopback: adaptive
 * thinking with output_config.effort where the model takes it, budget_tokens only where it is
 * accepted (a request Anthropic documents as a 400 is refused before it is sent, saying what
 * to use), and the interleaved-thinking beta where a budget meets tools on a Claude 4 model.
 * The rules are Anthropic's adaptive-thinking and effort pages (cited in anthropic-thinking.ts);
 * the replies are documented Messages API replies.
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { ReasoningOptions } from '../contracts/model-request.js';
import { rejection } from '../test-support/errors.js';
import { type LoopbackServer, sendJson } from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { readFileTool } from '../test-support/tool-loop-chat.js';
import { createAnthropic } from './anthropic.js';

const serve = useLoopbackServers();

const reply = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-opus-4-7',
  content: [{ type: 'text', text: 'ok' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 2 },
};

async function ask(model: string, reasoning: ReasoningOptions, withTools = false) {
  const server = await serve((_request, response) => sendJson(response, 200, { ...reply, model }));
  const agent = createAgent({
    provider: createAnthropic({ baseURL: server.url, apiKey: 'x' })(model),
    reasoning,
    ...(withTools ? { tools: [readFileTool(10)] } : {}),
  });
  return { server, result: agent.send('Hi') };
}

const body = (server: LoopbackServer) =>
  server.requests[0]?.body as { thinking?: unknown; output_config?: unknown; max_tokens: number };

describe('Claude thinking as each model takes it', () => {
  it.each([
    ['claude-opus-4-7', 'medium', 'medium'],
    ['claude-opus-4-6', 'high', 'high'],
    ['claude-sonnet-4-6', 'xhigh', 'max'],
    ['claude-sonnet-5', 'xhigh', 'xhigh'],
    ['claude-fable-5-1', 'minimal', 'low'],
  ] as const)('%s: effort %s goes as adaptive thinking with output_config.effort %s', async (model, effort, sent) => {
    const { server, result } = await ask(model, { effort });
    await result;
    expect(body(server).thinking).toEqual({ type: 'adaptive' });
    expect(body(server).output_config).toEqual({ effort: sent });
    expect(body(server).max_tokens).toBe(4_096);
  });

  it('refuses budgetTokens on a model that thinks only adaptively, naming effort, and sends nothing', async () => {
    const { server, result } = await ask('claude-opus-4-7', { budgetTokens: 4_096 });
    const error = await rejection(result);
    expect(error).toMatchObject({ code: 'LOUSHO_CONFIG_INVALID' });
    expect(error.message).toContain('takes only adaptive thinking');
    expect(error.message).toContain('reasoning: { effort:');
    expect(server.requests).toHaveLength(0);
  });

  it('gives effort before the budget to a model that takes both, and the budget to one that takes only it', async () => {
    const both = await ask('claude-opus-4-7', { effort: 'low', budgetTokens: 4_096 });
    await both.result;
    expect(body(both.server).thinking).toEqual({ type: 'adaptive' });
    const deprecated = await ask('claude-opus-4-6', { budgetTokens: 2_048 });
    await deprecated.result;
    expect(body(deprecated.server).thinking).toEqual({ type: 'enabled', budget_tokens: 2_048 });
    const older = await ask('claude-sonnet-4-5', { effort: 'high', budgetTokens: 2_048 });
    await older.result;
    expect(body(older.server).thinking).toEqual({ type: 'enabled', budget_tokens: 2_048 });
    expect(body(older.server).output_config).toBeUndefined();
  });

  it('sends the effort alone to Opus 4.5 (no adaptive thinking) and nothing for an effort Sonnet 4.5 does not take', async () => {
    const opus = await ask('claude-opus-4-5', { effort: 'xhigh' });
    await opus.result;
    expect(body(opus.server).thinking).toBeUndefined();
    expect(body(opus.server).output_config).toEqual({ effort: 'high' });
    const sonnet = await ask('claude-sonnet-4-5', { effort: 'medium' });
    await sonnet.result;
    expect(body(sonnet.server).thinking).toBeUndefined();
    expect(body(sonnet.server).output_config).toBeUndefined();
  });

  it("turns thinking off for effort 'none' where it can be, and refuses it where the model always thinks", async () => {
    const off = await ask('claude-opus-4-6', { effort: 'none' });
    await off.result;
    expect(body(off.server).thinking).toEqual({ type: 'disabled' });
    const always = await ask('claude-fable-5', { effort: 'none' });
    const error = await rejection(always.result);
    expect(error).toMatchObject({ code: 'LOUSHO_CONFIG_INVALID' });
    expect(error.message).toContain("effort: 'low'");
    expect(always.server.requests).toHaveLength(0);
  });

  it('asks for interleaved thinking where a budget meets tools on a Claude 4 model, and only there', async () => {
    const beta = (server: LoopbackServer) => String(server.requests[0]?.headers['anthropic-beta'] ?? '');
    const claude4 = await ask('claude-sonnet-4-5', { budgetTokens: 2_048 }, true);
    await claude4.result;
    expect(beta(claude4.server)).toContain('interleaved-thinking-2025-05-14');
    const noTools = await ask('claude-sonnet-4-5', { budgetTokens: 2_048 });
    await noTools.result;
    expect(beta(noTools.server)).not.toContain('interleaved-thinking');
    const adaptive = await ask('claude-opus-4-7', { effort: 'high' }, true);
    await adaptive.result;
    expect(beta(adaptive.server)).not.toContain('interleaved-thinking');
  });
});
