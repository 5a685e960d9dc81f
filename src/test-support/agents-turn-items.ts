import type { AgentsItem } from '../converters/agents-items-types.js';
import { prose } from './text.js';

/** One turn as the Agents SDK's runner stores it: a question, one read and its result (`size` characters), an answer. */
export function agentsTurnItems(turn: number, size = 2_000): AgentsItem[] {
  const callId = `call_${turn}`;
  return [
    { type: 'message', role: 'user', content: `question ${turn}` },
    { type: 'function_call', callId, name: 'read', arguments: JSON.stringify({ i: turn }), status: 'completed' },
    {
      type: 'function_call_result',
      name: 'read',
      callId,
      status: 'completed',
      output: { type: 'text', text: prose(turn, size) },
    },
    {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: `answer ${turn}` }],
    },
  ];
}
