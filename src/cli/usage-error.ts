import { joinedSentences } from '../errors/lousho-error.js';

/**
 * A mistake on the command line (an unknown command, option or file): printed as one line
 * that names it and says what to do, with exit code 2 and no stack.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';

  constructor(message: string) {
    super(joinedSentences(message));
  }
}

/** Whether `error` is a command-line mistake. */
export function isUsageError(error: unknown): error is UsageError {
  return error instanceof UsageError;
}
