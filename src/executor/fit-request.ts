import { compactorStrategy } from '../compaction/compactor-strategy.js';
import { foldTurns } from '../compaction/fold-turns.js';
import { foldMarkerChars } from '../compaction/next-step.js';
import { pruneToolResults } from '../compaction/prune-tool-results.js';
import { FIT_LOW_WATER_PERCENT } from '../compaction/trigger.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { cutMiddle, mediaMarker, planCuts } from '../core/recovery.js';
import { LoushoError } from '../errors/lousho-error.js';
import { contentLength, contentText } from '../messages/content.js';
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

/** Replaces the transcript's content with `next`, in place. */
function rewrite(messages: Message[], next: readonly Message[]): void {
  if (next !== messages) messages.splice(0, messages.length, ...next);
}

/**
 * Compacts without a hook and without a model call: prunes old results (the newest half of
 * the target kept), then folds the oldest turns into one marker turn until the request is at
 * `lowWaterTokens`: well under the target, so the next steps have room to append, and not
 * down to a few hundred tokens.
 */
function foldOldest(ctx: FitContext, targetTokens: number, lowWaterTokens: number): void {
  const { request, run } = ctx;
  const input = {
    messages: request.messages,
    estimateTokens: (list: readonly Message[]) => run.budget.measureWith(request, list),
    countMessage: (m: Message) => run.budget.messageTokens(m, request.model),
    contextWindow: Math.max(targetTokens, 1),
    protectedTokens: Math.floor(targetTokens / 2),
    thresholdTokens: targetTokens,
    model: request.model,
  };
  rewrite(request.messages, pruneToolResults(input).messages);
  if (run.budget.measure(request) <= lowWaterTokens) return;
  const folded = foldTurns(
    { ...input, messages: request.messages, protectedTokens: 0 },
    lowWaterTokens,
    foldMarkerChars(lowWaterTokens),
  );
  rewrite(request.messages, folded.messages);
}

/** The last thing before giving up: the Compactor's drain and a truncated summary of the rest (the task included). */
async function drainAndTruncate(ctx: FitContext, targetTokens: number): Promise<void> {
  const { request, run } = ctx;
  const drained = await compactorStrategy().compact({
    messages: request.messages,
    estimateTokens: (list: readonly Message[]) => run.budget.measureWith(request, list),
    countMessage: (m: Message) => run.budget.messageTokens(m, request.model),
    contextWindow: Math.max(targetTokens, 1),
    protectedTokens: 0,
    thresholdTokens: targetTokens,
    model: request.model,
  });
  rewrite(request.messages, drained.messages);
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
  for (let i = latest + 1; i < messages.length; i++) if ((messages[i] as Message).role === 'tool') indices.push(i);
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
    cut++;
  });
  return cut;
}

/**
 * Gets the request down to `targetTokens`, in this order, stopping as soon as it fits:
 * the hooks' recover() (the compaction hook compacts harder), then without a model call:
 * prune old results and fold the oldest turns down to the low-water mark
 * (FIT_LOW_WATER_PERCENT of the target), cut the newest turn's own results, and last the
 * Compactor's drain and truncated summary. Throws LOUSHO_CONTEXT_OVERFLOW when even that is
 * not enough: such a request is never sent. Resolves to what it did.
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
  for (const hook of hooks.list()) {
    if (hook.recover === undefined) continue;
    await hook.recover({ request, run, reason, targetTokens, ...(emit === undefined ? {} : { emit }) });
    if (size() <= targetTokens) break;
  }
  if (size() > targetTokens) foldOldest(ctx, targetTokens, Math.floor(targetTokens * FIT_LOW_WATER_PERCENT));
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
  if (size() > targetTokens) await drainAndTruncate(ctx, targetTokens);
  if (cut > 0) {
    actions.push({
      kind: 'oversized-results',
      action: `cut ${cut} result(s) of the newest turn to fit ${targetTokens} tokens`,
    });
  }
  if (size() <= targetTokens) return actions;
  throw new LoushoError(
    'LOUSHO_CONTEXT_OVERFLOW',
    `The request does not fit: ${size()} tokens against a target of ${targetTokens}, even after compaction and cutting the newest ` +
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
  return `the images of message ${at}`;
}
