export type { AgentDefinition, AgentInput, AgentStream, ExecuteParams } from './agent-executor.js';
export { AgentExecutor } from './agent-executor.js';
export type { FileToolsOptions } from './file-tools.js';
export { fileTools, listTree } from './file-tools.js';
export { ToolRegistry } from './tool-registry.js';
