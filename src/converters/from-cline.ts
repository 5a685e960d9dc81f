import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { anthropicMessages } from './from-anthropic.js';
import { isRecord } from './invalid-input.js';
import {
  type LogReading,
  numberOf,
  type ReportedUsage,
  reportedUsage,
  sumOf,
  withReportedUsage,
} from './log-reading.js';

type Block = Record<string, unknown>;

/**
 * The text block that Cline and Roo Code put in the next user turn for each tool the model
 * used (cline/cline src/core/task: `pushToolResult`, `toolDescription()`): "[read_file for
 * 'src/x.ts'] Result:" and the output, or a call it skipped ("Skipping tool [...] due to user
 * rejecting a previous tool.", "Tool [...] was not executed because ...").
 */
const RESULT = /^(?:Tool #\d+: )?\[([^\]\n]+)\] Result:/;
const SKIPPED = /^(?:Skipping tool \[([^\]\n]+)\] due to|Tool \[([^\]\n]+)\] was (?:interrupted and )?not executed)/;

/** The tool a result block names ('read_file' of "[read_file for 'x'] Result:"), or undefined for another block. */
function resultOf(block: unknown): { tool: string; skipped: boolean } | undefined {
  if (!isRecord(block) || block.type !== 'text' || typeof block.text !== 'string') return undefined;
  const found = RESULT.exec(block.text) ?? SKIPPED.exec(block.text);
  const named = found?.[1] ?? found?.[2];
  if (named === undefined) return undefined;
  return { tool: named.split(' ')[0] as string, skipped: found?.[0].endsWith('Result:') !== true };
}

/** True for a Cline or Roo Code task history (`api_conversation_history.json`): Anthropic messages whose tool results are text blocks of the next user turn. */
export function isClineTask(data: unknown): boolean {
  if (!Array.isArray(data) || data.length === 0) return false;
  if (!data.every((m) => isRecord(m) && (m.role === 'user' || m.role === 'assistant') && 'content' in m)) return false;
  return data.some(
    (m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((b: unknown) => resultOf(b) !== undefined),
  );
}

/** The arguments of a call written as XML in the text (`<read_file><path>x</path></read_file>`), as Cline's first tool protocol has the model write them. */
function xmlArguments(text: string, tool: string): Record<string, string> {
  const body = new RegExp(`<${tool}>([\\s\\S]*?)</${tool}>`).exec(text)?.[1] ?? '';
  const args: Record<string, string> = {};
  for (const [, key, value] of body.matchAll(/<(\w+)>([\s\S]*?)<\/\1>/g))
    args[key as string] = (value as string).trim();
  return args;
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((b) => (isRecord(b) && typeof b.text === 'string' ? b.text : '')).join('\n')
      : '';

/**
 * A user turn's result blocks as tool_result blocks answering the calls of `assistant` (the
 * message before it, at index `at`) in order; where it wrote its calls as XML, a call is added
 * to it for each result, with the id `<tool>_<at>_<k>`.
 */
function answer(content: unknown[], calls: string[], assistant: Block | undefined, at: number): unknown[] {
  const answered = new Set(content.map((b) => (isRecord(b) && b.type === 'tool_result' ? b.tool_use_id : undefined)));
  const open = calls.filter((id) => !answered.has(id));
  const out: unknown[] = [];
  for (let j = 0; j < content.length; j++) {
    const found = resultOf(content[j]);
    if (found === undefined) {
      out.push(content[j]);
      continue;
    }
    // The older form writes the output as the blocks after a header that ends at "Result:".
    const parts = [content[j]];
    if (((content[j] as Block).text as string).trim().endsWith('Result:'))
      while (j + 1 < content.length && resultOf(content[j + 1]) === undefined && !isEnvironment(content[j + 1]))
        parts.push(content[++j]);
    let id = open.shift();
    if (id === undefined && assistant !== undefined) {
      const made = Array.isArray(assistant.content)
        ? assistant.content.filter((b) => isRecord(b) && b.type === 'tool_use')
        : [];
      id = `${found.tool}_${at}_${made.length}`;
      const input = xmlArguments(textOf(assistant.content), found.tool);
      const blocks = typeof assistant.content === 'string' ? [{ type: 'text', text: assistant.content }] : [];
      assistant.content = [
        ...blocks,
        ...(Array.isArray(assistant.content) ? assistant.content : []),
        { type: 'tool_use', id, name: found.tool, input },
      ];
    }
    if (id === undefined) out.push(...parts);
    else
      out.push({ type: 'tool_result', tool_use_id: id, content: parts, ...(found.skipped ? { is_error: true } : {}) });
  }
  return out;
}

const isEnvironment = (b: unknown) =>
  isRecord(b) && typeof b.text === 'string' && b.text.startsWith('<environment_details>');

/**
 * The providers whose handler in Cline yields an `inputTokens` without the cached tokens, which
 * Cline's `metrics.tokens.prompt` then is: Anthropic's `usage.input_tokens`, which leaves the
 * cache reads and writes out (cline/cline src/core/api/providers/anthropic.ts), and OpenRouter's
 * and Cline's own `prompt_tokens - cached_tokens` (openrouter.ts, cline.ts). The OpenAI-compatible
 * handler's is `prompt_tokens`, which holds the cached ones (openai.ts).
 */
const PROMPT_WITHOUT_CACHE = new Set(['anthropic', 'openrouter', 'cline']);

type Tokens = { prompt?: unknown; completion?: unknown; cached?: unknown };

const tokensOf = (m: Block): Tokens | undefined =>
  isRecord(m.metrics) && isRecord(m.metrics.tokens) ? (m.metrics.tokens as Tokens) : undefined;
const providerOf = (m: Block): string | undefined =>
  isRecord(m.modelInfo) && typeof m.modelInfo.providerId === 'string' ? m.modelInfo.providerId : undefined;

/**
 * The providers of `history` whose `prompt` leaves the cached tokens out: those of
 * {@link PROMPT_WITHOUT_CACHE}, and any other whose `cached` is ever more than its `prompt`
 * (which a prompt that held them could not be).
 */
function promptsWithoutCache(history: readonly Block[]): Set<string | undefined> {
  const out = new Set<string | undefined>(PROMPT_WITHOUT_CACHE);
  for (const m of history) {
    const tokens = m.role === 'assistant' ? tokensOf(m) : undefined;
    const [prompt, cached] = [numberOf(tokens?.prompt), numberOf(tokens?.cached)];
    if (prompt !== undefined && cached !== undefined && cached > prompt) out.add(providerOf(m));
  }
  return out;
}

/**
 * The usage Cline records on an assistant message: `metrics.tokens` is `{ prompt: inputTokens,
 * completion: outputTokens, cached: cacheWriteTokens + cacheReadTokens }` of the provider
 * handler's usage; the input is `prompt + cached` where the handler's `prompt` leaves the cache
 * out. `cached` joins reads and writes, so neither is reported apart.
 */
function metricsUsage(m: Block, withoutCache: ReadonlySet<string | undefined>): ReportedUsage | undefined {
  const tokens = tokensOf(m);
  if (tokens === undefined) return undefined;
  const prompt = numberOf(tokens.prompt);
  return reportedUsage({
    inputTokens: withoutCache.has(providerOf(m)) ? sumOf(prompt, numberOf(tokens.cached)) : prompt,
    outputTokens: numberOf(tokens.completion),
  });
}

/**
 * A Cline or Roo Code task history (`tasks/<id>/api_conversation_history.json`) as our
 * messages. It is Anthropic messages, but the result of each tool the model used is a text
 * block of the next user turn ("[read_file for 'src/x.ts'] Result:" and the output, or a call
 * it skipped): each becomes the tool result of the call it answers, in order, so compaction
 * prunes it. Where the model wrote its call as XML in its text (the first tool protocol of
 * both), the call is added to the assistant message as well, its arguments read from the
 * XML, with the id `<tool>_<message>_<block>`. The rest of the user turn (environment
 * details, reminders) stays user text; tool_use and tool_result blocks of the native protocol
 * are read as they are. `metrics.tokens` of an assistant message becomes its
 * `metadata.reportedUsage` (the cached tokens added to `prompt` where the provider's handler
 * leaves them out of it, as Anthropic's does), and `modelInfo.modelId` the model.
 *
 * @example
 * const { messages } = fromClineTask(JSON.parse(await readFile('api_conversation_history.json', 'utf8')));
 */
export function fromClineTask(data: unknown, options: ConvertOptions = {}): LogReading {
  const history = Array.isArray(data) ? data.filter(isRecord) : [];
  const withoutCache = promptsWithoutCache(history);
  const messages: Block[] = [];
  const usages: (ReportedUsage | undefined)[] = [];
  let open: string[] = [];
  let assistant: Block | undefined;
  let at = -1;
  let model: string | undefined;
  history.forEach((m, i) => {
    if (m.role === 'assistant') {
      at = i;
      assistant = { role: 'assistant', content: m.content };
      const blocks = Array.isArray(m.content) ? m.content : [];
      open = blocks.filter((b) => isRecord(b) && b.type === 'tool_use').map((b) => String((b as Block).id));
      usages.push(metricsUsage(m, withoutCache));
      if (isRecord(m.modelInfo) && typeof m.modelInfo.modelId === 'string') model = m.modelInfo.modelId;
      messages.push(assistant);
      return;
    }
    const content = Array.isArray(m.content) ? answer(m.content, open, assistant, at) : m.content;
    messages.push({ role: 'user', content });
    [open, assistant] = [[], undefined];
  });
  const read = withReportedUsage(anthropicMessages({ messages }), usages);
  const reported = usages.findLast((u) => u !== undefined);
  return {
    messages: checkedTranscript(read, options),
    ...(model === undefined ? {} : { model }),
    ...(reported === undefined ? {} : { reported }),
  };
}
