import {
  type CompactionSizes,
  type CompactMessagesResult,
  compactionSizes,
  compactMessages,
  modelOf,
} from '../compaction/compact-messages.js';
import { createRequestBudget } from '../compaction/request-budget.js';
import { resolveCompaction } from '../compaction/resolve-compaction.js';
import { DEFAULT_PROTECTED_TOKENS } from '../compaction/sizes.js';
import type { CompactionStrategy } from '../compaction/types.js';
import type { Message } from '../messages/types.js';
import { type CountedFile, transcriptTokens } from './transcript-count.js';

/** The window, threshold and protected tail `inspect` previews with and `compact` runs with: one set of defaults for both. */
export interface CliCompactionSizes extends CompactionSizes {
  /** Where the window came from: --context-window, the model (its table entry, or a local server's loaded window), or the 128,000 assumed for an unknown model. */
  contextWindowSource: 'option' | 'model' | 'fallback';
  /** --protected-tokens, or the default (40,000 tokens, at most half the threshold). */
  protectedSource: 'option' | 'default';
}

/**
 * The sizes of a compaction from the command line: compactionSizes(), which
 * compactMessages() works them out with (the window from the option, else the model's,
 * a local server's included, else 128,000; the protected tail from the option, else the
 * default capped at half the threshold), and where each came from.
 */
export async function cliCompactionSizes(
  command: 'inspect' | 'compact',
  model: string | undefined,
  options: { contextWindow?: number; thresholdPercent?: number; protectedTokens?: number },
): Promise<CliCompactionSizes> {
  const { id, provider } = modelOf(model);
  const budget = createRequestBudget({ model: id ?? '', provider });
  const known = options.contextWindow === undefined ? await budget.contextWindow({ unknown: 'none' }) : undefined;
  const sizes = await compactionSizes(resolveCompaction(options, `lousho ${command}`), budget);
  return {
    ...sizes,
    contextWindowSource: options.contextWindow !== undefined ? 'option' : known !== undefined ? 'model' : 'fallback',
    protectedSource: options.protectedTokens === undefined ? 'default' : 'option',
  };
}

/** "protected tail: the newest 40,000 tokens (the default: 40,000, at most half the threshold)". */
export function describeProtectedTail(sizes: Pick<CliCompactionSizes, 'protectedTokens' | 'protectedSource'>): string {
  const n = sizes.protectedTokens.toLocaleString('en-US');
  const why =
    sizes.protectedSource === 'option'
      ? '--protected-tokens'
      : `the default: ${DEFAULT_PROTECTED_TOKENS.toLocaleString('en-US')}, at most half the threshold`;
  return `protected tail: the newest ${n} tokens stay as they are (${why})`;
}

/**
 * One compaction of a transcript file from the command line: what `lousho compact` does and
 * `lousho inspect` previews, one call for both. compactMessages() runs on the file's messages
 * as read (so what is written back is them, compacted); the sizes before and after are the
 * commands' one count (transcriptTokens(): the tool definitions the file holds and what
 * its converter carries in metadata included), where compactMessages() sizes the messages alone.
 */
export async function compactFile(
  file: CountedFile & { messages: Message[] },
  options: {
    strategy: CompactionStrategy;
    model: string;
    contextWindow: number;
    protectedTokens: number;
    thresholdPercent?: number;
  },
): Promise<CompactMessagesResult> {
  const result = await compactMessages(file.messages, options);
  return {
    ...result,
    tokensBefore: transcriptTokens(file, options.model),
    tokensAfter: transcriptTokens({ ...file, messages: result.messages }, options.model),
  };
}
