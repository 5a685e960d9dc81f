import { compactInRun } from '../compaction/compact-in-run.js';
import { fitTo, overflowRecoveryStrategy } from '../compaction/overflow-recovery.js';
import { effectiveProtectedTokens } from '../compaction/sizes.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { mediaMarker } from '../core/recovery.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { Transcript } from '../messages/transcript.js';
import { latestAssistantIndex } from '../messages/turns.js';
import type { ContentPart, ImagePart, Message } from '../messages/types.js';
import { afterHook, type HookRegistry } from './hook-registry.js';
import type { RunState } from './run-state.js';

export interface FitContext {
  request: ModelRequest;
  run: RunState;
  hooks: HookRegistry;
  emit: ((event: AgentEvent) => void) | undefined;
  /** False with `compaction: false`: a request that does not fit is refused, nothing compacted. */
  overflowRecovery: boolean;
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
  await compactInRun({
    request,
    run,
    emit,
    strategy: fitTo(overflowRecoveryStrategy(), targetTokens),
    tokensBefore: run.budget.measure(request),
    contextWindow: (await run.budget.contextWindow({ unknown: 'none' })) ?? targetTokens,
    thresholdTokens: targetTokens,
    protectedTokens: effectiveProtectedTokens(undefined, targetTokens).protectedTokens,
    trigger: 'overflow',
    quiet: false,
    onCompaction: undefined,
  });
}

/**
 * What the recovery did to the newest turn (its assistant message found by identity): how
 * many of its results it cut, and whether it changed anything before that turn.
 */
function cutResults(before: readonly Message[], after: readonly Message[]): { cut: number; older: boolean } {
  const latest = latestAssistantIndex(after);
  const was = latest < 0 ? -1 : before.indexOf(after[latest] as Message);
  if (was < 0) return { cut: 0, older: true };
  let cut = 0;
  for (let k = 1; latest + k < after.length; k++) if (after[latest + k] !== before[was + k]) cut++;
  const older = latest !== was || after.slice(0, latest).some((m, i) => m !== before[i]);
  return { cut, older };
}

/**
 * Gets a request that does not fit down to `targetTokens` through the overflow recovery (the
 * compaction hook's recover(), else the same recovery run here), whose last stage cuts the
 * newest turn's own results. Throws LOUSHO_CONTEXT_OVERFLOW when that is not enough, when
 * the compaction hook's overflowRecovery is off, or with `compaction: false` (nothing is
 * compacted then): such a request is never sent. Resolves to what it did.
 */
export async function fitRequest(
  ctx: FitContext,
  targetTokens: number,
  reason: 'context-overflow' | 'preflight',
): Promise<FitAction[]> {
  const { request, run, hooks, emit } = ctx;
  const size = () => run.budget.measure(request);
  const before = size();
  if (before <= targetTokens) return [];
  const messages = request.messages.slice();
  if (ctx.overflowRecovery) {
    const recovering = hooks.list().filter((hook) => hook.recover !== undefined);
    for (const hook of recovering) {
      await hook.recover?.({ request, run, reason, targetTokens, ...(emit === undefined ? {} : { emit }) });
      afterHook(hook, run.transcript);
      if (size() <= targetTokens) break;
    }
    if (recovering.length === 0) await recoverWithoutHook(ctx, targetTokens);
  }
  const after = size();
  const actions: FitAction[] = [];
  const { cut, older } = cutResults(messages, request.messages);
  if (after < before && (older || cut === 0))
    actions.push({ kind: 'oversized-request', action: `compacted the request from ${before} to ${after} tokens` });
  if (cut > 0)
    actions.push({
      kind: 'oversized-results',
      action: `cut ${cut} result(s) of the newest turn to fit ${targetTokens} tokens`,
    });
  if (after <= targetTokens) return actions;
  // What the provider counts beyond the messages we see is said apart: it cannot be compacted.
  const hidden = run.budget.calibration;
  const counted =
    hidden > 0
      ? `${after} tokens by the provider's count (${after - hidden} by our estimate of the messages, tools and schema; the provider counts ${hidden} more)`
      : `${after} tokens`;
  const tried = ctx.overflowRecovery
    ? 'even after compaction and cutting the newest tool results. The system prompt, the tool definitions or the newest messages alone are too large for the context window; shorten them or use a model with a larger window.'
    : 'and compaction is off (compaction: false), so nothing was compacted. Turn compaction on (compaction: true), or shorten the conversation.';
  throw new LoushoError(
    'LOUSHO_CONTEXT_OVERFLOW',
    `The request does not fit: ${counted} against a target of ${targetTokens}, ${tried}`,
    {
      details: { requested: after, limit: targetTokens },
    },
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
export function replaceRejectedMedia(transcript: Transcript, error: unknown): string | undefined {
  const messages = transcript.messages;
  const named = LoushoError.isInstance(error) ? error.details?.messageIndex : undefined;
  const describe = (at: number) => (part: ImagePart, k: number) =>
    `${part.mediaType ?? 'image'}, ${Math.round(imageBytes(part) / 1024)} KB, image ${k + 1} of message ${at}`;
  if (typeof named === 'number' && messages[named] !== undefined) {
    const replaced = withoutImages(messages[named] as Message, describe(named));
    if (replaced !== undefined) {
      transcript.replace(named, replaced);
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
  transcript.replace(at, withoutImages(messages[at] as Message, describe(at)) as Message);
  return `the images of message ${at}`;
}
