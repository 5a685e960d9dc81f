import type { ToolDefinition } from '../contracts/tool-definition.js';
import { withProviderParts } from '../converters/provider-items.js';
import type { Message } from '../messages/types.js';
import { messageTokens, requestFixedTokens, tokenProfile } from '../models/estimate-tokens.js';
import { holdsProviderCompaction } from '../models/provider-billing.js';

/** What the commands count of a transcript file: its messages and the tool definitions it holds. */
export interface CountedFile {
  messages: readonly Message[];
  tools?: readonly ToolDefinition[] | undefined;
}

/** The model a command counts with when neither --model nor the file names one. */
export const DEFAULT_COUNTING_MODEL = 'gpt-4o';

/** The model inspect, compact and report count with: --model, else the model the file names, else gpt-4o. */
export function countingModel(option: unknown, named: string | undefined): string {
  return typeof option === 'string' ? option : (named ?? DEFAULT_COUNTING_MODEL);
}

/** A transcript's requests as the provider bills them, message by message. */
export interface RequestSizes {
  /** What every request holds beyond its messages: the framing, and the tool definitions with the provider's tool-use prompt. */
  fixed: number;
  /** `before[i]`: the size of the request of the file's messages 0..i-1; `before[n]` is the whole transcript's, the total. */
  before: number[];
  /** The same, had the newest provider's compaction before it not happened (what that one superseded counted again). */
  uncompacted: number[];
  /** The messages as the provider reads them (see {@link requestSizes}), each with the index of the file's message it comes from. */
  billed: { message: Message; from: number }[];
}

/**
 * The one count of `lousho inspect`, `compact` and `report`: the request a transcript file
 * makes as the provider bills it, after each of its messages. It counts every message (the
 * system prompt when the file holds one) with the chat format's framing, the tool
 * definitions the file holds (a request body's) with the system prompt Anthropic adds for
 * tools, the request's framing, and what a converter carries in metadata so that it goes
 * back unchanged: Responses reasoning and compaction items and Anthropic compaction blocks,
 * lifted into parts (withProviderParts()) and counted as estimateTokens() counts them
 * (encrypted reasoning by its size). A provider's compaction supersedes what came before it
 * but the system prompt, as in estimateTokens(), which gives the same total.
 */
export function requestSizes(file: CountedFile, model: string): RequestSizes {
  const profile = tokenProfile(model);
  const fixed = requestFixedTokens(file.tools === undefined ? {} : { tools: file.tools }, profile);
  const before = [fixed];
  const uncompacted = [fixed];
  const billed: RequestSizes['billed'] = [];
  let sum = 0;
  let all = 0;
  let system = 0;
  for (const [from, message] of file.messages.entries()) {
    for (const part of withProviderParts([message])) {
      const own = messageTokens(part, profile);
      if (holdsProviderCompaction(part)) {
        all = sum; // the request as it was before this compaction
        sum = system;
      }
      sum += own;
      all += own;
      if (part.role === 'system') system += own;
      billed.push({ message: part, from });
    }
    before.push(fixed + sum);
    uncompacted.push(fixed + all);
  }
  return { fixed, before, uncompacted, billed };
}

/** The total of {@link requestSizes}: the size of the request the whole transcript makes. */
export function transcriptTokens(file: CountedFile, model: string): number {
  return requestSizes(file, model).before.at(-1) as number;
}
