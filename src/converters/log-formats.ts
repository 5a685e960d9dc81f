import type { ConvertOptions } from './checked-transcript.js';
import { fromAcp, isAcpStream } from './from-acp.js';
import { fromAider, isAiderHistory } from './from-aider.js';
import { fromClaudeCode, isClaudeCodeSession } from './from-claude-code.js';
import { fromClineTask, isClineTask } from './from-cline.js';
import { fromCodexRollout, isCodexRollout } from './from-codex-rollout.js';
import { fromCopilotCli, isCopilotSession } from './from-copilot-cli.js';
import { fromGeminiCli, isGeminiChat } from './from-gemini-cli.js';
import { fromLangChain, isLangChainMessage } from './from-langchain.js';
import { fromOpencode, isOpencodeExport } from './from-opencode.js';
import { fromOpenHands, isOpenHandsEvents } from './from-openhands.js';
import { fromSweAgent, isSweAgentTrajectory } from './from-swe-agent.js';
import { fromTauBench, isTauBenchResults } from './from-tau-bench.js';
import { isRecord } from './invalid-input.js';
import { type LogReading, lastReportedUsage, logExtras } from './log-reading.js';
import type { TranscriptFormat } from './transcript-format.js';

/** How a log is read: the converters' options, and which trajectory of a file that holds several (1 is the first). */
export interface LogReadOptions extends ConvertOptions {
  /** The trajectory to read, counted from 1, of a file that holds several (tau-bench results); default 1. */
  trajectory?: number;
}

/** One kind of agent log that is read but not written back: how it is recognised, read, and what `compact` writes instead. */
export interface LogFormat {
  /** Its name in --from and in messages. */
  id: string;
  /** How it is named to people. */
  name: string;
  /** What of the log is not read, in a few words (`lousho formats` lists it). */
  lacks: string;
  /** 'text' when the log is no JSON: `detect` and `read` get the file's text; else the parsed JSON value (the list of a JSON-lines file's records). */
  input?: 'text';
  /** True when the parsed file has fields only this format has. */
  detect: (data: unknown) => boolean;
  /** Reads it. */
  read: (data: unknown, options: LogReadOptions) => LogReading;
  /** How many trajectories the file holds, for a format that holds several. */
  trajectories?: (data: unknown) => number;
  /** The message format `lousho compact` writes it as, since it cannot be written back. */
  writeAs: TranscriptFormat;
}

const list = (data: unknown): unknown[] => (Array.isArray(data) ? data : []);
const loglines = (data: unknown): unknown[] => (isRecord(data) && Array.isArray(data.loglines) ? data.loglines : []);

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
    lacks:
      'summaries, progress and snapshots; subagent records of a main session; what precedes the last compact_boundary',
    detect: (data) => isClaudeCodeSession(list(data)),
    read: (data, options) => fromClaudeCode(list(data), options),
    writeAs: 'anthropic',
  },
  {
    id: 'claude-code-web',
    name: 'Claude Code web session export',
    lacks: 'as a Claude Code session, whose records its loglines are',
    detect: (data) => isClaudeCodeSession(loglines(data)),
    read: (data, options) => fromClaudeCode(loglines(data), options),
    writeAs: 'anthropic',
  },
  {
    id: 'codex',
    name: 'Codex CLI rollout',
    lacks: 'event_msg events but token counts; the history before a compacted record',
    detect: (data) => isCodexRollout(list(data)),
    read: (data, options) => fromCodexRollout(list(data), options),
    writeAs: 'openai-responses',
  },
  {
    id: 'opencode',
    name: 'opencode session export',
    lacks: 'file, agent, patch and step parts; costs and timings',
    detect: isOpencodeExport,
    read: fromOpencode,
    writeAs: 'ai-sdk',
  },
  {
    id: 'gemini-cli',
    name: 'Gemini CLI chat recording',
    lacks: 'thought summaries; info, error and warning notes; $set session fields',
    detect: isGeminiChat,
    read: fromGeminiCli,
    writeAs: 'ai-sdk',
  },
  {
    id: 'copilot-cli',
    name: 'GitHub Copilot CLI session',
    lacks: "the CLI's own events; subagents' messages; the timeline's info entries",
    detect: isCopilotSession,
    read: fromCopilotCli,
    writeAs: 'openai-chat',
  },
  {
    id: 'cline',
    name: 'Cline or Roo Code task history',
    lacks: 'ts, modelInfo and metrics fields (read as model and usage); ui_messages.json',
    detect: isClineTask,
    read: fromClineTask,
    writeAs: 'anthropic',
  },
  {
    id: 'acp',
    name: 'ACP session/update stream',
    lacks: 'plan, mode and command updates; tool locations; usage (the protocol reports none)',
    detect: isAcpStream,
    read: (data, options) => fromAcp(list(data), options),
    writeAs: 'openai-chat',
  },
  {
    id: 'aider',
    name: 'Aider chat history',
    input: 'text',
    lacks: "aider's commands and notes (> lines); files added to the chat; edits are text",
    detect: isAiderHistory,
    read: (text, options) => fromAider(String(text), options),
    writeAs: 'openai-chat',
  },
  {
    id: 'openhands',
    name: 'OpenHands event stream',
    lacks: 'agent-state events; observations that answer no model call',
    detect: isOpenHandsEvents,
    read: (data, options) => fromOpenHands(list(data), options),
    writeAs: 'openai-chat',
  },
  {
    id: 'swe-agent',
    name: 'SWE-agent trajectory',
    lacks: "trajectory and info; SWE-agent's own message fields (thought, action, agent)",
    detect: isSweAgentTrajectory,
    read: fromSweAgent,
    writeAs: 'openai-chat',
  },
  {
    id: 'tau-bench',
    name: 'tau-bench results',
    lacks: 'the trajectories not chosen (--trajectory); rewards and task info; the model',
    detect: isTauBenchResults,
    trajectories: (data) => list(data).length,
    read: (data, { trajectory = 1, ...options }) => {
      const n = list(data).length;
      const entry = list(data)[trajectory - 1];
      const task = isRecord(entry) && entry.task_id !== undefined ? `, task_id ${String(entry.task_id)}` : '';
      const other = n > 1 && trajectory === 1 ? '; --trajectory N reads another' : '';
      return {
        ...fromTauBench(data, { ...options, entry: trajectory - 1 }),
        detail: `trajectory ${trajectory} of ${n}${task}${other}`,
      };
    },
    writeAs: 'openai-chat',
  },
  {
    id: 'langchain',
    name: 'LangChain messages',
    lacks: 'response_metadata (usage_metadata is read as usage); stream chunks (give the messages)',
    detect: (data) => langChainList(data) !== undefined,
    read: (data, options) => {
      const messages = fromLangChain(langChainList(data) ?? [], options);
      return { messages, ...logExtras({ reported: lastReportedUsage(messages) }) };
    },
    writeAs: 'openai-chat',
  },
];
