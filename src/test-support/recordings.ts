import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { sharedPath } from './corpus.js';

/**
 * The recorded real provider responses (../shared/fixtures/provider-recordings, see its
 * SOURCE.md files), read in place; undefined when the folder is not beside the checkout.
 */
export const RECORDINGS = sharedPath('fixtures/provider-recordings');

/** The text of a recording, by its path under provider-recordings/. */
export function recordingText(path: string): string {
  if (RECORDINGS === undefined) throw new Error('provider-recordings is not beside the checkout');
  return readFileSync(join(RECORDINGS, path), 'utf8');
}

/** A `*.chunks.txt` recording: one SSE payload (JSON) per line. */
export function recordedChunks(path: string): Record<string, unknown>[] {
  return recordingText(path)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A whole recorded JSON body. */
export function recordedJson(path: string): Record<string, unknown> {
  return JSON.parse(recordingText(path)) as Record<string, unknown>;
}

/** Chunks framed as chat completions sends them: `data: <json>` each, then `data: [DONE]`. */
export function chatStream(chunks: readonly unknown[]): string {
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
}

/** Chunks framed as Anthropic sends them: `event: <type>` and `data: <json>` each. */
export function anthropicStream(chunks: readonly Record<string, unknown>[]): string {
  return chunks.map((c) => `event: ${String(c.type)}\ndata: ${JSON.stringify(c)}\n\n`).join('');
}

/** A pydantic-ai cassette's recorded response: its status, content type and body text (a parsed JSON body as JSON). */
export function cassetteResponse(path: string, interaction = 0): { status: number; contentType: string; body: string } {
  const cassette = JSON.parse(recordingText(path)) as {
    interactions: {
      response: {
        status: { code: number };
        headers: Record<string, string[]>;
        body?: { string?: string };
        parsed_body?: unknown;
      };
    }[];
  };
  const response = cassette.interactions[interaction]?.response;
  if (response === undefined) throw new Error(`${path} has no interaction ${interaction}`);
  return {
    status: response.status.code,
    contentType: response.headers['content-type']?.[0] ?? 'application/json',
    // A cassette keeps a JSON body parsed (parsed_body), an event stream as its text (body.string).
    body: response.body?.string ?? JSON.stringify(response.parsed_body),
  };
}

/** Writes a recorded body as it is. */
export function sendRecorded(response: ServerResponse, contentType: string, body: string, status = 200): void {
  response.writeHead(status, { 'content-type': contentType });
  response.end(body);
}
