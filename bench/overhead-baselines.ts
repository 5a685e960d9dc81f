/**
 * The baselines of the overhead benchmark (./overhead.ts): four ways of sizing a growing
 * transcript again at every step, each timed in both clocks (./step-clock.ts).
 *   (a) estimateTokens from scratch (same tokenizer as the hook, fresh message objects, so no
 *       cache), of the same request the hook sizes: the messages and the tool definitions;
 *   (b) LangChain.js trimMessages (strategy 'last') with a js-tiktoken o200k token counter;
 *   (c) a recount of every message with js-tiktoken o200k_base, as Mastra's TokenLimiter does;
 *   (d) a plain recount of every message's text with gpt-tokenizer's countTokens (o200k).
 */
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  trimMessages,
} from '@langchain/core/messages';
import { countTokens as gptTokenizerCount } from 'gpt-tokenizer/encoding/o200k_base';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import type { ModelRequest } from '../src/contracts/model-request.js';
import { contentText } from '../src/messages/content.js';
import type { Message } from '../src/messages/types.js';
import { argumentsText, estimateTokens } from '../src/models/estimate-tokens.js';
import { startClock, type Took } from './step-clock.js';

export function toLangChain(message: Message): BaseMessage {
  const content = contentText(message.content);
  switch (message.role) {
    case 'system':
      return new SystemMessage(content);
    case 'user':
      return new HumanMessage(content);
    case 'tool':
      return new ToolMessage({ content, tool_call_id: message.toolCallId });
    default:
      return new AIMessage({
        content,
        tool_calls: (message.toolCalls ?? []).map((call) => ({
          id: call.id,
          name: call.name,
          args:
            typeof call.arguments === 'object' && call.arguments !== null && !Array.isArray(call.arguments)
              ? (call.arguments as Record<string, unknown>)
              : { input: call.arguments },
          type: 'tool_call' as const,
        })),
      });
  }
}

/** The text of a LangChain message a token counter encodes: its content and its tool calls' names and arguments. */
function langChainText(message: BaseMessage): string {
  let text = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  if (AIMessage.isInstance(message)) {
    for (const call of message.tool_calls ?? []) text += call.name + JSON.stringify(call.args);
  }
  return text;
}

/** The text Mastra's TokenLimiter.countTokens encodes for a message: role, content, tool name and JSON arguments. */
export function mastraText(message: Message): string {
  let text = message.role + contentText(message.content);
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) text += call.name + JSON.stringify(call.arguments);
  }
  return text;
}

/** The text a plain recount counts for a message: its content and its tool calls' names and arguments. */
function plainText(message: Message): string {
  let text = contentText(message.content);
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) text += call.name + argumentsText(call.arguments);
  }
  return text;
}

/** Mastra's per-message framing (TOKENS_PER_MESSAGE). */
const MASTRA_MESSAGE_TOKENS = 3.8;

/** What each baseline counted on its last call, and what trimMessages did. */
export interface BaselineCounts {
  trim: { keptMessages: number; counterCalls: number; tokensHanded: number };
  scratchTokens: number;
  tiktokenTokens: number;
  gptTokenizerTokens: number;
}

/** The baselines, each a function of the transcript prefix that returns its time in both clocks. */
export function baselines(trimMaxTokens: number, request: Omit<ModelRequest, 'messages'>) {
  const encoder = new Tiktoken(o200kBase);
  const encode = (text: string) => encoder.encode(text, [], []).length;
  const last: BaselineCounts = {
    trim: { keptMessages: 0, counterCalls: 0, tokensHanded: 0 },
    scratchTokens: 0,
    tiktokenTokens: 0,
    gptTokenizerTokens: 0,
  };

  const fromScratch = (messages: readonly Message[]): Took => {
    const fresh = messages.map((m) => ({ ...m }) as Message);
    const stop = startClock();
    last.scratchTokens = estimateTokens({ ...request, messages: fresh });
    return stop();
  };

  const langChain = async (messages: BaseMessage[]): Promise<Took> => {
    // A memo per call: trimMessages copies the messages on every call, so nothing could carry over between steps anyway.
    const memo = new WeakMap<BaseMessage, number>();
    let counterCalls = 0;
    let tokensHanded = 0;
    const tokenCounter = (list: BaseMessage[]): number => {
      counterCalls++;
      let total = 0;
      for (const message of list) {
        let tokens = memo.get(message);
        if (tokens === undefined) {
          tokens = encode(langChainText(message));
          memo.set(message, tokens);
        }
        total += tokens;
      }
      tokensHanded += total;
      return total;
    };
    const stop = startClock();
    const kept = await trimMessages(messages, { maxTokens: trimMaxTokens, strategy: 'last', tokenCounter });
    const took = stop();
    last.trim = { keptMessages: kept.length, counterCalls, tokensHanded };
    return took;
  };

  const tiktokenRecount = (messages: readonly Message[]): Took => {
    const stop = startClock();
    let total = 0;
    for (const message of messages) total += encode(mastraText(message)) + MASTRA_MESSAGE_TOKENS;
    const took = stop();
    last.tiktokenTokens = total;
    return took;
  };

  const gptTokenizerRecount = (messages: readonly Message[]): Took => {
    const stop = startClock();
    let total = 0;
    for (const message of messages) total += gptTokenizerCount(plainText(message));
    const took = stop();
    last.gptTokenizerTokens = total;
    return took;
  };

  return { fromScratch, langChain, tiktokenRecount, gptTokenizerRecount, last: (): BaselineCounts => ({ ...last }) };
}

/** What each baseline times, in the report's words. */
export function baselineMethods(trimMaxTokens: number): { label: string; method: string }[] {
  return [
    {
      label: '(a) estimateTokens from scratch',
      method:
        'estimateTokens() of the same request the hook sizes (the messages and the tool definition) on fresh copies of the messages (no per-message cache); the same tokenizer as the hook',
    },
    {
      label: '(b) LangChain.js trimMessages',
      method: `trimMessages(messages, { maxTokens: ${trimMaxTokens.toLocaleString('en-US')}, strategy: 'last' }) with a tokenCounter that encodes each message's content and tool calls with js-tiktoken o200k_base, memoized per message within one call`,
    },
    {
      label: '(c) js-tiktoken recount of every message (Mastra TokenLimiter)',
      method:
        'js-tiktoken o200k_base encode() of role + content (+ tool name and JSON arguments) of every message, no cache',
    },
    {
      label: '(d) gpt-tokenizer recount of every message',
      method:
        "gpt-tokenizer 4.0.0 countTokens (o200k) of each message's content and tool-call names and arguments, summed, every step, with no per-message cache (gpt-tokenizer's own merge cache on, as by default)",
    },
  ];
}
