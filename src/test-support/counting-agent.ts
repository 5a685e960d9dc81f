import { createAgent } from '../agent/create-agent.js';
import { tool } from '../executor/tool.js';
import { MemorySessionStore, type SessionStore } from '../sessions/store.js';
import { mockModel } from '../testing/mock-model.js';

/**
 * An agent for session-turn tests, and a store (`store`, else a new MemorySessionStore): each
 * turn calls `work` once (or `deploy`, which needs approval, when the input starts with
 * "deploy"), then answers "did <input>". `runs` lists every tool run, so a test can count them.
 */
export function countingAgent<S extends SessionStore = MemorySessionStore>(given?: S) {
  const runs: string[] = [];
  const params = { type: 'object', properties: {} } as const;
  const agent = createAgent({
    provider: mockModel((request) => {
      const input = String(request.messages.findLast((m) => m.role === 'user')?.content ?? '');
      if (request.messages.at(-1)?.role === 'tool') return `did ${input}`;
      const name = input.startsWith('deploy') ? 'deploy' : 'work';
      return { toolCalls: [{ id: `c${request.messages.length}`, name, arguments: {} }] };
    }),
    tools: [
      tool({ name: 'work', parameters: params, execute: () => runs.push('work') && 'ok' }),
      tool({ name: 'deploy', parameters: params, needsApproval: true, execute: () => runs.push('deploy') && 'ok' }),
    ],
  });
  const store = (given ?? new MemorySessionStore()) as S;
  return { agent, runs, store, open: (id = 's') => agent.session({ id, store }) };
}
