/**
 * `@lousho/build-ai-agent/converters`: other libraries' transcripts to our messages and back
 * (OpenAI Chat and Responses, Anthropic, the AI SDK, the OpenAI Agents SDK, LangChain) and the
 * logs of coding agents read as transcripts, with the wire types each format is written in.
 * A subpath of its own: a run needs none of it, and its ~70 wire types would otherwise be most
 * of the main entry's names.
 *
 * @module
 */
export type { AgentsItem, AgentsMetadata } from './agents-items-types.js';
export type {
  AnthropicContentBlock,
  AnthropicImageBlockParam,
  AnthropicImageMediaType,
  AnthropicMessageParam,
  AnthropicMetadata,
  AnthropicOtherBlock,
  AnthropicTextBlockParam,
  AnthropicToolResultBlockParam,
  AnthropicToolUseBlockParam,
  AnthropicTranscript,
} from './anthropic-types.js';
export type { CarriedPart } from './carried-parts.js';
export type { ConvertOptions } from './checked-transcript.js';
export { fromAcp } from './from-acp.js';
export { fromAgentsItems } from './from-agents-items.js';
export { fromAider } from './from-aider.js';
export { fromAnthropic } from './from-anthropic.js';
export { fromClaudeCode } from './from-claude-code.js';
export { fromClineTask } from './from-cline.js';
export { fromCodexRollout } from './from-codex-rollout.js';
export { fromCopilotCli } from './from-copilot-cli.js';
export { fromGeminiCli } from './from-gemini-cli.js';
export { fromLangChain } from './from-langchain.js';
export { fromModelMessages } from './from-model-messages.js';
export { fromOpenAIChat } from './from-openai-chat.js';
export { fromOpenAIResponses } from './from-openai-responses.js';
export { fromOpencode } from './from-opencode.js';
export { fromOpenHands } from './from-openhands.js';
export { fromSweAgent } from './from-swe-agent.js';
export { fromTauBench } from './from-tau-bench.js';
export type { LogReading, ReportedUsage } from './log-reading.js';
export type {
  JSONObject,
  JSONValue,
  ModelFilePart,
  ModelImagePart,
  ModelMessageMetadata,
  ModelMessageShape,
  ModelProviderOptions,
  ModelReasoningPart,
  ModelTextPart,
  ModelToolCallPart,
  ModelToolResultContent,
  ModelToolResultOutput,
  ModelToolResultPart,
} from './model-message-types.js';
export type {
  OpenAIChatAssistantMessage,
  OpenAIChatImagePart,
  OpenAIChatMessage,
  OpenAIChatMetadata,
  OpenAIChatSystemMessage,
  OpenAIChatTextPart,
  OpenAIChatToolCall,
  OpenAIChatToolMessage,
  OpenAIChatUserMessage,
} from './openai-chat-types.js';
export type {
  ResponsesFunctionCall,
  ResponsesFunctionCallOutput,
  ResponsesInputImage,
  ResponsesInputItem,
  ResponsesInputText,
  ResponsesItemStatus,
  ResponsesMessageItem,
  ResponsesMetadata,
  ResponsesOtherItem,
  ResponsesOtherPart,
  ResponsesOutputText,
} from './openai-responses-types.js';
export { toAgentsItems } from './to-agents-items.js';
export { toAnthropic } from './to-anthropic.js';
export type { ToModelMessagesOptions } from './to-model-messages.js';
export { toModelMessages } from './to-model-messages.js';
export { toOpenAIChat } from './to-openai-chat.js';
export { toOpenAIResponses } from './to-openai-responses.js';
