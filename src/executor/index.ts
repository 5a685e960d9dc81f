export type { AgentDefinition, AgentInput, ExecuteParams } from './agent-executor.js';
export { AgentExecutor } from './agent-executor.js';
export type { AgentStream } from './stream-run.js';
export { ToolRegistry } from './tool-registry.js';
