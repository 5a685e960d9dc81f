import { describe, expect, it } from 'vitest';
import type { AgentHook } from '../contracts/agent-hook.js';
import type { Message } from '../messages/types.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { mockModel } from '../testing/mock-model.js';
import { AgentExecutor } from './agent-executor.js';
import { HookRegistry } from './hook-registry.js';

describe("a hook of yours that replaces an old message of the run's transcript", () => {
  it('has it counted at once by the run budget, though the counter compares only a few old messages when nothing is noted', async () => {
    const history = readingTranscript(300, 400);
    const measured: { budget: number; exact: number }[] = [];
    const replacer: AgentHook = {
      name: 'replacer',
      preGenerate({ request }) {
        // An old message, far from the newest 16, replaced by a much larger one: the transcript's length does not change.
        const at = 7;
        const old = request.messages[at] as Message;
        request.messages[at] = { ...old, content: `${'a much longer text '.repeat(400)}${measured.length}` } as Message;
      },
    };
    const measurer: AgentHook = {
      name: 'measurer',
      preGenerate({ request, run }) {
        measured.push({ budget: run.budget.measure(request) - run.budget.calibration, exact: estimateTokens(request) });
      },
    };
    // A first hook counts the transcript before the replacer runs, so the measurer's count is the counter's second.
    const first: AgentHook = { name: 'first', preGenerate: ({ request, run }) => void run.budget.measure(request) };
    await AgentExecutor.execute({
      agent: {},
      input: history,
      provider: mockModel(['one', 'two']),
      hooks: new HookRegistry([first, replacer, measurer]),
    });
    expect(measured.length).toBe(1);
    expect(measured[0]?.budget).toBe(measured[0]?.exact);
  });
});
