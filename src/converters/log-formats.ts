import type { ConvertOptions } from './checked-transcript.js';
import { fromClaudeCode, isClaudeCodeSession } from './from-claude-code.js';
import { fromCodexRollout, isCodexRollout } from './from-codex-rollout.js';
import { fromLangChain, isLangChainMessage } from './from-langchain.js';
import { fromOpencode, isOpencodeExport } from './from-opencode.js';
import { fromOpenHands, isOpenHandsEvents } from './from-openhands.js';
import { fromSweAgent, isSweAgentTrajectory } from './from-swe-agent.js';
import { fromTauBench, isTauBenchResults } from './from-tau-bench.js';
import { isRecord } from './invalid-input.js';
import type { LogReading } from './log-reading.js';
import type { TranscriptFormat } from './transcript-format.js';

/** One kind of agent log that is read but not written back: how it is recognised, read, and what `compact` writes instead. */
export interface LogFormat {
  /** Its name in --from and in messages. */
  id: string;
  /** How it is named to people. */
  name: string;
  /** True when the parsed file (a JSON value, or the list of a JSON-lines file's records) has fields only this format has. */
  detect: (data: unknown) => boolean;
  /** Reads it. */
  read: (data: unknown, options: ConvertOptions) => LogReading;
  /** The message format `lousho compact` writes it as, since it cannot be written back. */
  writeAs: TranscriptFormat;
}

const list = (data: unknown): unknown[] => (Array.isArray(data) ? data : []);

/** A LangChain message list: a JSON array of messages, or an object with a `messages` array (a LangGraph state). */
function langChainList(data: unknown): unknown[] | undefined {
  const messages = isRecord(data) ? data.messages : data;
  return Array.isArray(messages) && messages.length > 0 && messages.every(isLangChainMessage) ? messages : undefined;
}

/** The agent logs read besides message lists, each recognised by fields only it has. */
export const LOG_FORMATS: readonly LogFormat[] = [
  {
    id: 'claude-code',
    name: 'Claude Code session JSONL',
    detect: (data) => isClaudeCodeSession(list(data)),
    read: (data, options) => fromClaudeCode(list(data), options),
    writeAs: 'anthropic',
  },
  {
    id: 'codex',
    name: 'Codex CLI rollout',
    detect: (data) => isCodexRollout(list(data)),
    read: (data, options) => fromCodexRollout(list(data), options),
    writeAs: 'openai-responses',
  },
  {
    id: 'opencode',
    name: 'opencode session export',
    detect: isOpencodeExport,
    read: fromOpencode,
    writeAs: 'ai-sdk',
  },
  {
    id: 'openhands',
    name: 'OpenHands event stream',
    detect: isOpenHandsEvents,
    read: (data, options) => fromOpenHands(list(data), options),
    writeAs: 'openai-chat',
  },
  {
    id: 'swe-agent',
    name: 'SWE-agent trajectory',
    detect: isSweAgentTrajectory,
    read: fromSweAgent,
    writeAs: 'openai-chat',
  },
  {
    id: 'tau-bench',
    name: 'tau-bench results (its first trajectory)',
    detect: isTauBenchResults,
    read: fromTauBench,
    writeAs: 'openai-chat',
  },
  {
    id: 'langchain',
    name: 'LangChain messages',
    detect: (data) => langChainList(data) !== undefined,
    read: (data, options) => ({ messages: fromLangChain(langChainList(data) ?? [], options) }),
    writeAs: 'openai-chat',
  },
];
