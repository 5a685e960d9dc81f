import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentConfig } from '../agent/agent-types.js';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { AgentHook } from '../contracts/agent-hook.js';
import { mockModel } from '../testing/mock-model.js';
import { onAgentEvent } from './agent-events.js';

// A hook's own event, declared as users declare theirs (the package's index re-exports this interface).
declare module '../contracts/agent-event.js' {
  interface AgentEventMap {
    'audit.logged': { type: 'audit.logged'; runId: string; messages: number };
  }
}

/** A hook that reports its own event through ctx.emit when the run has listeners. */
const audit: AgentHook = {
  name: 'audit',
  preGenerate: (ctx) => {
    ctx.emit?.({ type: 'audit.logged', runId: ctx.run.runId, messages: ctx.request.messages.length });
  },
};

const offs: (() => void)[] = [];
afterEach(() => {
  for (const off of offs.splice(0)) off();
  vi.restoreAllMocks();
});

describe('onAgentEvent()', () => {
  it('hears every run of the process, send() without onEvent included, until removed', async () => {
    const heard: AgentEvent['type'][] = [];
    const off = onAgentEvent((event) => heard.push(event.type));
    offs.push(off);
    const agent = createAgent({ provider: mockModel(['one', 'two']) });
    await agent.send('hi');
    expect(heard).toEqual(['run.start', 'step.start', 'text.delta', 'step.done', 'run.done']);
    off();
    await agent.send('again');
    expect(heard).toHaveLength(5);
  });

  it("gives hooks ctx.emit, and a hook's own event type-checks and reaches the listeners", async () => {
    const logged: number[] = [];
    offs.push(
      onAgentEvent((event) => {
        if (event.type === 'audit.logged') logged.push(event.messages);
      }),
    );
    await createAgent({ provider: mockModel(['ok']), hooks: [audit], instructions: 'Be brief.' }).send('hi');
    expect(logged).toEqual([2]);
  });

  it('keeps a run going when a listener throws', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    offs.push(
      onAgentEvent(() => {
        throw new Error('listener bug');
      }),
    );
    expect((await createAgent({ provider: mockModel(['fine']) }).send('hi')).text).toBe('fine');
    expect(errors).toHaveBeenCalled();
  });

  it('rejects a listener that is not a function with LOUSHO_CONFIG_INVALID', () => {
    expect(() => onAgentEvent('nope' as never)).toThrow(expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }));
  });
});

describe('AgentConfig', () => {
  it('is what createAgent() takes, summarizer included', async () => {
    const summarizer = mockModel(() => 'Summary.', { modelId: 'cheap' });
    const config: AgentConfig = { provider: mockModel(['ok']), summarizer };
    const agent = createAgent(config);
    expect(agent.hooks.has('compaction')).toBe(true);
    expect((await agent.send('hi')).text).toBe('ok');
  });
});
