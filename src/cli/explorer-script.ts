import type { ModelRequest } from '../contracts/model-request.js';
import { LoushoError } from '../errors/lousho-error.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import type { MockReply, MockStep } from '../testing/mock-model.js';
import { count } from './report-format.js';

/** What the scripted run demonstrates besides compaction: the two recoveries, announced as such. */
export interface ExplorerDemos {
  /** A file larger than the window: reading it makes the run cut that result before sending. */
  oversizedFile?: string;
  /** The window the scripted model has: it rejects, once, the first request its own count puts above it. */
  overflowWindow?: number;
  /** The run's step limit: it reads only as many files as leave steps for its searches and its answer. */
  maxSteps?: number;
}

/** How much more the scripted model counts than the run's estimate, as a provider with a hidden prompt would. */
export const OVERCOUNT = 1.25;

/** The scripted model's overflow error, stating its window and its count as OpenAI's does. */
function overflowError(window: number, counted: number): LoushoError {
  const message = `This model's maximum context length is ${window} tokens. However, your messages resulted in ${counted} tokens (a scripted rejection: this model counts a quarter more than the run estimates, to show the recovery).`;
  return new LoushoError('LOUSHO_CONTEXT_OVERFLOW', message, { details: { limit: window, requested: counted } });
}

/** One file the run's read_file tool gave the model the text of. */
export interface FileRead {
  /** Its path as the tools name it ('src/x.ts'). */
  path: string;
  /** Its size in bytes. */
  size: number;
  /** Its first line that is not blank, trimmed ('' for a file of blank lines). */
  firstLine: string;
}

/** A file read_file gave the model, as the answer tells it. */
export function fileRead(read: { path: string; size: number; text: string }): FileRead {
  const firstLine = read.text.split('\n').find((line) => line.trim() !== '') ?? '';
  return { path: read.path, size: read.size, firstLine: firstLine.trim() };
}

/** How many files the answer names before it says how many more it read. */
const NAMED = 5;

/** A first line for the answer: the first 60 characters. */
const shortLine = (line: string) => (line.length > 60 ? `${line.slice(0, 57)}...` : line);

/**
 * The scripted explorer's answer: what the run read (how many files, of how many text files
 * it listed, their sizes, how the first few start) and nothing it did not read.
 */
export function explorerAnswer(reads: readonly FileRead[], listed: number): string {
  if (reads.length === 0) return 'I read no files, so I cannot say what this folder holds.';
  const bytes = reads.reduce((sum, r) => sum + r.size, 0);
  const how =
    reads.length < listed
      ? `${count(reads.length)} of the ${count(listed)} text files I listed`
      : `${count(reads.length)} file${reads.length === 1 ? '' : 's'}`;
  // Parallel reads finish in any order: the answer names them by path.
  const named = [...reads]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, NAMED)
    .map(
      (r) =>
        `${r.path} (${count(r.size)} bytes${r.firstLine === '' ? ', blank' : `, starting "${shortLine(r.firstLine)}"`})`,
    );
  const more = reads.length > NAMED ? `, and ${count(reads.length - NAMED)} more` : '';
  return `I read ${how} (${count(bytes)} bytes in all): ${named.join(', ')}${more}.`;
}

/**
 * The scripted model of the main example: it lists the project, reads its text files (`files`:
 * the caller leaves the binary ones out) in batches of `batch` parallel calls, searches for a few
 * names, then answers with what `reads()` says the run read (see {@link explorerAnswer}). With
 * `demos`, it also reads one file larger than the window (a result the run cuts before
 * sending) and rejects, once, the first request that its own count (OVERCOUNT times the
 * run's estimate) puts above its window, which the run compacts and retries; a run that
 * never gets that large is never rejected. A real model replaces it when one is configured.
 */
export function explorerScript(
  files: readonly string[],
  demos: ExplorerDemos = {},
  batch = 3,
  reads: () => readonly FileRead[] = () => [],
): MockStep {
  const steps = explorerSteps(files, demos, batch);
  let next = 0;
  let rejected = false;
  return (request: ModelRequest) => {
    const window = demos.overflowWindow;
    const counted = Math.ceil(estimateTokens(request) * OVERCOUNT);
    if (window !== undefined && !rejected && counted > window) {
      rejected = true;
      return overflowError(window, counted);
    }
    const step = steps[next++];
    return step ?? { text: explorerAnswer(reads(), files.length) };
  };
}

/** The replies of the scripted explorer before its answer, in order (see {@link explorerScript}). */
export function explorerSteps(files: readonly string[], demos: ExplorerDemos = {}, batch = 3): MockReply[] {
  const sources = files.filter((f) => !f.endsWith('package-lock.json') && f !== demos.oversizedFile);
  const steps: MockReply[] = [
    { text: 'Let me look at the project layout first.', toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] },
  ];
  // The listing, the oversized read, three searches and the answer take the other steps.
  const batches = Math.ceil(sources.length / batch);
  const room =
    demos.maxSteps === undefined ? batches : demos.maxSteps - 5 - (demos.oversizedFile === undefined ? 0 : 1);
  const read = sources.slice(0, Math.max(0, Math.min(batches, room)) * batch);
  for (let i = 0; i < read.length; i += batch) {
    const group = read.slice(i, i + batch);
    steps.push({ toolCalls: group.map((path) => ({ name: 'read_file', arguments: { path } })) });
  }
  if (demos.oversizedFile !== undefined) {
    steps.push({ toolCalls: [{ name: 'read_file', arguments: { path: demos.oversizedFile } }] });
  }
  for (const query of ['LoushoError', 'estimateTokens', 'compact(']) {
    steps.push({ toolCalls: [{ name: 'search_files', arguments: { query } }] });
  }
  return steps;
}
