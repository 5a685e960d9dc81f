import type { Tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';
import { prose } from './text.js';

/** A tool turn: one assistant message calling `name` and its result. */
export function toolTurn(id: string, name: string, args: unknown, result: string): Message[] {
  return [
    { role: 'assistant', content: '', toolCalls: [{ id, name, arguments: args }] },
    { role: 'tool', toolCallId: id, content: result },
  ];
}

/** system, user, then `turns` tool turns reading files with `size`-char results. */
export function readingTranscript(turns: number, size = 2_000): Message[] {
  const messages: Message[] = [
    { role: 'system', content: 'You are a careful code reviewer.' },
    { role: 'user', content: 'Review the repository.' },
  ];
  for (let i = 0; i < turns; i++) {
    messages.push(
      ...toolTurn(
        `call_${i}`,
        'read_file',
        { path: `src/file${i}.ts` },
        `// file ${i}\n${'x = 1;\n'.repeat(size / 7)}`,
      ),
    );
  }
  return messages;
}

/** A `read` tool whose result for a path is `chars` characters of prose (seeded by the path). */
export function proseReadTool(chars: number): Tool<never, unknown> {
  return {
    name: 'read',
    description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
    execute: (args: { path: string }) => `// ${args.path}\n${prose(args.path.length * 7, chars)}`,
  };
}
