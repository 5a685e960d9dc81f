import { describe, expect, it } from 'vitest';
import { tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';
import { mockModel } from '../testing/mock-model.js';
import { createAgent } from './create-agent.js';

describe('agent.send() on a transcript whose newest assistant turn awaits its results', () => {
  it('runs those calls first, then asks the model with their results in place', async () => {
    const runs: unknown[] = [];
    const requests: Message[][] = [];
    const model = mockModel([
      (request) => {
        requests.push(structuredClone(request.messages));
        return 'Two files.';
      },
    ]);
    const ls = tool({
      name: 'ls',
      parameters: { type: 'object' },
      execute: async (args: unknown) => {
        runs.push(args);
        return 'a.ts\nb.ts';
      },
    });
    const stopped: Message[] = [
      { role: 'user', content: 'List the files.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'ls', arguments: { dir: '.' } }] },
    ];
    const result = await createAgent({ provider: model, tools: [ls] }).send(stopped);
    expect(runs).toEqual([{ dir: '.' }]);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.slice(1)).toEqual([
      stopped[1],
      { role: 'tool', toolCallId: 'c1', toolName: 'ls', content: 'a.ts\nb.ts' },
    ]);
    expect(result.text).toBe('Two files.');
  });
});
