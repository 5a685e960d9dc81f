import type { Context } from '@opentelemetry/api';
import type { AgentEvent } from '../contracts/agent-event.js';
import { abortedError, LoushoError, toError } from '../errors/lousho-error.js';
import { contentText } from '../messages/content.js';
import type { ToolCall, ToolMessage } from '../messages/types.js';
import { inToolSpan } from '../telemetry/tracing.js';
import type { ToolContext } from './tool.js';
import { cutToolContent, isToolContent } from './tool-content.js';
import { cutToolResult, DEFAULT_MAX_TOOL_RESULT_CHARS, refusedArgumentsError } from './tool-limits.js';
import type { ToolRegistry } from './tool-registry.js';
import { validateToolArguments } from './tool-registry.js';

/** The text a tool result is sent as: strings as they are, anything else as JSON. */
export function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** What a tool run gives: the result message's content, and whether it is an error. */
interface Outcome {
  text: ToolMessage['content'];
  isError: boolean;
}

async function runOne(
  call: ToolCall,
  tools: ToolRegistry,
  abortSignal: AbortSignal | undefined,
  run: Pick<ToolContext, 'runId' | 'step' | 'emit'>,
): Promise<Outcome> {
  const tool = tools.get(call.name);
  if (tool === undefined) {
    const known = tools
      .list()
      .map((t) => t.name)
      .join(', ');
    return {
      text: `Error: there is no tool named '${call.name}'. Available tools: ${known || 'none'}.`,
      isError: true,
    };
  }
  const refused = refusedArgumentsError(call);
  if (refused !== undefined) return { text: `Error: ${refused.message}`, isError: true };
  const checked = await validateToolArguments(tool, call.arguments);
  if (!checked.ok) {
    return {
      text: `Error: invalid arguments for ${call.name}: ${checked.problems.join('; ')}. Fix the arguments and call the tool again.`,
      isError: true,
    };
  }
  try {
    if (abortSignal?.aborted === true) throw abortedError();
    const value = await tool.execute(checked.value as never, {
      toolCallId: call.id,
      ...(abortSignal === undefined ? {} : { abortSignal }),
      ...run,
    });
    const max = tool.maxResultChars ?? DEFAULT_MAX_TOOL_RESULT_CHARS;
    const text = isToolContent(value) ? cutToolContent(value.parts, max) : cutToolResult(resultText(value), max);
    return { text, isError: false };
  } catch (error) {
    // A tool's server that is gone ends the run with its typed error; any other failure is the model's to read.
    if (LoushoError.isInstance(error) && error.code === 'LOUSHO_MCP_SERVER_FAILED') throw error;
    const text = `Error: ${toError(error).message}`;
    return { text: cutToolResult(text, tool.maxResultChars ?? DEFAULT_MAX_TOOL_RESULT_CHARS), isError: true };
  }
}

/**
 * Runs the tool calls of one assistant turn concurrently and resolves to their result
 * messages in call order. A missing tool, invalid or refused arguments (see limitToolArguments)
 * or a throwing tool become an error result the model can read. A result longer than the
 * tool's maxResultChars (DEFAULT_MAX_TOOL_RESULT_CHARS) is cut with a marker. Only an MCP
 * server that is gone rejects.
 */
export async function runToolCalls(
  calls: readonly ToolCall[],
  tools: ToolRegistry,
  options: {
    abortSignal: AbortSignal | undefined;
    emit: ((event: AgentEvent) => void) | undefined;
    runId: string;
    step: number;
    /** The run's trace context, parent of the tool spans. */
    trace?: Context | undefined;
    /** Awaited with each result as soon as its call finishes (a session saves it there). */
    onResult?: ((message: ToolMessage) => Promise<void>) | undefined;
  },
): Promise<ToolMessage[]> {
  const { emit, runId, step } = options;
  return Promise.all(
    calls.map(async (call) => {
      emit?.({ type: 'tool.start', runId, step, toolCall: call });
      const context = { runId, step, ...(emit === undefined ? {} : { emit }) };
      const { text, isError } = await inToolSpan(options.trace, call, () =>
        runOne(call, tools, options.abortSignal, context),
      );
      const result = contentText(text);
      emit?.({ type: 'tool.done', runId, step, toolCallId: call.id, toolName: call.name, result, isError });
      const message: ToolMessage = { role: 'tool', toolCallId: call.id, toolName: call.name, content: text };
      if (isError) message.isError = true;
      await options.onResult?.(message);
      return message;
    }),
  );
}
