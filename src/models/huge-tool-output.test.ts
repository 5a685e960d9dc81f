import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { tool } from '../executor/tool.js';
import { contentText } from '../messages/content.js';
import { randomCjk, randomEmoji } from '../test-support/adversarial-text.js';
import { mockModel } from '../testing/mock-model.js';

/** An agent with compaction on whose one tool returns `output`, scripted to call it once and then answer. */
async function runWithToolOutput(output: string) {
  const read = tool({
    name: 'read_file',
    description: 'Read a file',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    execute: () => output,
  });
  const model = mockModel([{ toolCalls: [{ name: 'read_file' }] }, 'Read it.'], { contextWindow: 128_000 });
  const agent = createAgent({ provider: model, tools: [read], compaction: true });
  const result = await agent.send('Read the file.');
  model.assertAllUsed();
  return result;
}

/** 12 to 20 MB of text through the estimator and compaction: seconds of CPU alone, several times that on a loaded machine. */
const HUGE = { timeout: 180_000 };

describe('a run whose tool returns one huge run of text without a break', () => {
  it('finishes when the tool returns 4M CJK characters (12 MB)', HUGE, async () => {
    const result = await runWithToolOutput(randomCjk(4 * 2 ** 20, 1));
    expect(result.text).toBe('Read it.');
    expect(result.finishReason).toBe('stop');
  });

  it('finishes when the tool returns 10M UTF-16 units of emoji', HUGE, async () => {
    const result = await runWithToolOutput(randomEmoji(10_000_000, 2));
    expect(result.text).toBe('Read it.');
    // The output was far over the window: compaction pruned it from the transcript, the run went on.
    const tool = result.messages.find((m) => m.role === 'tool');
    expect(contentText(tool?.content ?? '').length).toBeLessThan(10_000_000);
  });
});
