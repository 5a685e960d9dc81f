import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { thrown } from '../test-support/errors.js';
import { mockModel } from '../testing/mock-model.js';

/* createAgent({ mcpServers }) refuses an entry it cannot use, at createAgent(), naming the field. */

const refusal = (entry: object) =>
  thrown(() =>
    createAgent({ provider: mockModel([]), mcpServers: [{ name: 's', command: 'node', ...entry } as never] }),
  );

describe('mcpServers entries', () => {
  it.each([
    [{ timeoutMs: 0 }, /timeoutMs must be a whole number >= 1/],
    [{ maxMessageBytes: 1.5 }, /maxMessageBytes must be a whole number/],
    [{ roots: [{ uri: '/srv' }] }, /roots must be an array of \{ uri: 'file:\/\/\/\.\.\.', name\? \}/],
    [{ sampling: { model: 'openai/gpt-4o' } }, /sampling\.approve must be a function .* approve: \(\) => true/],
    [{ onElicitation: 'yes' }, /onElicitation must be a function/],
    [{ toolFilter: { allow: 'echo' } }, /toolFilter\.allow must be an array of tool names/],
    [{ toolFilter: { only: ['echo'] } }, /unknown option 'only'/],
    [{ transport: 'sse' }, /unknown option 'transport'/],
  ])('%o is refused', (entry, message) => {
    const error = refusal(entry);
    expect(error.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(error.message).toMatch(message);
  });

  it("takes an HTTP entry's transport 'sse' and refuses another", () => {
    const make = (transport: string) =>
      createAgent({
        provider: mockModel([]),
        mcpServers: [{ name: 'h', url: 'http://127.0.0.1:9/sse', transport } as never],
      });
    expect(() => make('sse')).not.toThrow();
    expect(thrown(() => make('websocket')).message).toMatch(
      /transport must be 'streamable-http' or 'sse', got "websocket"/,
    );
  });
});
