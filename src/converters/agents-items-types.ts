/*
 * Items of the OpenAI Agents SDK (@openai/agents-core AgentInputItem): what its sessions
 * store. Our own structural type, so the package needs no Agents SDK package.
 */

import type { CarriedPart } from './carried-parts.js';

/** One AgentInputItem: a message, a function_call, a function_call_result, or another item (reasoning, hosted tools). */
export interface AgentsItem {
  /** The item's kind, e.g. 'message', 'function_call', 'function_call_result'; a message may leave it out. */
  type?: string | undefined;
  /** A message item's role: 'system', 'user' or 'assistant'. */
  role?: string | undefined;
  [key: string]: unknown;
}

/** What the Agents converters keep in `metadata.openaiAgents`: each item's other fields, to write it back as it was. */
export interface AgentsMetadata {
  /** The message item's fields other than its content. */
  message?: Record<string, unknown>;
  /** The function_call items' fields (the arguments text included), by callId. */
  calls?: Record<string, Record<string, unknown>>;
  /** The function_call_result item's fields other than its output. */
  result?: Record<string, unknown>;
  /** How the output was given: one { type: 'text' } or { type: 'image' } object rather than a string or a list. */
  output?: 'object';
  /** Items our Message cannot hold that came just before this message (reasoning, hosted tool calls). */
  before?: unknown[];
  /** The same, after the last message. */
  after?: unknown[];
  /** Content parts our Message cannot hold (files, audio), with their positions. */
  parts?: CarriedPart[];
}

/** The metadata key of the Agents converters. */
export const AGENTS_METADATA = 'openaiAgents';
