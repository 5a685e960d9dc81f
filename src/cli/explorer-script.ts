import { LoushoError } from '../errors/lousho-error.js';
import type { MockStep } from '../testing/mock-model.js';

/** What the scripted run demonstrates besides compaction: the two recoveries, announced as such. */
export interface ExplorerDemos {
  /** A file larger than the window: reading it makes the run cut that result before sending. */
  oversizedFile?: string;
  /** The window the scripted model claims when it rejects one request as too long. */
  overflowWindow?: number;
}

/**
 * The scripted model of the main example: it lists the project, reads every source file
 * in batches of `batch` parallel calls, searches for a few names, then answers. With
 * `demos`, it also reads one file larger than the window (a result the run cuts before
 * sending) and, halfway through, rejects one request as too long (which the run compacts
 * and retries). A real model replaces it when one is configured.
 */
export function explorerScript(files: readonly string[], demos: ExplorerDemos = {}, batch = 3): MockStep[] {
  const sources = files.filter(
    (f) => /\.(ts|js|json|md)$/.test(f) && !f.endsWith('package-lock.json') && f !== demos.oversizedFile,
  );
  const steps: MockStep[] = [
    { text: 'Let me look at the project layout first.', toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] },
  ];
  for (let i = 0; i < sources.length; i += batch) {
    const group = sources.slice(i, i + batch);
    steps.push({ toolCalls: group.map((path) => ({ name: 'read_file', arguments: { path } })) });
  }
  if (demos.overflowWindow !== undefined) {
    const message = `This model's maximum context length is ${demos.overflowWindow} tokens (a scripted rejection, to show the recovery).`;
    const overflow = new LoushoError('LOUSHO_CONTEXT_OVERFLOW', message, { details: { limit: demos.overflowWindow } });
    steps.splice(Math.ceil(steps.length / 2), 0, overflow);
  }
  if (demos.oversizedFile !== undefined) {
    steps.push({ toolCalls: [{ name: 'read_file', arguments: { path: demos.oversizedFile } }] });
  }
  for (const query of ['LoushoError', 'estimateTokens', 'compact(']) {
    steps.push({ toolCalls: [{ name: 'search_files', arguments: { query } }] });
  }
  steps.push({
    text: `I read ${sources.length} files. The project centres on compaction: strategies prune old tool results and summarize old turns.`,
  });
  return steps;
}
