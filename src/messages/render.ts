import { contentText } from '../messages/content.js';
import type { Message } from '../messages/types.js';

/** The JSON text of tool-call arguments as the model wrote them. */
function argumentsJson(args: unknown): string {
  return typeof args === 'string' ? args : (JSON.stringify(args ?? {}) ?? '');
}

/** Longest tool result passed to the summarizer; longer ones keep their head and tail. */
export const SUMMARY_INPUT_MAX_RESULT_CHARS = 8_000;

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.75);
  const tail = max - head;
  return `${text.slice(0, head)}\n[... ${text.length - max} chars omitted ...]\n${text.slice(text.length - tail)}`;
}

/** Writes messages as plain text, one block per message (tool results longer than the limit keep head and tail). */
export function renderMessages(messages: readonly Message[]): string {
  const names = new Map<string, string>();
  const lines: string[] = [];
  for (const m of messages) {
    const text = contentText(m.content);
    if (m.role === 'assistant') {
      if (text !== '') lines.push(`[assistant]\n${text}`);
      for (const call of m.toolCalls ?? []) {
        names.set(call.id, call.name);
        lines.push(`[assistant called ${call.name}(${argumentsJson(call.arguments)})]`);
      }
    } else if (m.role === 'tool') {
      const name = names.get(m.toolCallId) ?? m.toolName ?? 'tool';
      lines.push(
        `[result of ${name}${m.isError === true ? ', an error' : ''}]\n${clip(text, SUMMARY_INPUT_MAX_RESULT_CHARS)}`,
      );
    } else {
      lines.push(`[${m.role}]\n${text}`);
    }
  }
  return lines.join('\n\n');
}

/** One message as plain text (see {@link renderMessages}). */
export function renderMessage(message: Message): string {
  return renderMessages([message]);
}

/** The summarizer's user message: the conversation to summarize. */
export function summaryRequestText(conversation: string): string {
  return `Summarize this conversation:\n\n<conversation>\n${conversation}\n</conversation>`;
}

/** Writes messages as the summarizer's user message. */
export function serializeTranscript(messages: readonly Message[]): string {
  return summaryRequestText(renderMessages(messages));
}
