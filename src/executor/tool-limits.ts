import type { ModelResponse } from '../contracts/model-response.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { ToolCall } from '../messages/types.js';

/** The deepest nesting of objects and arrays a tool call's arguments may have. */
export const MAX_TOOL_ARGUMENT_DEPTH = 64;

/** The most characters a tool call's arguments may hold (string contents and keys counted). */
export const MAX_TOOL_ARGUMENT_CHARS = 1_000_000;

/** A tool result longer than this many characters is cut (see `Tool.maxResultChars`). About 500K tokens. */
export const DEFAULT_MAX_TOOL_RESULT_CHARS = 2_000_000;

/** The key of the arguments that stand in the transcript for arguments refused at the edge. */
const REFUSED = '[arguments refused]';

/**
 * What is wrong with a tool call's arguments, or undefined when they are within the limits.
 * Walks the value without recursion and stops at the first limit passed, so an argument
 * nested 10,000 deep or 100 MB long costs no more than the limit to check.
 */
export function toolArgumentsProblem(args: unknown): string | undefined {
  let chars = 0;
  const stack: { value: unknown; depth: number }[] = [{ value: args, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof value === 'string') chars += value.length;
    else if (typeof value === 'object' && value !== null) {
      if (depth >= MAX_TOOL_ARGUMENT_DEPTH)
        return `they are nested more than ${MAX_TOOL_ARGUMENT_DEPTH} levels deep (objects and arrays inside each other)`;
      for (const [key, item] of Object.entries(value)) {
        chars += key.length + 1;
        stack.push({ value: item, depth: depth + 1 });
      }
    } else chars += 8;
    if (chars > MAX_TOOL_ARGUMENT_CHARS)
      return `they are longer than ${MAX_TOOL_ARGUMENT_CHARS.toLocaleString('en-US')} characters`;
  }
  return undefined;
}

/**
 * The reply with each tool call whose arguments pass a limit given small stand-in arguments
 * naming the problem, so the transcript, its checkpoints and the next request stay sendable
 * and small; the tool step answers such a call with its LOUSHO_TOOL_ARGUMENTS_INVALID error.
 */
export function limitToolArguments(response: ModelResponse): ModelResponse {
  let changed = false;
  const toolCalls = response.toolCalls.map((call): ToolCall => {
    const problem = toolArgumentsProblem(call.arguments);
    if (problem === undefined) return call;
    changed = true;
    return { ...call, arguments: { [REFUSED]: problem } };
  });
  return changed ? { ...response, toolCalls } : response;
}

/** The error a call refused by limitToolArguments() gets (its message is what the model reads), else undefined. */
export function refusedArgumentsError(call: ToolCall): LoushoError | undefined {
  const args = call.arguments as Record<string, unknown> | null;
  const problem = typeof args === 'object' && args !== null ? args[REFUSED] : undefined;
  if (typeof problem !== 'string' || Object.keys(args as object).length !== 1) return undefined;
  return new LoushoError(
    'LOUSHO_TOOL_ARGUMENTS_INVALID',
    `The arguments of this call to ${call.name} were refused: ${problem}. The tool did not run, and the ` +
      `arguments were not kept. Call ${call.name} again with smaller, flatter arguments.`,
    { details: { tool: call.name, problem } },
  );
}

/**
 * A tool result of at most `max` characters: a longer one keeps its first part and ends with a
 * marker saying how much was cut, so the transcript (and a saved session) holds what the model reads.
 */
export function cutToolResult(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = `\n[cut: this result was ${text.length.toLocaleString('en-US')} characters; only the first ${max.toLocaleString('en-US')} are kept. Ask the tool for a smaller part if you need the rest.]`;
  let end = Math.max(0, max - marker.length);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // do not split a surrogate pair
  return text.slice(0, end) + marker;
}
