export type { AgentSession } from './agent/agent-session.js';
export type {
  Agent,
  AgentConfig,
  AgentSessionOptions,
  CompactionConfig,
  CreateAgentOptions,
  RunOptions,
} from './agent/agent-types.js';
export { createAgent } from './agent/create-agent.js';
export { recallTool } from './agent/recall-tool.js';
export type { ToolSearchOptions } from './agent/tool-search.js';
export type { CompactMessagesOptions, CompactMessagesResult } from './compaction/compact-messages.js';
export { compactMessages } from './compaction/compact-messages.js';
export type { CompactionHookOptions, CompactionInfo } from './compaction/compaction-hook.js';
export { createCompactionHook } from './compaction/compaction-hook.js';
export type { CompactionLayers } from './compaction/compaction-options.js';
export type { CompactorStrategyOptions } from './compaction/compactor-strategy.js';
export { compactorStrategy } from './compaction/compactor-strategy.js';
export type { ProviderCompactionStrategyOptions } from './compaction/provider-compaction.js';
export { providerCompactionStrategy } from './compaction/provider-compaction.js';
export type { PruneOptions } from './compaction/prune-tool-results.js';
export { pruneToolResultsStrategy } from './compaction/prune-tool-results.js';
export type { PrunedResultStore } from './compaction/pruned-store.js';
export { MemoryPrunedResultStore } from './compaction/pruned-store.js';
export type { SummarizeStrategyOptions } from './compaction/summarize.js';
export { summarizeStrategy } from './compaction/summarize.js';
export { twoPhaseStrategy } from './compaction/two-phase.js';
export type { CompactionInput, CompactionResult, CompactionStrategy } from './compaction/types.js';
export { isCompactionStrategy } from './compaction/types.js';
export type {
  AgentEvent,
  AgentEventListener,
  AgentEventMap,
  AgentEventType,
  BuiltinAgentEvent,
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
export type { AgentResult, PendingApproval } from './contracts/agent-result.js';
export type { JSONSchema, TypedJSONSchema } from './contracts/json-schema.js';
export type { LLMProvider, ModelSpec } from './contracts/llm-provider.js';
export type { ModelCall, ReportedModelCall } from './contracts/model-call.js';
export type { ModelRequest, ReasoningOptions } from './contracts/model-request.js';
export type { FinishReason, ModelResponse, ModelStreamPart } from './contracts/model-response.js';
export type { ProviderCompactionResponse } from './contracts/provider-compaction.js';
export type { RequestBudget, SizedRequest, WindowQuery, WindowSource } from './contracts/request-budget.js';
export type { ModelUsage, RunUsage } from './contracts/run-usage.js';
export type { ToolDefinition } from './contracts/tool-definition.js';
export type { Usage } from './contracts/usage.js';
export type { BudgetUsage, TokenBudgetOptions } from './core/budget.js';
export { TokenBudget } from './core/budget.js';
export type { CompactorOptions, MessageAdapter, RecoverAction, RecoverResult } from './core/compaction.js';
export { Compactor } from './core/compaction.js';
export type { LLMSummarizerOptions } from './core/llm-summarizer.js';
export { LLMSummarizer } from './core/llm-summarizer.js';
export type { SummarizeContext, Summarizer } from './core/summarizer.js';
export { TruncatingSummarizer } from './core/summarizer.js';
export { DEFAULT_SUMMARY_PROMPT } from './core/summary-prompt.js';
export type { LoushoErrorCode, LoushoErrorOptions, SerializedLoushoError } from './errors/lousho-error.js';
export { LoushoError } from './errors/lousho-error.js';
export { onAgentEvent } from './executor/agent-events.js';
export type { AgentDefinition, AgentInput, ExecuteParams } from './executor/agent-executor.js';
export type { RunCheckpoint, ToolApproval } from './executor/approvals.js';
export { HookRegistry } from './executor/hook-registry.js';
export type { AgentLimits } from './executor/limits.js';
export { partialResult } from './executor/result.js';
export type { AgentStream } from './executor/stream-run.js';
export type { OutputSchema } from './executor/structured-output.js';
export type { ApprovalCheck, InferSchema, StandardSchemaV1, Tool, ToolContext } from './executor/tool.js';
export { jsonSchema, tool } from './executor/tool.js';
export { ToolRegistry } from './executor/tool-registry.js';
// Compaction inside other frameworks' loops.
export type { AgentsCompactionUsage, AgentsSession } from './integrations/agents-session.js';
export { AgentsStoreSession } from './integrations/agents-store-session.js';
export type { AISDKUsageShape } from './integrations/ai-sdk-usage.js';
export type { CompactingSessionOptions } from './integrations/compacting-session.js';
export { CompactingSession, compactingSession } from './integrations/compacting-session.js';
export type { AISDKCallOptionsShape, CompactionMiddleware } from './integrations/compaction-middleware.js';
export { compactionMiddleware } from './integrations/compaction-middleware.js';
export type { PrepareStepOptionsShape } from './integrations/compaction-prepare-step.js';
export { compactionPrepareStep } from './integrations/compaction-prepare-step.js';
export type { FrameworkCompactionOptions } from './integrations/conversation-compaction.js';
export type {
  McpElicitationRequest,
  McpElicitationResult,
  McpHttpServerConfig,
  McpRoot,
  McpSamplingOptions,
  McpSamplingRequest,
  McpServerConfig,
  McpServerOptions,
  McpStdioServerConfig,
  McpToolFilter,
  McpToolListing,
} from './mcp/mcp-server-config.js';
export type { AgentMcp, McpListEntry, McpResourceContents, McpServerHandle } from './mcp/mcp-server-handle.js';
export { contentText, reasoningText } from './messages/content.js';
export { isPinned, pinMessage } from './messages/pin.js';
export type { TranscriptRepair } from './messages/repair.js';
export { repairTranscript } from './messages/repair.js';
export type { Turn } from './messages/turns.js';
export { groupTurns } from './messages/turns.js';
export type {
  AssistantMessage,
  AssistantPart,
  ContentPart,
  ImagePart,
  Message,
  MessageMetadata,
  MessageRole,
  ProviderCompactionPart,
  ReasoningPart,
  SystemMessage,
  TextPart,
  ToolCall,
  ToolMessage,
  UserMessage,
} from './messages/types.js';
export type { ValidateMessagesOptions } from './messages/validate.js';
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
export type { OpenAIResponsesOptions } from './providers/openai-responses.js';
export { createOpenAIResponses } from './providers/openai-responses.js';
export type { ResponsesReasoningSummary } from './providers/openai-responses-request.js';
export type { PromptCacheOption } from './providers/prompt-cache-option.js';
export type { TimeoutOptions } from './providers/request-timeout.js';
export type { ProviderFactory } from './providers/resolve-provider.js';
export { registerProvider, resolveProvider } from './providers/resolve-provider.js';
export type { RetryOptions } from './providers/retry.js';
export type { DriveSessionOptions, DriveSessionResult } from './sessions/drive-session.js';
export { driveSession } from './sessions/drive-session.js';
export { FileSessionStore } from './sessions/file-store.js';
export type { KVClient } from './sessions/kv-store.js';
export { KVSessionStore } from './sessions/kv-store.js';
export type { ListedSession } from './sessions/list-sessions.js';
export { listSessions } from './sessions/list-sessions.js';
export type { PostgresPool } from './sessions/postgres-store.js';
export { PostgresSessionStore } from './sessions/postgres-store.js';
export type { RecordedApproval, SessionCheckpoint } from './sessions/records.js';
export { Session } from './sessions/session.js';
export type { KeyedTurn } from './sessions/session-state.js';
export type {
  SessionCompactOptions,
  SessionCompactResult,
  SessionStatus,
  SessionTurnOptions,
} from './sessions/session-types.js';
export type { SqliteDatabase } from './sessions/sqlite-store.js';
export { SqliteSessionStore } from './sessions/sqlite-store.js';
export type { LeaseState, SessionLogRead, SessionStore } from './sessions/store.js';
export { MemorySessionStore } from './sessions/store.js';
