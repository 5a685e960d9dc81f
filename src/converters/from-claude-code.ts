import type { ConvertOptions } from './checked-transcript.js';
import { fromAnthropic } from './from-anthropic.js';
import { isRecord } from './invalid-input.js';
import { type LogReading, logExtras, numberOf, reportedUsage, sumOf } from './log-reading.js';

type ClaudeRecord = Record<string, unknown> & { message: Record<string, unknown> };

/** A record of the conversation: `type` user or assistant, with the API `message` it sent or got. */
function isConversationRecord(r: unknown): r is ClaudeRecord {
  return isRecord(r) && (r.type === 'user' || r.type === 'assistant') && isRecord(r.message);
}

/**
 * True for the records of a Claude Code session (`~/.claude/projects/<project>/<session>.jsonl`):
 * its conversation records carry a `sessionId`, a `type` of 'user' or 'assistant' and the
 * API `message`; the others are summaries, progress, snapshots and system notes.
 */
export function isClaudeCodeSession(records: readonly unknown[]): boolean {
  return records.some((r) => isConversationRecord(r) && typeof r.sessionId === 'string');
}

/**
 * A Claude Code session log as our messages, with the model and the usage of its newest
 * reply. Only the main conversation is read: records of subagents (`isSidechain: true`) are
 * left out (their final answers are the Task tool's results); after a `/compact` only what
 * follows the last `compact_boundary` is read, as Claude Code itself does. An assistant reply
 * that Claude Code logged one content block per record (same `message.id`) is joined into one
 * message; the blocks are then read as {@link fromAnthropic} reads them.
 *
 * @example
 * const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
 * const { messages, model, reported } = fromClaudeCode(lines);
 */
export function fromClaudeCode(records: readonly unknown[], options: ConvertOptions = {}): LogReading {
  let start = 0;
  records.forEach((r, i) => {
    if (isRecord(r) && r.type === 'system' && r.subtype === 'compact_boundary') start = i + 1;
  });
  const messages: { role: string; content: unknown }[] = [];
  let last: ClaudeRecord | undefined;
  let lastId: unknown;
  for (const r of records.slice(start)) {
    if (!isConversationRecord(r) || r.isSidechain === true) continue;
    const { role, content, id } = r.message;
    const previous = messages.at(-1);
    const blocks = Array.isArray(content) ? content : [{ type: 'text', text: String(content ?? '') }];
    if (role === 'assistant' && previous?.role === 'assistant' && id !== undefined && id === lastId) {
      previous.content = [...(previous.content as unknown[]), ...blocks];
    } else messages.push({ role: String(role), content: role === 'assistant' ? blocks : content });
    if (role === 'assistant') {
      // Each record of a streamed reply carries the usage so far: the one with the most output is the reply's.
      const output = (m: ClaudeRecord | undefined) =>
        isRecord(m?.message.usage) ? Number(m.message.usage.output_tokens) || 0 : 0;
      if (r.message.model !== '<synthetic>' && (id !== lastId || output(r) >= output(last))) last = r;
      lastId = id;
    }
  }
  const usage = isRecord(last?.message.usage) ? last.message.usage : {};
  const cacheReadTokens = numberOf(usage.cache_read_input_tokens);
  const cacheWriteTokens = numberOf(usage.cache_creation_input_tokens);
  return {
    messages: fromAnthropic({ messages }, options),
    ...logExtras({
      model: typeof last?.message.model === 'string' ? last.message.model : undefined,
      reported: reportedUsage({
        inputTokens: sumOf(numberOf(usage.input_tokens), cacheReadTokens, cacheWriteTokens),
        outputTokens: numberOf(usage.output_tokens),
        cacheReadTokens,
        cacheWriteTokens,
      }),
    }),
  };
}
