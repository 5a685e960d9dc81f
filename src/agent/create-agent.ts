import { randomUUID } from 'node:crypto';
import { type CompactionHookOptions, createCompactionHook } from '../compaction/compaction-hook.js';
import { pruneToolResultsStrategy } from '../compaction/prune-tool-results.js';
import { MemoryPrunedResultStore } from '../compaction/pruned-store.js';
import { twoPhaseStrategy } from '../compaction/two-phase.js';
import type { CompactionStrategy } from '../compaction/types.js';
import type { AgentEventListener } from '../contracts/agent-event.js';
import type { AgentHook } from '../contracts/agent-hook.js';
import type { AgentResult } from '../contracts/agent-result.js';
import type { JSONSchema } from '../contracts/json-schema.js';
import type { LLMProvider, ModelSpec } from '../contracts/llm-provider.js';
import { isSummarizer, type Summarizer } from '../core/summarizer.js';
import { configError } from '../errors/lousho-error.js';
import { type AgentDefinition, type AgentInput, type ExecuteParams, executeRun } from '../executor/agent-executor.js';
import { HookRegistry } from '../executor/hook-registry.js';
import { type AgentLimits, checkLimits } from '../executor/limits.js';
import { type AgentStream, streamRun } from '../executor/stream-run.js';
import type { Tool } from '../executor/tool.js';
import { ToolRegistry } from '../executor/tool-registry.js';
import type { Message } from '../messages/types.js';
import { isLLMProvider, resolveProvider } from '../providers/resolve-provider.js';
import { Session } from '../sessions/session.js';
import { MemorySessionStore, type SessionStore } from '../sessions/store.js';
import { recallTool } from './recall-tool.js';
import { checkToolSearch, createToolSearch, type ToolSearchOptions } from './tool-search.js';

/** createAgent({ compaction }) as an object: the hook's options, plus `summarizer`. */
export interface CompactionConfig extends CompactionHookOptions {
  /**
   * The summarizer, typically a cheaper model than the agent's: a "provider/model" spec or an
   * LLMProvider selects twoPhaseStrategy({ model: summarizer }); a Summarizer (an LLMSummarizer or a
   * TruncatingSummarizer) selects twoPhaseStrategy({ summarizer }). Cannot be combined with `strategy`.
   */
  summarizer?: ModelSpec | Summarizer<Message>;
}

export interface CreateAgentOptions {
  /** The model: a "provider/model" spec such as 'openai/gpt-4o', or an LLMProvider. */
  model?: ModelSpec;
  /** The model as an LLMProvider (same as passing one as `model`). */
  provider?: LLMProvider;
  name?: string;
  /** The system prompt. */
  instructions?: string;
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
  limits?: AgentLimits;
  /** Receives every event of every run (send() included). */
  onEvent?: AgentEventListener;
  /** Send one search tool instead of the tool definitions when they would take too much of the window. */
  toolSearch?: boolean | ToolSearchOptions;
  /** The final answer must be JSON matching this schema. */
  outputSchema?: JSONSchema;
  /** maxOutputTokens of each model call. */
  maxOutputTokens?: number;
  temperature?: number;
}

/** Options of one send() or stream(). */
export interface RunOptions {
  abortSignal?: AbortSignal;
  /** Receives this run's events (besides createAgent({ onEvent })). */
  onEvent?: AgentEventListener;
}

/** An agent: send() runs it to the end, stream() reports each event as it happens. */
export interface Agent extends AgentDefinition {
  /** Runs the agent on `input` and resolves to the result. */
  send(input: AgentInput, options?: RunOptions): Promise<AgentResult>;
  /** Runs the agent and yields its events; `.result` resolves to the result. */
  stream(input: AgentInput, options?: RunOptions): AgentStream;
  /** The tools, by name. */
  readonly tools: ToolRegistry;
  /** The hooks in the order they run (the compaction hook last). */
  readonly hooks: HookRegistry;
  /** The model, resolved on first use. */
  provider(): LLMProvider;
  /**
   * A conversation that lasts across turns, saved to a store (in memory by default).
   * `compaction` takes the same value as createAgent({ compaction }) and replaces the
   * agent's own for this session.
   */
  session(options?: AgentSessionOptions): Session;
}

/** Options of agent.session(). */
export interface AgentSessionOptions {
  /** The session's id in its store; a new random id when absent. */
  id?: string;
  /** Where the transcript is saved; a MemorySessionStore when absent. */
  store?: SessionStore;
  /** The session's compaction (same value as createAgent({ compaction })); the agent's when absent. */
  compaction?: boolean | CompactionConfig;
}

const COMPACTION_KEYS = new Set([
  'strategy',
  'thresholdPercent',
  'contextWindow',
  'protectedTokens',
  'reserveOutputTokens',
  'onCompaction',
  'summarizer',
  'mode',
  'recall',
]);

/**
 * What a compaction option (createAgent's, or a session's) stands for: the hook's options
 * with the strategy resolved (a summarizer selects twoPhaseStrategy()), or undefined when it
 * is off. Throws LOUSHO_CONFIG_INVALID on a bad value.
 */
export function compactionOptionsFor(
  compaction: unknown,
): (CompactionHookOptions & { strategy: CompactionStrategy }) | undefined {
  if (compaction === undefined || compaction === false) return undefined;
  if (compaction === true) return { strategy: pruneToolResultsStrategy() };
  if (typeof compaction !== 'object' || compaction === null) {
    throw configError(
      'compaction must be true, false or an object such as { thresholdPercent: 0.8, summarizer: "openai/gpt-4o-mini" }.',
    );
  }
  const unknown = Object.keys(compaction).filter((k) => !COMPACTION_KEYS.has(k));
  if (unknown.length > 0) {
    throw configError(
      `compaction has unknown option ${unknown.map((k) => `'${k}'`).join(', ')}; it takes ${[...COMPACTION_KEYS].join(', ')}.`,
    );
  }
  const { summarizer, strategy, ...rest } = compaction as CompactionConfig;
  if (summarizer !== undefined && strategy !== undefined) {
    throw configError(
      'compaction: summarizer and strategy cannot be combined. Pass strategy: twoPhaseStrategy({ model }) instead of summarizer, or drop strategy.',
    );
  }
  const resolved =
    strategy ??
    (summarizer === undefined
      ? pruneToolResultsStrategy()
      : isSummarizer(summarizer)
        ? twoPhaseStrategy({ summarizer })
        : twoPhaseStrategy({ model: summarizer }));
  // One store for the hook and the recall tool the agent registers.
  const recall = rest.recall === true ? new MemoryPrunedResultStore() : rest.recall;
  return { ...rest, ...(recall === undefined ? {} : { recall }), strategy: resolved };
}

/** The recall tool a compaction option needs registered, if any. */
function recallToolsFor(compaction: CompactionHookOptions | undefined): Tool<unknown, unknown>[] {
  const store = compaction?.recall;
  return typeof store === 'object' && store !== null ? [recallTool(store) as unknown as Tool<unknown, unknown>] : [];
}

/** The compaction hook a compaction option installs, or undefined for none. */
function hookFor(options: CompactionHookOptions | undefined): AgentHook | undefined {
  return options === undefined ? undefined : createCompactionHook(options);
}

/** Folds the top-level `summarizer` shorthand into the compaction option. */
function withSummarizer(compaction: CreateAgentOptions['compaction'], summarizer: CreateAgentOptions['summarizer']) {
  if (summarizer === undefined) return compaction;
  if (compaction === false)
    throw configError('createAgent(): summarizer turns compaction on; remove it, or remove compaction: false.');
  const base = typeof compaction === 'object' && compaction !== null ? compaction : {};
  if (base.summarizer !== undefined || base.strategy !== undefined) {
    throw configError(
      'createAgent(): pass the summarizer once, either as summarizer or inside compaction (not with compaction.strategy).',
    );
  }
  return { ...base, summarizer };
}

/**
 * Creates an agent.
 *
 * @example
 * const agent = createAgent({ model: 'openai/gpt-4o', tools, compaction: { summarizer: 'openai/gpt-4o-mini' } });
 * const { text, usage } = await agent.send('Audit the repository.');
 */
export function createAgent(options: CreateAgentOptions): Agent {
  if (typeof options !== 'object' || options === null)
    throw configError('createAgent() takes an options object such as { model: "openai/gpt-4o" }.');
  if (options.model !== undefined && options.provider !== undefined) {
    throw configError('createAgent(): pass either model or provider, not both.');
  }
  const spec = options.model ?? options.provider;
  if (spec === undefined || (typeof spec !== 'string' && !isLLMProvider(spec))) {
    throw configError(
      'createAgent() needs a model: a "provider/model" string such as "openai/gpt-4o", or an LLMProvider (provider).',
    );
  }
  if (options.hooks !== undefined && !Array.isArray(options.hooks))
    throw configError('createAgent(): hooks must be an array of AgentHook.');
  if (options.tools !== undefined && !Array.isArray(options.tools))
    throw configError('createAgent(): tools must be an array of tools.');
  if (options.onEvent !== undefined && typeof options.onEvent !== 'function')
    throw configError('createAgent(): onEvent must be a function.');
  const limits = checkLimits(options.limits);
  const agentCompaction = compactionOptionsFor(withSummarizer(options.compaction, options.summarizer));
  const tools = new ToolRegistry([...(options.tools ?? []), ...recallToolsFor(agentCompaction)]);
  const hooks = new HookRegistry(options.hooks ?? []);
  const compactionHook = hookFor(agentCompaction);
  if (compactionHook !== undefined) hooks.register(compactionHook);
  const search = checkToolSearch(options.toolSearch);
  const toolSearch = search === undefined ? undefined : createToolSearch(search);
  let provider: LLMProvider | undefined;
  const getProvider = () => {
    provider ??= resolveProvider(spec);
    return provider;
  };

  const params = (
    input: AgentInput,
    run: RunOptions = {},
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
      agent,
      input,
      provider: getProvider(),
      toolRegistry: registry,
      hooks: runHooks,
      ...(listeners.length === 0 ? {} : { onEvent: listeners }),
      ...(run.abortSignal === undefined ? {} : { abortSignal: run.abortSignal }),
      ...(selectTools === undefined ? {} : { selectTools }),
    };
  };

  const agent: Agent = {
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    limits,
    ...(options.outputSchema === undefined ? {} : { outputSchema: options.outputSchema }),
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    tools,
    hooks,
    provider: getProvider,
    send: async (input, run) => executeRun(params(input, run), undefined),
    stream: (input, run) => streamRun(async (emit) => executeRun(params(input, run), emit)),
    session(sessionOptions = {}) {
      if (typeof sessionOptions !== 'object' || sessionOptions === null) {
        throw configError('agent.session() takes { id?, store?, compaction? }.');
      }
      const own = sessionOptions.compaction === undefined ? undefined : compactionOptionsFor(sessionOptions.compaction);
      let sessionHooks = hooks;
      const sessionTools = recallToolsFor(own);
      if (sessionOptions.compaction !== undefined) {
        sessionHooks = new HookRegistry(options.hooks ?? []);
        const hook = hookFor(own);
        if (hook !== undefined) sessionHooks.register(hook);
      }
      return new Session({
        id: sessionOptions.id ?? randomUUID(),
        store: sessionOptions.store ?? new MemorySessionStore(),
        runner: {
          run: (messages, turn, emit) => executeRun(params(messages, turn, sessionHooks, sessionTools), emit),
          provider: getProvider,
          compaction: sessionOptions.compaction === undefined ? agentCompaction : own,
        },
      });
    },
  };
  return agent;
}
