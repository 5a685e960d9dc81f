export type {
  Agent,
  AgentSessionOptions,
  CompactionConfig,
  CreateAgentOptions,
  RunOptions,
} from './agent/create-agent.js';
export { createAgent } from './agent/create-agent.js';
export { recallTool } from './agent/recall-tool.js';
export type { ToolSearchOptions } from './agent/tool-search.js';
export { SEARCH_TOOL_NAME } from './agent/tool-search.js';
export type { CompactMessagesOptions, CompactMessagesResult } from './compaction/compact-messages.js';
export { compactMessages } from './compaction/compact-messages.js';
export type { CompactionHookOptions, CompactionInfo } from './compaction/compaction-hook.js';
export { createCompactionHook, LEAN_MIN_GAIN_RATIO } from './compaction/compaction-hook.js';
export type { CompactorStrategyOptions } from './compaction/compactor-strategy.js';
export { COMPACTOR_STRATEGY_NAME, compactorStrategy } from './compaction/compactor-strategy.js';
export { FOLD_STEP_NAME, isFoldMarker } from './compaction/fold-turns.js';
export { isPrunedMarker, MARKER_ARGS_MAX_CHARS, prunedMarker } from './compaction/marker.js';
export { DEFAULT_THRESHOLD_PERCENT, FALLBACK_CONTEXT_WINDOW } from './compaction/options.js';
export { DEFAULT_PROTECTED_TOKENS } from './compaction/protected-tail.js';
export type { PruneOptions } from './compaction/prune-tool-results.js';
export {
  DEFAULT_DIGEST_CHARS,
  PRUNE_STRATEGY_NAME,
  pruneToolResultsStrategy,
} from './compaction/prune-tool-results.js';
export type { PrunedResultStore } from './compaction/pruned-store.js';
export { MemoryPrunedResultStore, RECALL_TOOL_NAME } from './compaction/pruned-store.js';
export type { SummarizeStrategyOptions } from './compaction/summarize.js';
export { SUMMARIZE_STRATEGY_NAME, SUMMARY_HEADER, summarizeStrategy } from './compaction/summarize.js';
export { FIT_LOW_WATER_PERCENT, LOW_WATER_PERCENT, MIN_GAIN_PERCENT } from './compaction/trigger.js';
export { TWO_PHASE_STRATEGY_NAME, twoPhaseStrategy } from './compaction/two-phase.js';
export type { CompactionInput, CompactionResult, CompactionStrategy } from './compaction/types.js';
export { isCompactionStrategy } from './compaction/types.js';
export type {
  AgentEvent,
  AgentEventListener,
  AgentEventType,
  CompactionDoneEvent,
  CompactionEvent,
  CompactionStartEvent,
  RecoveryEvent,
} from './contracts/agent-event.js';
export type {
  AgentHook,
  PostGenerateContext,
  PreGenerateContext,
  RecoverContext,
  RunContext,
} from './contracts/agent-hook.js';
export type { AgentResult } from './contracts/agent-result.js';
export type { JSONSchema } from './contracts/json-schema.js';
export type { LLMProvider, ModelSpec } from './contracts/llm-provider.js';
export type { ModelCall, ReportedModelCall } from './contracts/model-call.js';
export type { ModelRequest } from './contracts/model-request.js';
export type { FinishReason, ModelResponse, ModelStreamPart } from './contracts/model-response.js';
export type { ModelUsage, RunUsage } from './contracts/run-usage.js';
export type { ToolDefinition } from './contracts/tool-definition.js';
export type { Usage } from './contracts/usage.js';
export type { BudgetUsage, TokenBudgetOptions } from './core/budget.js';
export { DEFAULT_SOFT_THRESHOLD, TokenBudget } from './core/budget.js';
export type { CompactorOptions, MessageAdapter, RecoverAction, RecoverResult } from './core/compaction.js';
export { Compactor, DEFAULT_TAIL_MESSAGES } from './core/compaction.js';
export type { LLMSummarizerOptions } from './core/llm-summarizer.js';
export { LLMSummarizer } from './core/llm-summarizer.js';
export type { SummarizeContext, Summarizer } from './core/summarizer.js';
export { DEFAULT_TRUNCATE_MAX_CHARS, TruncatingSummarizer } from './core/summarizer.js';
export { DEFAULT_SUMMARY_PROMPT } from './core/summary-prompt.js';
export type { LoushoErrorCode, LoushoErrorOptions, SerializedLoushoError } from './errors/lousho-error.js';
export { LoushoError } from './errors/lousho-error.js';
export type { AgentDefinition, AgentInput, ExecuteParams } from './executor/agent-executor.js';
export { HookRegistry } from './executor/hook-registry.js';
export type { AgentLimits } from './executor/limits.js';
export { partialResult } from './executor/result.js';
export type { AgentStream } from './executor/stream-run.js';
export type { StandardSchemaV1, Tool, ToolContext } from './executor/tool.js';
export { tool } from './executor/tool.js';
export { ToolRegistry } from './executor/tool-registry.js';
export { contentText } from './messages/content.js';
export { isPinned, pinMessage } from './messages/pin.js';
export type { Turn } from './messages/turns.js';
export { groupTurns } from './messages/turns.js';
export type {
  AssistantMessage,
  ContentPart,
  ImagePart,
  Message,
  MessageMetadata,
  MessageRole,
  SystemMessage,
  TextPart,
  ToolCall,
  ToolMessage,
  UserMessage,
} from './messages/types.js';
export { validateMessages } from './messages/validate.js';
export type { TokenEstimateRequest } from './models/estimate-tokens.js';
export { estimateTokens } from './models/estimate-tokens.js';
export type { ModelInfo, TokenizerName } from './models/model-info.js';
export { getModelInfo, registerModel } from './models/registry.js';
export type { FromAISDKOptions } from './providers/ai-sdk.js';
export { fromAISDK } from './providers/ai-sdk.js';
export type { AISDKLanguageModel } from './providers/ai-sdk-spec.js';
export type { AnthropicProviderOptions } from './providers/anthropic.js';
export { createAnthropic } from './providers/anthropic.js';
export { createLMStudio, createOllama, createOpenAI, createOpenRouter } from './providers/builtin.js';
export type { OpenAICompatibleOptions } from './providers/openai-compatible.js';
export { createOpenAICompatible } from './providers/openai-compatible.js';
export type { ProviderFactory } from './providers/resolve-provider.js';
export { registerProvider, resolveProvider } from './providers/resolve-provider.js';
export type { RetryOptions } from './providers/retry.js';
export type { KVClient } from './sessions/kv-store.js';
export { KVSessionStore } from './sessions/kv-store.js';
export type { SessionCompactOptions, SessionCompactResult, SessionTurnOptions } from './sessions/session.js';
export { Session } from './sessions/session.js';
export type { SqliteDatabase } from './sessions/sqlite-store.js';
export { SqliteSessionStore } from './sessions/sqlite-store.js';
export type { SessionStore } from './sessions/store.js';
export { FileSessionStore, MemorySessionStore } from './sessions/store.js';
