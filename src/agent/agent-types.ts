import type { CompactionConfig } from '../compaction/compaction-options.js';
import type { AgentEventListener } from '../contracts/agent-event.js';
import type { AgentHook } from '../contracts/agent-hook.js';
import type { AgentResult } from '../contracts/agent-result.js';
import type { LLMProvider, ModelSpec } from '../contracts/llm-provider.js';
import type { ReasoningOptions } from '../contracts/model-request.js';
import type { Summarizer } from '../core/summarizer.js';
import type { AgentDefinition, AgentInput } from '../executor/agent-executor.js';
import type { ToolApproval } from '../executor/approvals.js';
import type { HookRegistry } from '../executor/hook-registry.js';
import type { AgentLimits } from '../executor/limits.js';
import type { AgentStream } from '../executor/stream-run.js';
import type { OutputSchema } from '../executor/structured-output.js';
import type { Tool } from '../executor/tool.js';
import type { ToolRegistry } from '../executor/tool-registry.js';
import type { McpServerConfig } from '../mcp/mcp-server-config.js';
import type { AgentMcp } from '../mcp/mcp-server-handle.js';
import type { Message } from '../messages/types.js';
import type { SessionStore } from '../sessions/store.js';

export type { CompactionConfig };

import type { AgentSession } from './agent-session.js';
import type { ToolSearchOptions } from './tool-search.js';

/** Options of createAgent(): the model (or provider), and everything else the agent does. */
export interface CreateAgentOptions {
  /** The model: a "provider/model" spec such as 'openai/gpt-4o', or an LLMProvider. */
  model?: ModelSpec;
  /** The model as an LLMProvider (same as passing one as `model`). */
  provider?: LLMProvider;
  /** The agent's name, given to each run's trace span. */
  name?: string;
  /** The system prompt. */
  instructions?: string;
  /** The tools the model may call; their names must be unique. */
  tools?: Tool<unknown, unknown>[];
  /** Hooks that run before each model call; they run before the compaction hook. */
  hooks?: AgentHook[];
  /** true: compact with the defaults (prune above 90% of the window); an object configures it. */
  compaction?: boolean | CompactionConfig;
  /**
   * Shorthand for `compaction: { summarizer }`: the summarizer of old turns, typically a cheaper
   * model than the agent's own — a "provider/model" spec, an LLMProvider, an LLMSummarizer or a
   * TruncatingSummarizer. It turns compaction on (two-phase: prune, then summarize).
   */
  summarizer?: ModelSpec | Summarizer<Message>;
  /** Budgets of each run (steps, tokens, cost); reaching one ends it with LOUSHO_LIMIT_EXCEEDED. */
  limits?: AgentLimits;
  /** Receives every event of every run (send() included). */
  onEvent?: AgentEventListener;
  /** Send one search tool instead of the tool definitions when they would take too much of the window. */
  toolSearch?: boolean | ToolSearchOptions;
  /**
   * The final answer must be JSON matching this schema: a Standard Schema validator (zod 4,
   * valibot) or a JSON Schema (jsonSchema<T>() types it). The provider receives it as JSON Schema
   * in its structured-output form; result.output is the parsed, validated value. A reply that does
   * not match is asked for once more with the problems, then the run fails with LOUSHO_OUTPUT_INVALID.
   */
  outputSchema?: OutputSchema;
  /** maxOutputTokens of each model call. */
  maxOutputTokens?: number;
  /** Sampling temperature of each model call; the provider's default when absent. */
  temperature?: number;
  /**
   * MCP servers whose tools the agent may call: stdio servers `{ name, command, args?, env?, cwd? }`
   * and streamable-HTTP servers `{ name, url, headers? }`, connected on the first run (the
   * optional peer `@modelcontextprotocol/sdk` is loaded then). `prefix` renames a server's tools.
   * agent.close() ends them; each session has servers of its own, which session.close() ends.
   */
  mcpServers?: McpServerConfig[];
  /**
   * Reasoning of each model call: `{ effort }` for OpenAI's reasoning models, `{ budgetTokens }`
   * for Anthropic's extended thinking. Each provider reads its own field.
   */
  reasoning?: ReasoningOptions;
}

/**
 * What createAgent() takes, under the name the core's documentation uses ("AgentConfig.summarizer"):
 * the same type as CreateAgentOptions.
 */
export type AgentConfig = CreateAgentOptions;

/** Options of one send() or stream(). */
export interface RunOptions {
  /** Ends the run with LOUSHO_ABORTED as soon as it fires. */
  abortSignal?: AbortSignal;
  /** Receives this run's events (besides createAgent({ onEvent })). */
  onEvent?: AgentEventListener;
  /**
   * Decisions on the calls a run stopped before (result.pendingApprovals), by toolCallId: pass
   * them with the run's transcript to continue it, `agent.send(result.messages, { approvals: { [id]: true } })`.
   */
  approvals?: Readonly<Record<string, ToolApproval>>;
  /** Reasoning of this run's model calls, in place of createAgent({ reasoning }) (e.g. `{ effort: 'high' }` for a hard task). */
  reasoning?: ReasoningOptions;
}

/** An agent: send() runs it to the end, stream() reports each event as it happens. `Output`: the type of result.output. */
export interface Agent<Output = unknown> extends AgentDefinition {
  /** Runs the agent on `input` and resolves to the result. */
  send(input: AgentInput, options?: RunOptions): Promise<AgentResult<Output>>;
  /** Runs the agent and yields its events; `.result` resolves to the result. */
  stream(input: AgentInput, options?: RunOptions): AgentStream;
  /** The tools, by name. */
  readonly tools: ToolRegistry;
  /** The hooks in the order they run (the compaction hook last). */
  readonly hooks: HookRegistry;
  /** The model, resolved on first use. */
  provider(): LLMProvider;
  /**
   * The agent's MCP servers, for what their tools do not cover: `agent.mcp.server('files')`
   * lists and reads resources and prompts and finishes an OAuth authorization (the agent's own
   * connections, not its sessions').
   */
  readonly mcp: AgentMcp;
  /**
   * Ends the MCP servers the agent started, its sessions' included (and its connections to the
   * others); a later run connects again. `await using agent = createAgent(...)` calls it at the end of the block.
   */
  close(): Promise<void>;
  /** close(), for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
  /**
   * A conversation that lasts across turns, saved to a store (in memory by default).
   * `compaction` takes the same value as createAgent({ compaction }) and replaces the
   * agent's own for this session. Its turns use MCP servers of their own, which session.close()
   * (or `await using`) ends.
   */
  session(options?: AgentSessionOptions): AgentSession;
}

/** Options of agent.session(). */
export interface AgentSessionOptions {
  /** The session's id in its store; a new random id when absent. */
  id?: string;
  /** Where the transcript is saved; a MemorySessionStore when absent. */
  store?: SessionStore;
  /** The session's compaction (same value as createAgent({ compaction })); the agent's when absent. */
  compaction?: boolean | CompactionConfig;
  /** How long the session's lease lasts unless renewed, in ms (DEFAULT_LEASE_MS, 30 s, when absent). */
  leaseMs?: number;
}
