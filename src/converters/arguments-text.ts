import { parseToolArguments } from '../messages/tool-arguments.js';
import { argumentsText } from '../models/estimate-tokens.js';

/**
 * The JSON text a call's arguments were read from, when writing the parsed value again
 * would give other text (spaces, escapes): kept so that converting back sends the same
 * bytes, and a provider's prompt cache still matches. Undefined when nothing is lost.
 */
export function rawArguments(raw: unknown, parsed: unknown): string | undefined {
  return typeof raw === 'string' && argumentsText(parsed) !== raw ? raw : undefined;
}

/** The arguments as JSON text: the text they were read from while it still says the same, else written afresh. */
export function writeArguments(args: unknown, raw: string | undefined): string {
  const text = argumentsText(args);
  return raw !== undefined && argumentsText(parseToolArguments(raw)) === text ? raw : text;
}
