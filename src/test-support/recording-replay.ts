import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelResponse } from '../contracts/model-response.js';
import { LoushoError } from '../errors/lousho-error.js';
import { createAnthropic } from '../providers/anthropic.js';
import { createOpenAICompatible } from '../providers/openai-compatible.js';
import { ReplyAssembler } from '../providers/reply-assembler.js';
import type { LoopbackServer } from './loopback-server.js';
import {
  anthropicStream,
  cassetteResponse,
  chatStream,
  RECORDINGS,
  recordedChunks,
  recordingText,
  sendRecorded,
} from './recordings.js';

/** Which client reads a recording: Anthropic's Messages API, or chat completions. */
export type RecordingClient = 'anthropic' | 'chat';

/** What the real client made of a recording. */
export interface ReplayOutcome {
  text?: string;
  toolCalls?: [name: string, args: unknown][];
  usage?: ModelResponse['usage'];
  /** The reasoning parts' text, joined. */
  reasoning?: string;
  finishReason?: ModelResponse['finishReason'];
  /** The error, for a recording of an error: its code, whether a retry may help, its message. */
  error?: { code: string; retryable: boolean; message: string };
}

/**
 * The recordings the suite must cover: every file under provider-recordings/ but the
 * SOURCE.md notes, a cassette counted once (its `.yaml.json`, which is the `.yaml` in JSON).
 */
export function recordingFiles(dir = RECORDINGS): string[] {
  if (dir === undefined) return [];
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = rel === '' ? name : `${rel}/${name}`;
      if (statSync(join(dir, path)).isDirectory()) walk(path);
      else if (name !== 'SOURCE.md' && !name.endsWith('.yaml')) out.push(path);
    }
  };
  walk('');
  return out.sort();
}

/** The response a server sends for a recording: its status, content type and body. */
function recorded(path: string, client: RecordingClient, status: number, interaction: number) {
  if (path.endsWith('.yaml.json')) return cassetteResponse(path, interaction);
  if (path.endsWith('.sse')) return { status, contentType: 'text/event-stream', body: recordingText(path) };
  if (path.endsWith('.chunks.txt')) {
    const chunks = recordedChunks(path);
    const body = client === 'anthropic' ? anthropicStream(chunks) : chatStream(chunks);
    return { status, contentType: 'text/event-stream', body };
  }
  return { status, contentType: 'application/json', body: recordingText(path) };
}

/**
 * Replays one recording on `serve`'s loopback server and reads it with the real client:
 * streamed when it is an event stream, whole otherwise. An error becomes its code.
 */
export async function replayRecording(
  serve: (handler: Parameters<typeof import('./loopback-server.js').startLoopbackServer>[0]) => Promise<LoopbackServer>,
  path: string,
  options: { client: RecordingClient; model: string; status?: number; interaction?: number },
): Promise<ReplayOutcome> {
  const response = recorded(path, options.client, options.status ?? 200, options.interaction ?? 0);
  const server = await serve((_request, res) =>
    sendRecorded(res, response.contentType, response.body, response.status),
  );
  const retry = { maxRetries: 0 };
  const provider: LLMProvider =
    options.client === 'anthropic'
      ? createAnthropic({ baseURL: server.url, apiKey: 'x', retry })(options.model)
      : createOpenAICompatible({ name: 'recorded', baseURL: `${server.url}/v1`, apiKey: 'x', retry })(options.model);
  const request: ModelRequest = { model: options.model, messages: [{ role: 'user', content: 'Hi' }] };
  try {
    let reply: ModelResponse;
    if (response.contentType.startsWith('text/event-stream')) {
      const assembler = new ReplyAssembler();
      for await (const part of provider.stream(request)) assembler.accept(part);
      reply = assembler.response(path);
    } else reply = await provider.generate(request);
    const reasoning = (reply.parts ?? []).flatMap((p) => (p.type === 'reasoning' ? [p.text] : [])).join('');
    return {
      text: reply.text,
      toolCalls: reply.toolCalls.map((c) => [c.name, c.arguments]),
      usage: reply.usage,
      reasoning,
      finishReason: reply.finishReason,
    };
  } catch (error) {
    if (LoushoError.isInstance(error))
      return { error: { code: error.code, retryable: error.isRetryable, message: error.message } };
    throw error;
  }
}
