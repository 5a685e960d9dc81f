import type { AssistantPart, Message, ToolCall, ToolMessage } from '../messages/types.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { isRecord } from './invalid-input.js';
import {
  type LogReading,
  logExtras,
  numberOf,
  REPORTED_USAGE,
  type ReportedUsage,
  reportedUsage,
  sumOf,
} from './log-reading.js';

type Part = Record<string, unknown>;

/** True for an `opencode export` file: `{ info, messages: [{ info: { role, ... }, parts: [...] }] }`. */
export function isOpencodeExport(data: unknown): boolean {
  if (!isRecord(data) || !isRecord(data.info) || !Array.isArray(data.messages) || data.messages.length === 0)
    return false;
  return data.messages.every((m) => isRecord(m) && isRecord(m.info) && Array.isArray(m.parts));
}

/** The user's text parts (those opencode wrote itself, such as a read file's content, included). */
function userMessage(parts: Part[]): Message | undefined {
  const texts = parts.filter((p) => p.type === 'text' && typeof p.text === 'string').map((p) => p.text as string);
  return texts.length === 0 ? undefined : { role: 'user', content: texts.join('\n\n') };
}

function reasoning(part: Part, provider: unknown): AssistantPart {
  const openai = isRecord(part.metadata) && isRecord(part.metadata.openai) ? part.metadata.openai : {};
  return {
    type: 'reasoning',
    text: typeof part.text === 'string' ? part.text : '',
    ...(typeof provider === 'string' ? { provider } : {}),
    ...(typeof openai.itemId === 'string' ? { id: openai.itemId } : {}),
    ...(typeof openai.reasoningEncryptedContent === 'string' ? { encrypted: openai.reasoningEncryptedContent } : {}),
  };
}

/** The usage of opencode `tokens` (`input` holds no cache reads or writes: they are added); undefined when all are zero, as a reply cut off before the provider answered reports them. */
function tokensUsage(value: unknown): ReportedUsage | undefined {
  const tokens = isRecord(value) ? value : {};
  const cache = isRecord(tokens.cache) ? tokens.cache : {};
  const cacheReadTokens = numberOf(cache.read);
  const cacheWriteTokens = numberOf(cache.write);
  const usage = reportedUsage({
    inputTokens: sumOf(numberOf(tokens.input), cacheReadTokens, cacheWriteTokens),
    outputTokens: numberOf(tokens.output),
    cacheReadTokens,
    cacheWriteTokens,
    reasoningTokens: numberOf(tokens.reasoning),
  });
  return (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0) > 0 ? usage : undefined;
}

/**
 * One assistant message of opencode: one of ours per step (its text, reasoning and calls),
 * each followed by its results; a step's `step-finish` tokens are the usage of its request.
 */
function assistantMessages(parts: Part[], provider: unknown): Message[] {
  const out: Message[] = [];
  let content: AssistantPart[] = [];
  let calls: ToolCall[] = [];
  let results: ToolMessage[] = [];
  let usage: ReportedUsage | undefined;
  const flush = () => {
    if (content.length === 0 && calls.length === 0) return;
    const text = content.every((p) => p.type === 'text')
      ? content.map((p) => (p as { text: string }).text).join('')
      : content;
    const reported = usage === undefined ? {} : { metadata: { [REPORTED_USAGE]: usage } };
    out.push(
      { role: 'assistant', content: text, ...(calls.length === 0 ? {} : { toolCalls: calls }), ...reported },
      ...results,
    );
    content = [];
    calls = [];
    results = [];
    usage = undefined;
  };
  for (const part of parts) {
    if (part.type === 'step-finish') usage = tokensUsage(part.tokens);
    else if (part.type === 'step-start') flush();
    else if (part.type === 'text' || part.type === 'reasoning') {
      if (calls.length > 0) flush();
      if (part.type === 'reasoning') content.push(reasoning(part, provider));
      else if (typeof part.text === 'string' && part.text !== '') content.push({ type: 'text', text: part.text });
    } else if (part.type === 'tool' && typeof part.callID === 'string' && isRecord(part.state)) {
      const { state } = part;
      const name = String(part.tool);
      calls.push({ id: part.callID, name, arguments: state.input ?? {} });
      if (state.status === 'completed' || state.status === 'error') {
        const error = state.status === 'error';
        const text = error ? state.error : state.output;
        results.push({
          role: 'tool',
          toolCallId: part.callID,
          toolName: name,
          content: typeof text === 'string' ? text : JSON.stringify(text ?? ''),
          ...(error ? { isError: true } : {}),
        });
      }
    }
  }
  flush();
  return out;
}

/**
 * An `opencode export` session as our messages, with the model and the usage of its newest
 * reply. Each step of an assistant message (from one `step-start` to the next) is one of our
 * assistant messages: its text, its reasoning (as reasoning parts, encrypted content kept) and
 * its tool calls, followed by the calls' results (`state.output`, or `state.error` as an
 * error result); a call that never finished is left waiting. The usage of each step's request
 * (its `step-finish` tokens) is set as `metadata.reportedUsage` on that step's message. User messages keep their text
 * parts, those opencode added (a file it read for the user) included; `file`, `agent`,
 * `patch` and step parts are not read.
 *
 * @example
 * const { messages, model } = fromOpencode(JSON.parse(await readFile('session.json', 'utf8')));
 */
export function fromOpencode(data: unknown, options: ConvertOptions = {}): LogReading {
  const messages: Message[] = [];
  let last: Record<string, unknown> | undefined;
  for (const m of isRecord(data) && Array.isArray(data.messages) ? data.messages : []) {
    if (!isRecord(m) || !isRecord(m.info) || !Array.isArray(m.parts)) continue;
    const parts = m.parts.filter(isRecord);
    if (m.info.role === 'user') {
      const user = userMessage(parts);
      if (user !== undefined) messages.push(user);
    } else if (m.info.role === 'assistant') {
      const steps = assistantMessages(parts, m.info.providerID);
      const usage = tokensUsage(m.info.tokens);
      // A message without step parts (an older opencode) reports its usage on the message itself.
      const lastStep = steps.findLast((s) => s.role === 'assistant');
      if (lastStep !== undefined && !parts.some((p) => p.type === 'step-finish') && usage !== undefined)
        lastStep.metadata = { ...lastStep.metadata, [REPORTED_USAGE]: usage };
      messages.push(...steps);
      // A reply that was cut off before the provider answered reports zeros: the one before it is the last request.
      if (last === undefined || usage !== undefined) last = m.info;
    }
  }
  return {
    messages: checkedTranscript(messages, options),
    ...logExtras({
      model: typeof last?.modelID === 'string' ? last.modelID : undefined,
      reported: tokensUsage(last?.tokens),
    }),
  };
}
