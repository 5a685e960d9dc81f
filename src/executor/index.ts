export type { FileToolsOptions } from './file-tools.js';
export { fileTools, listTree } from './file-tools.js';
export type { StandardSchemaV1, Tool, ToolContext } from './tool.js';
