import type { MockReply } from '../testing/mock-model.js';

/**
 * The scripted model of the main example: it lists the project, reads every source file
 * in batches of `batch` parallel calls, searches for a few names, then answers. A real
 * model replaces it when one is configured.
 */
export function explorerScript(files: readonly string[], batch = 3): MockReply[] {
  const sources = files.filter((f) => /\.(ts|js|json|md)$/.test(f) && !f.endsWith('package-lock.json'));
  const steps: MockReply[] = [
    { text: 'Let me look at the project layout first.', toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] },
  ];
  for (let i = 0; i < sources.length; i += batch) {
    const group = sources.slice(i, i + batch);
    steps.push({ toolCalls: group.map((path) => ({ name: 'read_file', arguments: { path } })) });
  }
  for (const query of ['LoushoError', 'estimateTokens', 'compact(']) {
    steps.push({ toolCalls: [{ name: 'search_files', arguments: { query } }] });
  }
  steps.push({
    text: `I read ${sources.length} files. The project centres on compaction: strategies prune old tool results and summarize old turns.`,
  });
  return steps;
}
