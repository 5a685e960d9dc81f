import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createAgent } from '../agent/create-agent.js';
import { twoPhaseStrategy } from '../compaction/two-phase.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { Tool } from '../executor/tool.js';
import { getModelInfo } from '../models/registry.js';
import { resolveProvider } from '../providers/resolve-provider.js';
import { mockModel } from '../testing/mock-model.js';
import { chooseModel, describeProvider } from './choose-model.js';
import type { Colours } from './colour.js';
import { explorerScript } from './explorer-script.js';
import { fileTools, listTree } from './file-tools.js';
import { createReportRecorder } from './report-from-events.js';
import { runReportPath, writeRunReport } from './report-run.js';
import { createRunReporter } from './run-reporter.js';
import { UsageError } from './usage-error.js';

/**
 * The scripted run's window: small, so that compaction happens within a short run, and large
 * enough that its summaries get under the threshold (this run demonstrates no error).
 */
export const SCRIPTED_WINDOW = 24_000;

const INSTRUCTIONS = 'You are a code reviewer. Use the tools to read the project, then say what it does.';
const TASK = 'Read the project and tell me what it does.';

/** The largest file of the tree when it holds more tokens than the window (about 3 bytes a token or fewer). */
async function oversizedFile(root: string, files: readonly string[], window: number): Promise<string | undefined> {
  let largest: { path: string; size: number } | undefined;
  for (const path of files) {
    const size = await stat(join(root, path)).then(
      (s) => (s.isFile() ? s.size : 0),
      () => 0,
    );
    if (size > (largest?.size ?? 0)) largest = { path, size };
  }
  return largest !== undefined && largest.size / 3 > window ? largest.path : undefined;
}

function scriptedSummarizer(): LLMProvider {
  return mockModel(
    (request) => {
      const text = String(request.messages[1]?.content ?? '');
      const files = [...new Set(text.match(/read_file\(\{"path":"[^"]+"\}\)/g) ?? [])].map((m) => m.slice(19, -3));
      return `The user asked for a review of the project. Files read so far: ${files.join(', ') || 'none'}.`;
    },
    { modelId: 'scripted-summarizer' },
  );
}

/**
 * The main job (`lousho run`, `npm start`): an agent reads `args[0]` (default: the current
 * folder) with real file tools and compacts its transcript as it goes; the report shows each
 * step's request against the window and the threshold, each compaction and recovery, and a
 * summary; a report page is written at the end (to `options.report`, else a temporary file)
 * and its path printed.
 */
export async function runJob(
  args: string[],
  options: { colours: Colours; out: (line: string) => void; report?: string },
) {
  const { colours: c, out } = options;
  const root = resolve(args[0] ?? '.');
  const choice = await chooseModel();
  let provider: LLMProvider | undefined;
  if (choice.spec !== undefined) {
    try {
      provider = resolveProvider(choice.spec);
      out(`Model: ${c.bold(describeProvider(provider))} (${choice.reason}).`);
    } catch (error) {
      // A model you named and cannot be used is an error, not a reason to run the scripted demo.
      if (choice.reason === 'from LOUSHO_MODEL')
        throw new UsageError(`lousho run: cannot use LOUSHO_MODEL=${choice.spec}: ${(error as Error).message}`);
      out(c.yellow(`Cannot use ${choice.spec}: ${(error as Error).message}`));
    }
  }
  const scripted = provider === undefined;
  if (provider === undefined) {
    out(`No model is configured (${choice.reason}): a scripted model (mockModel) drives the agent.`);
    out(
      `Its window is set to ${SCRIPTED_WINDOW.toLocaleString('en-US')} tokens so that compaction shows within the run.`,
    );
    const files = await listTree(root);
    const big = await oversizedFile(root, files, SCRIPTED_WINDOW);
    out(
      `Besides compaction it demonstrates recoveries: its model rejects one request as too long (the run compacts and retries)${big === undefined ? '' : `, and it reads ${big}, larger than the window (a newest result is never compacted, so a summary cannot help and is refused; the run cuts that result before sending)`}. No other error is expected.`,
    );
    const demos = { overflowWindow: SCRIPTED_WINDOW, ...(big === undefined ? {} : { oversizedFile: big }) };
    provider = mockModel(explorerScript(files, demos), { modelId: 'scripted-explorer' });
  }
  const contextWindow = scripted ? SCRIPTED_WINDOW : (getModelInfo(provider.modelId)?.contextWindow ?? 128_000);
  out(`Reading ${root}`);
  out(c.dim(`Each step: the request's size in the window, | marking the compaction threshold.\n`));

  const agent = createAgent({
    provider,
    instructions: INSTRUCTIONS,
    tools: fileTools({ root }) as Tool<unknown, unknown>[],
    compaction: {
      strategy: twoPhaseStrategy({ model: scripted ? scriptedSummarizer() : provider }),
      ...(scripted ? { contextWindow: SCRIPTED_WINDOW } : {}),
    },
    limits: { maxSteps: 200 },
  });
  const reporter = createRunReporter({ contextWindow, colours: c, out });
  const recorder = createReportRecorder({
    title: `lousho run ${root}`,
    source: `recorded from the run's events, as ${describeProvider(provider)} ran`,
    contextWindow,
    model: provider.modelId,
  });
  const stream = agent.stream(TASK);
  for await (const event of stream) {
    reporter.event(event);
    recorder.event(event);
  }
  const result = await stream.result;
  out(`\n${c.bold('Answer')}: ${result.text}\n`);
  for (const line of reporter.summary(result)) out(line);
  const leading = [{ role: 'system', content: INSTRUCTIONS } as const, { role: 'user', content: TASK } as const];
  out(await writeRunReport(recorder.report(result, leading), options.report ?? runReportPath(), c));
}
