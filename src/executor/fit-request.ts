import { attemptCompaction } from '../compaction/hook-attempt.js';
import { overflowRecoveryStrategy } from '../compaction/overflow-recovery.js';
import { effectiveProtectedTokens } from '../compaction/protected-tail.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { cutMiddle, mediaMarker, planCuts } from '../core/recovery.js';
import { LoushoError } from '../errors/lousho-error.js';
import { contentLength, contentText } from '../messages/content.js';
import { afterHook, noteEdit } from '../messages/edits.js';
import { isPinned } from '../messages/pin.js';
import { latestAssistantIndex } from '../messages/turns.js';
import type { ContentPart, ImagePart, Message, ToolCall } from '../messages/types.js';
import { argumentsText } from '../models/estimate-tokens.js';
import type { HookRegistry } from './hook-registry.js';
import type { RunState } from './run-state.js';

export interface FitContext {
  request: ModelRequest;
  run: RunState;
  hooks: HookRegistry;
  emit: ((event: AgentEvent) => void) | undefined;
}

/** One thing fitRequest() did, for the recovery event. */
export interface FitAction {
  kind: 'oversized-request' | 'oversized-results';
  action: string;
}

/**
 * The overflow recovery of a run without a compaction hook: the same strategy, runner and
 * events (trigger 'overflow') as the hook's recover(), with the default protected tail.
 */
async function recoverWithoutHook(ctx: FitContext, targetTokens: number): Promise<void> {
  const { request, run, emit } = ctx;
  const contextWindow = (await run.budget.contextWindow({ unknown: 'none' })) ?? targetTokens;
  const strategy = overflowRecoveryStrategy();
  await attemptCompaction({
    request,
    run,
    emit,
    strategy,
    fallback: strategy,
    tokensBefore: run.budget.measure(request),
    contextWindow,
    thresholdTokens: targetTokens,
    protectedTokens: effectiveProtectedTokens(undefined, targetTokens).protectedTokens,
    trigger: 'overflow',
    quiet: false,
    recall: undefined,
    onCompaction: undefined,
  });
}

/**
 * Cuts the results of the newest assistant turn (which compaction never touches) so the
 * request gets down to `targetTokens` (aiming `overshoot` times further than the estimate
 * says, for a second try): head and tail kept, with a marker naming the call.
 * Resolves to the number of results cut.
 */
function cutNewestResults(request: ModelRequest, run: RunState, targetTokens: number, overshoot = 1): number {
  const messages = request.messages;
  const latest = latestAssistantIndex(messages);
  if (latest < 0) return 0;
  const calls = new Map<string, ToolCall>();
  for (const call of (messages[latest] as Extract<Message, { role: 'assistant' }>).toolCalls ?? [])
    calls.set(call.id, call);
  const indices: number[] = [];
  // A pinned result is never cut, by anything.
  for (let i = latest + 1; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role === 'tool' && !isPinned(m)) indices.push(i);
  }
  if (indices.length === 0) return 0;
  const over = (run.budget.measure(request) - targetTokens) * overshoot;
  const sizes = indices.map((i) => ({
    chars: contentLength((messages[i] as Message).content),
    tokens: run.budget.messageTokens(messages[i] as Message, request.model),
  }));
  const plan = planCuts(sizes, over) ?? sizes.map((s) => Math.min(s.chars, 2_000));
  let cut = 0;
  indices.forEach((at, k) => {
    const message = messages[at] as Extract<Message, { role: 'tool' }>;
    const keep = plan[k] as number;
    if (keep >= (sizes[k]?.chars ?? 0)) return;
    const call = calls.get(message.toolCallId);
    const label = `${call?.name ?? message.toolName ?? 'tool'}(${argumentsText(call?.arguments ?? {}).slice(0, 120)}) result`;
    messages[at] = { ...message, content: cutMiddle(contentText(message.content), keep, label) };
    noteEdit(messages, at);
    cut++;
  });
  return cut;
}

/**
 * Gets a request that does not fit down to `targetTokens`, in this order, stopping as soon
 * as it fits: the overflow recovery (the compaction hook's recover(), else the same recovery
 * run here), then cutting the newest turn's own (unpinned) results, head and tail kept.
 * Throws LOUSHO_CONTEXT_OVERFLOW when even that is not enough, or when the compaction hook's
 * overflowRecovery is off: such a request is never sent. Resolves to what it did.
 */
export async function fitRequest(
  ctx: FitContext,
  targetTokens: number,
  reason: 'context-overflow' | 'preflight',
): Promise<FitAction[]> {
  const { request, run, hooks, emit } = ctx;
  const size = () => run.budget.measure(request);
  const actions: FitAction[] = [];
  const before = size();
  if (before <= targetTokens) return actions;
  const recovering = hooks.list().filter((hook) => hook.recover !== undefined);
  for (const hook of recovering) {
    await hook.recover?.({ request, run, reason, targetTokens, ...(emit === undefined ? {} : { emit }) });
    afterHook(hook, request.messages);
    if (size() <= targetTokens) break;
  }
  if (recovering.length === 0) await recoverWithoutHook(ctx, targetTokens);
  // What compaction (not the cut below) did, for the report.
  const compactedTo = size();
  if (compactedTo < before) {
    actions.push({
      kind: 'oversized-request',
      action: `compacted the request from ${before} to ${compactedTo} tokens`,
    });
  }
  if (compactedTo <= targetTokens) return actions;
  // A cut keeps the head and tail of a result, which may hold more tokens per character than
  // its middle: cut again what is still over, aiming further each time, a bounded number of times.
  let cut = 0;
  for (let pass = 0; pass < 3 && size() > targetTokens; pass++) {
    const more = cutNewestResults(request, run, targetTokens, 4 ** pass);
    if (more === 0) break;
    cut = Math.max(cut, more);
  }
  if (cut > 0) {
    actions.push({
      kind: 'oversized-results',
      action: `cut ${cut} result(s) of the newest turn to fit ${targetTokens} tokens`,
    });
  }
  if (size() <= targetTokens) return actions;
  // What the provider counts beyond the messages we see is said apart: it cannot be compacted.
  const hidden = run.budget.calibration;
  const counted =
    hidden > 0
      ? `${size()} tokens by the provider's count (${size() - hidden} by our estimate of the messages, tools and schema; the provider counts ${hidden} more)`
      : `${size()} tokens`;
  throw new LoushoError(
    'LOUSHO_CONTEXT_OVERFLOW',
    `The request does not fit: ${counted} against a target of ${targetTokens}, even after compaction and cutting the newest ` +
      'tool results. The system prompt, the tool definitions or the newest messages alone are too large for the context window; ' +
      'shorten them or use a model with a larger window.',
    { details: { requested: size(), limit: targetTokens } },
  );
}

function imageBytes(part: ImagePart): number {
  if (part.image instanceof Uint8Array) return part.image.length;
  const text = part.image instanceof URL ? part.image.href : part.image;
  return /^https?:/i.test(text) ? 0 : Math.floor((text.length * 3) / 4);
}

function withoutImages(message: Message, describe: (part: ImagePart, k: number) => string): Message | undefined {
  if (message.role !== 'user' && message.role !== 'tool') return undefined;
  if (typeof message.content === 'string' || !message.content.some((p) => p.type === 'image')) return undefined;
  let k = 0;
  const content: ContentPart[] = message.content.map((part) =>
    part.type === 'image' ? { type: 'text', text: mediaMarker(describe(part, k++)) } : part,
  );
  return { ...message, content } as Message;
}

/**
 * Replaces the images the provider rejected as too large with a text marker naming them:
 * those of the message the error names, else the largest image in the transcript.
 * Resolves to a description of what was replaced, or undefined when there was no image.
 */
export function replaceRejectedMedia(messages: Message[], error: unknown): string | undefined {
  const named = LoushoError.isInstance(error) ? error.details?.messageIndex : undefined;
  const describe = (at: number) => (part: ImagePart, k: number) =>
    `${part.mediaType ?? 'image'}, ${Math.round(imageBytes(part) / 1024)} KB, image ${k + 1} of message ${at}`;
  if (typeof named === 'number' && messages[named] !== undefined) {
    const replaced = withoutImages(messages[named] as Message, describe(named));
    if (replaced !== undefined) {
      messages[named] = replaced;
      noteEdit(messages, named);
      return `the images of message ${named}`;
    }
  }
  let best: { at: number; bytes: number } | undefined;
  messages.forEach((m, at) => {
    if (typeof m.content === 'string') return;
    for (const part of m.content) {
      if (part.type !== 'image') continue;
      const bytes = imageBytes(part);
      if (best === undefined || bytes > best.bytes) best = { at, bytes };
    }
  });
  if (best === undefined) return undefined;
  const at = best.at;
  messages[at] = withoutImages(messages[at] as Message, describe(at)) as Message;
  noteEdit(messages, at);
  return `the images of message ${at}`;
}
