import type { ModelSpec } from '../contracts/llm-provider.js';
import { checkNumber, checkOptions, describe } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';
import { isStandardSchema } from '../executor/tool-registry.js';
import { getModelInfo, splitModelId } from '../models/registry.js';
import { checkReasoningOptions } from '../providers/reasoning-options.js';
import { isLLMProvider } from '../providers/resolve-provider.js';
import type { CreateAgentOptions, RunOptions } from './agent-types.js';

const CREATE_AGENT_KEYS: (keyof CreateAgentOptions)[] = [
  'model',
  'provider',
  'name',
  'instructions',
  'tools',
  'hooks',
  'compaction',
  'summarizer',
  'limits',
  'onEvent',
  'toolSearch',
  'outputSchema',
  'maxOutputTokens',
  'temperature',
  'mcpServers',
  'reasoning',
];

/** limits.maxCostUsd can only stop a run whose model has a price: refuse it otherwise, saying how to give one. */
export function checkPriceKnown(model: string): void {
  const info = getModelInfo(model);
  if (info?.inputPricePerMillion !== undefined && info.outputPricePerMillion !== undefined) return;
  const { id } = splitModelId(model);
  throw configError(
    `createAgent(): limits.maxCostUsd needs the price of "${model}", which the model table does not know, so the run ` +
      `would never stop on it. Give the price with registerModel({ id: '${id}', provider, contextWindow, ` +
      'inputPricePerMillion, outputPricePerMillion }), or use limits.maxTokens instead.',
    { option: 'limits.maxCostUsd' },
  );
}

/** Checks the options of one send() or stream(). */
export function checkRunOptions(run: unknown): asserts run is RunOptions {
  checkOptions<RunOptions>(run, 'agent.send() / agent.stream()', ['abortSignal', 'onEvent', 'approvals', 'reasoning']);
  const { abortSignal, onEvent, reasoning } = (run ?? {}) as RunOptions;
  checkReasoningOptions(reasoning, 'agent.send()');
  if (abortSignal !== undefined && !(abortSignal instanceof AbortSignal))
    throw configError('agent.send(): abortSignal must be an AbortSignal, e.g. new AbortController().signal.', {
      option: 'abortSignal',
    });
  if (onEvent !== undefined && typeof onEvent !== 'function')
    throw configError('agent.send(): onEvent must be a function (event) => void.', { option: 'onEvent' });
}

/** Checks createAgent()'s options (throws LOUSHO_CONFIG_INVALID naming the bad one) and resolves to the model spec. */
export function checkCreateAgentOptions(options: CreateAgentOptions): ModelSpec {
  if (typeof options !== 'object' || options === null)
    throw configError('createAgent() takes an options object such as { model: "openai/gpt-4o" }.');
  checkOptions<CreateAgentOptions>(options, 'createAgent()', CREATE_AGENT_KEYS);
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
  for (const key of ['name', 'instructions'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'string')
      throw configError(`createAgent(): ${key} must be a string, got ${describe(options[key])}.`, { option: key });
  }
  checkNumber(options.maxOutputTokens, 'maxOutputTokens', 'createAgent()', {
    min: 0,
    exclusiveMin: true,
    integer: true,
  });
  checkNumber(options.temperature, 'temperature', 'createAgent()', { min: 0 });
  checkReasoningOptions(options.reasoning, 'createAgent()');
  const schema = options.outputSchema as unknown;
  if (schema !== undefined && (typeof schema !== 'object' || schema === null) && !isStandardSchema(schema))
    throw configError(
      'createAgent(): outputSchema must be a Standard Schema validator (zod 4, valibot, arktype) or a JSON Schema object.',
      { option: 'outputSchema' },
    );
  return spec;
}
