export type { MockModel, MockModelOptions, MockReply, MockStep, MockToolCall } from './mock-model.js';
export { mockModel } from './mock-model.js';
