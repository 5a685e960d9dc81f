/**
 * Reads the mini-swe-agent trajectories of ../shared/corpus (format "mini-swe-agent-1.1")
 * into this library's Message type. Keeps exactly what the model saw: role, content,
 * tool calls and tool_call_id; drops every `extra` field and the final `exit` message.
 * Nothing from the corpus is copied into the project.
 */
import { readFileSync } from 'node:fs';
import type { ToolDefinition } from '../src/contracts/tool-definition.js';
import { parseToolArguments } from '../src/messages/tool-arguments.js';
import type { Message } from '../src/messages/types.js';
import { corpusDir, corpusFiles } from '../src/test-support/corpus.js';

export { corpusDir } from '../src/test-support/corpus.js';

/** The one tool of mini-swe-agent's tool-calling mode, as the model was given it. */
export const BASH_TOOL: ToolDefinition = {
  name: 'bash',
  description: 'Execute a bash command',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string', description: 'The bash command to execute' } },
    required: ['command'],
  },
};

/** One provider call of a trajectory: the request's messages and the provider's prompt_tokens. */
export interface CorpusCall {
  /** Number of messages of the transcript that were sent (a prefix). */
  prefixLength: number;
  promptTokens: number;
  cachedTokens: number | undefined;
}

export interface Trajectory {
  id: string;
  messages: Message[];
  calls: CorpusCall[];
}

interface RawMessage {
  role: string;
  content: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  extra?: { response?: { usage?: { prompt_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } } } };
}

/** Converts one trajectory file. */
export function readTrajectory(path: string): Trajectory {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as { instance_id: string; messages: RawMessage[] };
  const messages: Message[] = [];
  const calls: CorpusCall[] = [];
  for (const m of raw.messages) {
    const content = typeof m.content === 'string' ? m.content : '';
    if (m.role === 'system') messages.push({ role: 'system', content });
    else if (m.role === 'user') messages.push({ role: 'user', content });
    else if (m.role === 'tool')
      messages.push({ role: 'tool', toolCallId: m.tool_call_id ?? '', toolName: 'bash', content });
    else if (m.role === 'assistant') {
      const usage = m.extra?.response?.usage;
      if (usage?.prompt_tokens !== undefined) {
        calls.push({
          prefixLength: messages.length,
          promptTokens: usage.prompt_tokens,
          cachedTokens: usage.prompt_tokens_details?.cached_tokens,
        });
      }
      messages.push({
        role: 'assistant',
        content,
        toolCalls: (m.tool_calls ?? []).map((c) => ({
          id: c.id,
          name: c.function.name,
          arguments: parseToolArguments(c.function.arguments),
        })),
      });
    }
    // 'exit' is never seen by the model.
  }
  return { id: raw.instance_id, messages, calls };
}

/** Every trajectory of the corpus, sorted by file name. */
export function readCorpus(dir = corpusDir()): Trajectory[] {
  return corpusFiles(dir).map(readTrajectory);
}
