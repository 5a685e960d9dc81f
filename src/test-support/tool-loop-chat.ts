import type { ServerResponse } from 'node:http';
import { tool } from '../executor/tool.js';
import type { ReceivedRequest } from './loopback-server.js';
import { sendJson } from './loopback-server.js';

/**
 * A chat-completions handler playing a tool-loop model: the n-th request (from 1) gets a
 * call read_file({"path":"src/file-<n>.ts"}) until `steps` calls were made, then "Done.".
 * Answers a turn at a time: after "Done." it starts again at the next user message.
 */
export function toolLoopChat(steps: number): (request: ReceivedRequest, response: ServerResponse) => void {
  return (request, response) => {
    const messages = (request.body as { messages: { role: string }[] }).messages;
    let calls = 0;
    for (let i = messages.length - 1; i >= 0 && messages[i]?.role !== 'user'; i--)
      if (messages[i]?.role === 'assistant') calls++;
    const n = calls + 1;
    const message =
      n <= steps
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: `call_${messages.length}`,
                type: 'function',
                function: { name: 'read_file', arguments: JSON.stringify({ path: `src/file-${n}.ts` }) },
              },
            ],
          }
        : { role: 'assistant', content: 'Done.' };
    sendJson(response, 200, {
      id: `chatcmpl-${messages.length}`,
      object: 'chat.completion',
      model: (request.body as { model?: string }).model,
      choices: [{ index: 0, message, finish_reason: n <= steps ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    });
  };
}

/** The read_file tool of those runs: `lines` lines of a source file. */
export function readFileTool(lines = 150) {
  return tool({
    name: 'read_file',
    description: 'Reads a file of the project and returns its text.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    execute: ({ path }) =>
      Array.from({ length: lines }, (_, i) => `// ${String(path)} line ${i}: export const value${i} = ${i * 7};`).join(
        '\n',
      ),
  });
}
