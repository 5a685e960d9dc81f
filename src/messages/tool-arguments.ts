/**
 * The arguments of a tool call as the model wrote them: JSON text parsed; {} when empty;
 * the text itself when it is not JSON (argument validation then reports it to the model,
 * and the step loop treats it as a call cut at the output limit). A value that is already
 * parsed is kept.
 */
export function parseToolArguments(input: unknown): unknown {
  if (typeof input !== 'string') return input ?? {};
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/**
 * Tool-call arguments as an object, as APIs that take a JSON object want them (Anthropic's
 * tool_use input): JSON text parsed, anything that is not an object {}.
 */
export function toolArgumentsObject(args: unknown): Record<string, unknown> {
  const value = parseToolArguments(args);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
