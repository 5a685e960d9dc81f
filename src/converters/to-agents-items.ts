import { textPartsOf } from '../messages/content.js';
import type { ContentPart, Message } from '../messages/types.js';
import { writeAgentsParts } from './agents-content.js';
import { AGENTS_METADATA, type AgentsItem, type AgentsMetadata } from './agents-items-types.js';
import { writeArguments } from './arguments-text.js';
import { namespaceOf } from './carried-parts.js';

function toolOutput(content: string | readonly ContentPart[], meta: Partial<AgentsMetadata> | undefined): unknown {
  if (typeof content === 'string' && meta?.parts === undefined)
    return meta?.output === 'object' ? { type: 'text', text: content } : content;
  const parts = writeAgentsParts(
    typeof content === 'string' ? [{ type: 'text', text: content }] : content,
    'tool',
    meta?.parts,
  );
  return meta?.output === 'object' && parts.length === 1 ? parts[0] : parts;
}

/**
 * Our messages as OpenAI Agents SDK items (AgentInputItem), for a session's addItems():
 * message items, a function_call item per tool call and a function_call_result item per
 * tool result. What {@link fromAgentsItems} kept in `metadata.openaiAgents` (each item's
 * other fields, reasoning and hosted-tool items) is written back as it was.
 *
 * @example
 * const { messages } = await compactMessages(fromAgentsItems(await session.getItems()));
 * await session.clearSession();
 * await session.addItems(toAgentsItems(messages));
 */
export function toAgentsItems(messages: readonly Message[]): AgentsItem[] {
  return writeAgentsItems(messages);
}

/**
 * {@link toAgentsItems}, pushing onto `ends` (when given) the end of each message's items in
 * the list: how a session that stores items finds the messages a number of items covers.
 * `calls` are assistant messages before the list whose calls its first results answer (a
 * result keeps its tool's name only when it differs from its call's).
 */
export function writeAgentsItems(
  messages: readonly Message[],
  ends?: number[],
  calls: readonly Message[] = [],
): AgentsItem[] {
  const out: AgentsItem[] = [];
  const names = new Map<string, string>();
  for (const m of calls)
    if (m.role === 'assistant') for (const call of m.toolCalls ?? []) names.set(call.id, call.name);
  for (const m of messages) {
    const meta = namespaceOf<AgentsMetadata>(m, AGENTS_METADATA);
    out.push(...((meta?.before ?? []) as AgentsItem[]));
    const envelope = meta?.message ?? { type: 'message' };
    if (m.role === 'system') out.push({ ...envelope, role: 'system', content: m.content });
    else if (m.role === 'user') {
      const content =
        typeof m.content === 'string' && meta?.parts === undefined
          ? m.content
          : writeAgentsParts(
              typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content,
              'input',
              meta?.parts,
            );
      out.push({ ...envelope, role: 'user', content });
    } else if (m.role === 'assistant') {
      const calls = m.toolCalls ?? [];
      const texts =
        typeof m.content === 'string'
          ? m.content === ''
            ? []
            : [{ type: 'text' as const, text: m.content }]
          : textPartsOf(m.content);
      if (texts.length > 0 || calls.length === 0 || meta?.message !== undefined || meta?.parts !== undefined) {
        out.push({
          status: 'completed',
          ...envelope,
          role: 'assistant',
          content: writeAgentsParts(texts, 'output', meta?.parts),
        });
      }
      for (const call of calls) {
        names.set(call.id, call.name);
        const saved = meta?.calls?.[call.id] ?? { type: 'function_call', status: 'completed' };
        const raw = typeof saved.arguments === 'string' ? saved.arguments : undefined;
        out.push({ ...saved, callId: call.id, name: call.name, arguments: writeArguments(call.arguments, raw) });
      }
    } else {
      const result = meta?.result ?? { type: 'function_call_result', status: 'completed' };
      const name = m.toolName ?? names.get(m.toolCallId) ?? 'tool';
      out.push({ ...result, name, callId: m.toolCallId, output: toolOutput(m.content, meta) });
    }
    out.push(...((meta?.after ?? []) as AgentsItem[]));
    ends?.push(out.length);
  }
  return out;
}
