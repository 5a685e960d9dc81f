/**
 * The main example: builds a real tool-heavy transcript (the file tools reading this
 * project's own source, driven by a scripted model) and compacts it, printing the token
 * counts before and after and the pruned calls.
 *
 *   npm start [-- <folder>]
 */
import { resolve } from 'node:path';
import { compactMessages } from '../compaction/compact-messages.js';
import { fileTools, listTree } from '../executor/file-tools.js';
import type { Message } from '../messages/types.js';
import type { ToolDefinition } from '../providers/types.js';
import { mockModel } from '../testing/mock-model.js';
import { explorerScript } from './explorer-script.js';

const MODEL = 'gpt-4o';

async function main(): Promise<void> {
  const root = resolve(process.argv[2] ?? '.');
  const tools = fileTools({ root });
  const definitions: ToolDefinition[] = tools.map(({ name, description, parameters }) => ({
    name,
    ...(description === undefined ? {} : { description }),
    parameters: parameters as ToolDefinition['parameters'],
  }));
  console.log('No model is configured for this example: a scripted model (mockModel) drives real file tools.');
  console.log(`Reading ${root}\n`);
  const model = mockModel(explorerScript(await listTree(root)), { modelId: MODEL });
  const messages: Message[] = [
    { role: 'system', content: 'You are a code reviewer. Use the tools to read the project.' },
    { role: 'user', content: 'Read the project and tell me what it does.' },
  ];
  for (let step = 0; step < 500; step++) {
    const reply = await model.generate({ model: MODEL, messages, tools: definitions });
    messages.push({ role: 'assistant', content: reply.text, toolCalls: reply.toolCalls });
    if (reply.toolCalls.length === 0) break;
    const results = await Promise.all(
      reply.toolCalls.map(async (call) => {
        const tool = tools.find((t) => t.name === call.name);
        try {
          if (tool === undefined) throw new Error(`No tool named ${call.name}.`);
          return {
            text: await tool.execute(call.arguments as Record<string, unknown>, { toolCallId: call.id }),
            isError: false,
          };
        } catch (error) {
          return { text: `Error: ${(error as Error).message}`, isError: true };
        }
      }),
    );
    reply.toolCalls.forEach((call, i) => {
      const result = results[i] ?? { text: '', isError: true };
      messages.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: result.text,
        isError: result.isError,
      });
    });
  }
  const calls = messages.filter((m) => m.role === 'tool').length;
  console.log(`Transcript: ${messages.length} messages, ${calls} tool results.`);
  const result = await compactMessages(messages, { model: MODEL, protectedTokens: 4_000 });
  console.log(`Compacted with ${result.strategy}: ${result.tokensBefore} -> ${result.tokensAfter} tokens`);
  console.log(`Pruned ${result.prunedToolCallIds.length} tool results:`);
  const pruned = new Set(result.prunedToolCallIds);
  for (const m of result.messages) {
    if (m.role === 'tool' && pruned.has(m.toolCallId)) console.log(`  ${String(m.content)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
