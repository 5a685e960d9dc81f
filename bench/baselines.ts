/**
 * Other frameworks' context policies, written from their published behaviour so the
 * replay can run them on our Message type. Each is a function (messages, window) =>
 * messages that returns the input array itself when it changes nothing, and never
 * modifies the input. A replaced message is the same object every time it is replaced the
 * same way, as a framework that stores its edit would send the same bytes again.
 */
import { contentText } from '../src/messages/content.js';
import type { AssistantMessage, Message, ToolMessage } from '../src/messages/types.js';
import { estimateTokens, messageTokens, tokenProfile } from '../src/models/estimate-tokens.js';

/** The corpus's model: token counts are o200k. */
const MODEL = 'gpt-5-mini';
const PROFILE = tokenProfile(MODEL);

/** The context window the published thresholds were set for (LangChain's and opencode's defaults assume 200K). */
export const REFERENCE_WINDOW = 200_000;

/** `value` scaled from a 200K window to `window`, as the same share of it. */
export function scaledToWindow(value: number, window: number): number {
  return Math.round((value * window) / REFERENCE_WINDOW);
}

const replaced = new WeakMap<Message, Map<string, Message>>();

/** `message` with `content` (and no tool calls when `dropCalls`), the same object for the same replacement. */
function replacement<M extends Message>(message: M, key: string, make: () => M): M {
  let byKey = replaced.get(message);
  if (byKey === undefined) {
    byKey = new Map();
    replaced.set(message, byKey);
  }
  let out = byKey.get(key);
  if (out === undefined) {
    out = make();
    byKey.set(key, out);
  }
  return out as M;
}

function withContent(message: ToolMessage, content: string): ToolMessage {
  return replacement(message, `content:${content}`, () => ({ ...message, content }));
}

function toolIndices(messages: readonly Message[]): number[] {
  const out: number[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'tool') out.push(i);
  });
  return out;
}

/** Replaces the tool results at `indices` with `placeholder(result)`; the input array when none changes. */
function replaceResults(
  messages: Message[],
  indices: readonly number[],
  placeholder: (result: ToolMessage) => string,
): Message[] {
  let out: Message[] | undefined;
  for (const i of indices) {
    const message = messages[i] as ToolMessage;
    const text = placeholder(message);
    if (message.content === text) continue;
    out ??= messages.slice();
    out[i] = withContent(message, text);
  }
  return out ?? messages;
}

// ---------------------------------------------------------------------------------------
// Vercel AI SDK: the "Compact Agent Context" guide
// ---------------------------------------------------------------------------------------

/** The guide's trigger: compact above this many estimated tokens. */
export const AI_SDK_TRIGGER_TOKENS = 8_000;
/** pruneMessages({ toolCalls: 'before-last-2-messages' }) keeps the calls of the last 2 messages. */
export const AI_SDK_KEEP_LAST_MESSAGES = 2;

/**
 * The AI SDK's compaction guide (ai-sdk.dev, "Compact Agent Context"): in prepareStep,
 * above 8,000 estimated tokens, `pruneMessages({ messages, toolCalls:
 * 'before-last-2-messages' })`. Every tool call and tool result before the last two
 * messages is removed (except the calls whose results are in the last two), and messages
 * left empty are removed (`emptyMessages: 'remove'`, the default). Text, system and user
 * messages stay. The window plays no part.
 */
export function aiSdkPruneMessages(messages: Message[], _window: number): Message[] {
  if (estimateTokens(messages, MODEL) <= AI_SDK_TRIGGER_TOKENS) return messages;
  const keepFrom = Math.max(0, messages.length - AI_SDK_KEEP_LAST_MESSAGES);
  const kept = new Set<string>();
  for (const m of messages.slice(keepFrom)) {
    if (m.role === 'tool') kept.add(m.toolCallId);
    if (m.role === 'assistant') for (const call of m.toolCalls ?? []) kept.add(call.id);
  }
  let changed = false;
  const out: Message[] = [];
  messages.forEach((m, i) => {
    if (i >= keepFrom || (m.role !== 'assistant' && m.role !== 'tool')) {
      out.push(m);
      return;
    }
    if (m.role === 'tool') {
      if (kept.has(m.toolCallId)) out.push(m);
      else changed = true;
      return;
    }
    const calls = m.toolCalls ?? [];
    const keepCalls = calls.filter((call) => kept.has(call.id));
    if (keepCalls.length === calls.length) {
      out.push(m);
      return;
    }
    changed = true;
    if (keepCalls.length === 0 && contentText(m.content) === '') return;
    out.push(
      replacement<AssistantMessage>(m, `calls:${keepCalls.map((c) => c.id).join(',')}`, () => {
        const { toolCalls: _dropped, ...rest } = m;
        return keepCalls.length === 0 ? rest : { ...rest, toolCalls: keepCalls };
      }),
    );
  });
  return changed ? out : messages;
}

// ---------------------------------------------------------------------------------------
// LangChain: ContextEditingMiddleware with ClearToolUsesEdit
// ---------------------------------------------------------------------------------------

/** ClearToolUsesEdit's defaults: trigger (for a 200K window), results kept, placeholder. */
export const LANGCHAIN_TRIGGER_TOKENS = 100_000;
export const LANGCHAIN_KEEP = 3;
export const LANGCHAIN_PLACEHOLDER = '[cleared]';

/**
 * LangChain's ClearToolUsesEdit (langchain.agents.middleware.context_editing) with its
 * defaults: when the messages count more than `trigger` tokens, every tool result but the
 * newest `keep` (3) is replaced by '[cleared]' (clear_at_least 0: all of them at once).
 * The trigger is scaled to the window: 100,000 tokens of a 200K window. The middleware
 * edits a deep copy of the state's messages in wrap_model_call, so the edit is not kept:
 * the replay runs it on the full history at every call (see LANGCHAIN_BASELINE).
 */
export function langchainClearToolUses(messages: Message[], window: number): Message[] {
  if (estimateTokens(messages, MODEL) <= scaledToWindow(LANGCHAIN_TRIGGER_TOKENS, window)) return messages;
  const tools = toolIndices(messages);
  if (LANGCHAIN_KEEP >= tools.length) return messages;
  return replaceResults(messages, tools.slice(0, tools.length - LANGCHAIN_KEEP), () => LANGCHAIN_PLACEHOLDER);
}

// ---------------------------------------------------------------------------------------
// opencode: SessionCompaction.prune
// ---------------------------------------------------------------------------------------

/** opencode's PRUNE_PROTECT, PRUNE_MINIMUM (for a 200K window) and the text a pruned output is sent as. */
export const OPENCODE_PRUNE_PROTECT = 40_000;
export const OPENCODE_PRUNE_MINIMUM = 20_000;
export const OPENCODE_PLACEHOLDER = '[Old tool result content cleared]';

/**
 * opencode's prune (packages/opencode/src/session/compaction.ts): walk the tool outputs
 * from the newest, adding up their tokens; stop at the first output already pruned; once
 * the total passes PRUNE_PROTECT (40,000), every older output is a candidate; prune them
 * only when they add up to more than PRUNE_MINIMUM (20,000). A pruned output is sent as
 * '[Old tool result content cleared]'. Both numbers are scaled to the window (the same
 * share of a 200K window). opencode runs prune when a user turn ends and never touches the
 * newest two user turns; a single-task run is one user turn, so here it runs at every
 * step, leaving alone only the results the model has not read yet (those after the latest
 * assistant message, the current turn's).
 */
export function opencodePrune(messages: Message[], window: number): Message[] {
  const protect = scaledToWindow(OPENCODE_PRUNE_PROTECT, window);
  const minimum = scaledToWindow(OPENCODE_PRUNE_MINIMUM, window);
  let total = 0;
  let pruned = 0;
  const candidates: number[] = [];
  let latestAssistant = messages.length - 1;
  while (latestAssistant >= 0 && messages[latestAssistant]?.role !== 'assistant') latestAssistant--;
  for (let i = latestAssistant - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role !== 'tool') continue;
    if (message.content === OPENCODE_PLACEHOLDER) break;
    const tokens = messageTokens(message, PROFILE);
    total += tokens;
    if (total > protect) {
      pruned += tokens;
      candidates.push(i);
    }
  }
  if (pruned <= minimum) return messages;
  return replaceResults(messages, candidates, () => OPENCODE_PLACEHOLDER);
}

// ---------------------------------------------------------------------------------------
// Observation masking ("The Complexity Trap", Lindenbauer et al. 2025)
// ---------------------------------------------------------------------------------------

/** Observations kept in full. */
export const MASKING_KEEP = 10;

/** SWE-agent's placeholder for a masked observation. */
export function maskedObservation(result: ToolMessage): string {
  return `Old environment output: (${contentText(result.content).split('\n').length} lines omitted)`;
}

/**
 * Observation masking as the paper runs it on SWE-agent (its LastNObservations history
 * processor): at every call, every tool result but the newest 10 is replaced by
 * "Old environment output: (N lines omitted)". No trigger: it acts whatever the size.
 */
export function observationMasking(messages: Message[], _window: number): Message[] {
  const tools = toolIndices(messages);
  if (tools.length <= MASKING_KEEP) return messages;
  return replaceResults(messages, tools.slice(0, tools.length - MASKING_KEEP), maskedObservation);
}

// ---------------------------------------------------------------------------------------
// The baselines as the replay runs them
// ---------------------------------------------------------------------------------------

/** A baseline policy and how its framework applies it. */
export interface Baseline {
  /** The configuration name in the report. */
  name: string;
  apply: (messages: Message[], window: number) => Message[];
  /**
   * True when the framework keeps the edited transcript for the next steps; false when it
   * edits a copy of the full history before every call (so the replay passes it the full
   * history each time).
   */
  persistent: boolean;
}

export const AI_SDK_BASELINE: Baseline = { name: 'AI SDK pruneMessages', apply: aiSdkPruneMessages, persistent: true };
export const LANGCHAIN_BASELINE: Baseline = {
  name: 'LangChain ClearToolUses',
  apply: langchainClearToolUses,
  persistent: false,
};
export const OPENCODE_BASELINE: Baseline = { name: 'opencode prune', apply: opencodePrune, persistent: true };
export const MASKING_BASELINE: Baseline = {
  name: 'observation masking (10)',
  apply: observationMasking,
  persistent: false,
};

/** Every baseline, in report order. */
export const BASELINES: readonly Baseline[] = [
  AI_SDK_BASELINE,
  LANGCHAIN_BASELINE,
  OPENCODE_BASELINE,
  MASKING_BASELINE,
];
