import { randomUUID } from 'node:crypto';
import type { AgentEventListener } from '../contracts/agent-event.js';
import type { AgentResult } from '../contracts/agent-result.js';
import type { LLMProvider, ModelSpec } from '../contracts/llm-provider.js';
import { checkNumber, checkOptions, describe } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';
import { type AgentInput, type ExecuteParams, executeRun } from '../executor/agent-executor.js';
import { HookRegistry } from '../executor/hook-registry.js';
import { checkLimits } from '../executor/limits.js';
import { streamRun } from '../executor/stream-run.js';
import { type OutputSchema, outputSpecOf } from '../executor/structured-output.js';
import type { InferSchema, Tool } from '../executor/tool.js';
import { ToolRegistry } from '../executor/tool-registry.js';
import { checkMcpServers } from '../mcp/mcp-server-check.js';
import { agentMcp } from '../mcp/mcp-server-handle.js';
import { McpToolSet } from '../mcp/mcp-tools.js';
import { resolveProvider } from '../providers/resolve-provider.js';
import { MemorySessionStore } from '../sessions/store.js';
import { checkCreateAgentOptions, checkPriceKnown, checkRunOptions } from './agent-options.js';
import { AgentSession } from './agent-session.js';
import type { Agent, AgentSessionOptions, CreateAgentOptions, RunOptions } from './agent-types.js';
import { compactionOptionsFor, hookFor, recallToolsFor, withSummarizer } from './compaction-option.js';
import { checkToolSearch, createToolSearch } from './tool-search.js';

/**
 * Creates an agent.
 *
 * @example
 * const agent = createAgent({ model: 'openai/gpt-4o', tools, compaction: { summarizer: 'openai/gpt-4o-mini' } });
 * const { text, usage } = await agent.send('Audit the repository.');
 */
export function createAgent<const S extends OutputSchema | undefined = undefined>(
  // Omit: intersecting a schema type with OutputSchema's union made tsc instantiate arktype's types too deep (TS2589).
  options: Omit<CreateAgentOptions, 'outputSchema'> & { outputSchema?: S },
): Agent<InferSchema<S>> {
  const spec = checkCreateAgentOptions(options as CreateAgentOptions);
  outputSpecOf(options.outputSchema); // a schema that cannot become JSON Schema fails here, not at the first call
  const limits = checkLimits(options.limits);
  if (limits.maxCostUsd !== undefined) checkPriceKnown(typeof spec === 'string' ? spec : spec.modelId);
  const agentCompaction = compactionOptionsFor(withSummarizer(options.compaction, options.summarizer));
  const tools = new ToolRegistry([...(options.tools ?? []), ...recallToolsFor(agentCompaction)]);
  const hooks = new HookRegistry(options.hooks ?? []);
  const compactionHook = hookFor(agentCompaction);
  if (compactionHook !== undefined) hooks.register(compactionHook);
  const mcpServers = checkMcpServers(options.mcpServers);
  /** The model that answers MCP servers' sampling requests: the entry's sampling.model, else the agent's. */
  const samplingModel = (model: ModelSpec | undefined) =>
    model === undefined ? getProvider() : resolveProvider(model);
  const mcp = new McpToolSet(
    mcpServers,
    tools.list().map((t) => t.name),
    samplingModel,
  );
  const mcpTools = async (signal?: AbortSignal): Promise<Tool<unknown, unknown>[]> =>
    mcp.size === 0 ? [] : mcp.tools(signal);
  /** The MCP tool sets of sessions whose turns connected them, until the session's close() (agent.close() ends them all). */
  const sessionSets = new Set<McpToolSet>();
  const search = checkToolSearch(options.toolSearch);
  const toolSearch = search === undefined ? undefined : createToolSearch(search);
  let provider: LLMProvider | undefined;
  const getProvider = () => {
    provider ??= resolveProvider(spec);
    return provider;
  };

  const params = (
    input: AgentInput,
    run: RunOptions & Pick<ExecuteParams, 'onCheckpoint' | 'cacheKey' | 'overflowRecovery'> = {},
    runHooks: HookRegistry = hooks,
    extraTools: Tool<unknown, unknown>[] = [],
  ): ExecuteParams => {
    const listeners = [options.onEvent, run.onEvent].filter((l): l is AgentEventListener => l !== undefined);
    // A session's own recall tool replaces the agent's (each reads its own store).
    const kept = tools.list().filter((t) => !extraTools.some((e) => e.name === t.name));
    let registry = extraTools.length === 0 ? tools : new ToolRegistry([...kept, ...extraTools]);
    let selectTools: ExecuteParams['selectTools'];
    if (toolSearch !== undefined) {
      const state = toolSearch.forRun();
      registry = new ToolRegistry([...registry.list(), state.tool as Tool<unknown, unknown>]);
      selectTools = (runState, all) => toolSearch.select(runState, all, state);
    }
    return {
      agent: run.reasoning === undefined ? agent : { ...agent, reasoning: run.reasoning },
      input,
      provider: getProvider(),
      toolRegistry: registry,
      hooks: runHooks,
      ...(listeners.length === 0 ? {} : { onEvent: listeners }),
      ...(run.abortSignal === undefined ? {} : { abortSignal: run.abortSignal }),
      ...(run.approvals === undefined ? {} : { approvals: run.approvals }),
      ...(run.onCheckpoint === undefined ? {} : { onCheckpoint: run.onCheckpoint }),
      ...(run.cacheKey === undefined ? {} : { cacheKey: run.cacheKey }),
      ...((run.overflowRecovery ?? options.compaction !== false) ? {} : { overflowRecovery: false }),
      ...(selectTools === undefined ? {} : { selectTools }),
    };
  };

  const agent: Agent<InferSchema<S>> = {
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    limits,
    ...(options.outputSchema === undefined ? {} : { outputSchema: options.outputSchema }),
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.reasoning === undefined ? {} : { reasoning: options.reasoning }),
    tools,
    hooks,
    provider: getProvider,
    mcp: agentMcp(
      mcp,
      mcpServers.map((s) => s.name),
    ),
    send: async (input, run) => {
      checkRunOptions(run);
      const ownTools = await mcpTools(run?.abortSignal);
      return executeRun(params(input, run, hooks, ownTools), undefined) as Promise<AgentResult<InferSchema<S>>>;
    },
    stream: (input, run) => {
      checkRunOptions(run);
      return streamRun(async (emit) => executeRun(params(input, run, hooks, await mcpTools(run?.abortSignal)), emit));
    },
    close: async () => {
      const sets = [mcp, ...sessionSets];
      sessionSets.clear();
      await Promise.all(sets.map((set) => set.close()));
    },
    [Symbol.asyncDispose]: () => agent.close(),
    session(sessionOptions = {}) {
      checkOptions<AgentSessionOptions>(sessionOptions, 'agent.session()', ['id', 'store', 'compaction', 'leaseMs']);
      const id = sessionOptions.id;
      if (id !== undefined && (typeof id !== 'string' || id.trim() === '')) {
        throw configError(`agent.session(): id must be a non-empty string, got ${describe(id)}.`, { option: 'id' });
      }
      checkNumber(sessionOptions.leaseMs, 'leaseMs', 'agent.session()', { min: 1 });
      const own = sessionOptions.compaction === undefined ? undefined : compactionOptionsFor(sessionOptions.compaction);
      let sessionHooks = hooks;
      const sessionTools = recallToolsFor(own);
      // A session's turns use MCP servers of their own, which its close() ends.
      const ownMcp =
        mcpServers.length === 0
          ? undefined
          : new McpToolSet(
              mcpServers,
              [...tools.list(), ...sessionTools].map((t) => t.name),
              samplingModel,
            );
      const ownMcpTools = async (signal: AbortSignal | undefined) => {
        if (ownMcp === undefined) return [];
        sessionSets.add(ownMcp);
        return ownMcp.tools(signal);
      };
      if (sessionOptions.compaction !== undefined) {
        sessionHooks = new HookRegistry(options.hooks ?? []);
        const hook = hookFor(own);
        if (hook !== undefined) sessionHooks.register(hook);
      }
      const close = async () => {
        if (ownMcp === undefined) return;
        sessionSets.delete(ownMcp);
        await ownMcp.close();
      };
      const sessionId = sessionOptions.id ?? randomUUID();
      return new AgentSession(
        {
          id: sessionId,
          store: sessionOptions.store ?? new MemorySessionStore(),
          ...(sessionOptions.leaseMs === undefined ? {} : { leaseMs: sessionOptions.leaseMs }),
          runner: {
            run: async (messages, turn, emit) => {
              // Every turn of the session routes the provider's prompt cache by the session's id.
              const run = {
                ...turn,
                cacheKey: sessionId,
                ...(sessionOptions.compaction === undefined
                  ? {}
                  : { overflowRecovery: sessionOptions.compaction !== false }),
              };
              return executeRun(
                params(messages, run, sessionHooks, [...sessionTools, ...(await ownMcpTools(turn.abortSignal))]),
                emit,
              );
            },
            provider: getProvider,
            compaction: sessionOptions.compaction === undefined ? agentCompaction : own,
            instructions: options.instructions,
            tool: (name) => tools.get(name) ?? ownMcp?.listed().find((t) => t.name === name),
          },
        },
        close,
      );
    },
  };
  return agent;
}
