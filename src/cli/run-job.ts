import { open, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createAgent } from '../agent/create-agent.js';
import { twoPhaseStrategy } from '../compaction/two-phase.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import { LoushoError } from '../errors/lousho-error.js';
import { partialResult } from '../executor/result.js';
import type { Tool } from '../executor/tool.js';
import { resolveProvider } from '../providers/resolve-provider.js';
import { mockModel } from '../testing/mock-model.js';
import { isBinary } from './binary-content.js';
import { chooseModel, describeProvider } from './choose-model.js';
import type { Colours } from './colour.js';
import { explorerScript, type FileRead, fileRead, OVERCOUNT } from './explorer-script.js';
import { fileTools, listTree } from './file-tools.js';
import { count } from './report-format.js';
import { createReportRecorder } from './report-from-events.js';
import { runReportPath, writeRunReport } from './report-run.js';
import type { RunOptions } from './run-command.js';
import { modelRefusal, modelWindow } from './run-model.js';
import { createRunReporter } from './run-reporter.js';
import { UsageError } from './usage-error.js';

/**
 * The scripted run's window: small, so that compaction happens within a short run, and large
 * enough that its summaries get under the threshold (this run demonstrates no error).
 */
export const SCRIPTED_WINDOW = 24_000;

/** The main job's step limit when --max-steps does not set one. */
export const DEFAULT_MAX_STEPS = 200;

const INSTRUCTIONS = 'You are a code reviewer. Use the tools to read the project, then say what it does.';
const TASK = 'Read the project and tell me what it does.';

/** The first 64 KiB of a file, enough for isBinary(). */
async function head(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** The text files of `files` (relative to `root`), by their content whatever their names: a binary one, or one that cannot be read, is none. */
async function textFiles(root: string, files: readonly string[]): Promise<string[]> {
  const text: string[] = [];
  for (const path of files) {
    const binary = await head(join(root, path)).then(isBinary, () => true);
    if (!binary) text.push(path);
  }
  return text;
}

/** The largest of the text files when it holds more tokens than the window (about 3 bytes a token or fewer). */
async function oversizedFile(root: string, files: readonly string[], window: number): Promise<string | undefined> {
  const sized: { path: string; size: number }[] = [];
  for (const path of files) {
    const size = await stat(join(root, path)).then(
      (s) => (s.isFile() ? s.size : 0),
      () => 0,
    );
    if (size / 3 > window) sized.push({ path, size });
  }
  return sized.sort((a, b) => b.size - a.size)[0]?.path;
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

/** How the main job runs: its command-line options, where it prints, and its colours. */
export interface RunJobOptions extends RunOptions {
  colours: Colours;
  /** Prints one line of the run's story. */
  print: (line: string) => void;
}

/** The model the run uses: --model, else the environment's (see chooseModel()), else none (the scripted one). */
async function providerFor(model: string | undefined, out: (line: string) => void, c: Colours) {
  const choice = model === undefined ? await chooseModel() : { spec: model, reason: 'from --model' };
  if (choice.spec === undefined) return { provider: undefined, reason: choice.reason };
  try {
    const provider = resolveProvider(choice.spec);
    out(`Model: ${c.bold(describeProvider(provider))} (${choice.reason}).`);
    return { provider, reason: choice.reason };
  } catch (error) {
    // A model you named and cannot be used is an error, not a reason to run the scripted demo.
    const named =
      choice.reason === 'from LOUSHO_MODEL'
        ? `LOUSHO_MODEL=${choice.spec}`
        : choice.reason === 'from --model'
          ? `--model ${choice.spec}`
          : undefined;
    const why = modelRefusal(choice.spec, error);
    if (named !== undefined) throw new UsageError(`lousho run: cannot use ${named}: ${why}`);
    out(c.yellow(`Cannot use ${choice.spec}: ${why}`));
    return { provider: undefined, reason: choice.reason };
  }
}

/** The scripted model of a run without a real one, and the demonstrations it announces. */
async function scriptedProvider(
  root: string,
  window: number,
  maxSteps: number,
  reason: string,
  out: (line: string) => void,
  reads: () => readonly FileRead[],
) {
  out(
    `No model is configured (${reason}): a scripted model drives the agent (--model provider/model runs a real one).`,
  );
  out(`Its window is set to ${count(window)} tokens so that compaction shows within the run.`);
  const tree = await listTree(root);
  if (tree.unreadable.length > 0) out(`Unreadable, left out: ${tree.unreadable.join(', ')}.`);
  const files = await textFiles(root, tree.files);
  const big = await oversizedFile(root, files, window);
  const over = count(Math.ceil(window / OVERCOUNT));
  out(
    `Besides compaction it demonstrates recoveries: its model counts a quarter more tokens than the run estimates (as a provider with a hidden prompt does), so the first request over ${over} tokens by our estimate is rejected as too long (the run compacts and retries)${big === undefined ? '' : `, and it reads ${big}, larger than the window (a newest result is never compacted, so a summary cannot help and is refused; the run cuts that result before sending)`}. No other error is expected.`,
  );
  const demos = { overflowWindow: window, maxSteps, ...(big === undefined ? {} : { oversizedFile: big }) };
  return mockModel(explorerScript(files, demos, 3, reads), { modelId: 'scripted-explorer' });
}

/**
 * The main job (`lousho run`, `npm start`): an agent reads `options.folder` (default: the
 * current folder) with real file tools and compacts its transcript as it goes; the report
 * shows each step's request against the window and the threshold (unless `quiet`), each
 * compaction and recovery, and a summary; a report page is written at the end (to
 * `options.out`, else a temporary file) and its path printed.
 */
export async function runJob(options: RunJobOptions): Promise<void> {
  const { colours: c, print: out } = options;
  const root = resolve(options.folder ?? '.');
  const chosen = await providerFor(options.model, out, c);
  const scripted = chosen.provider === undefined;
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  let window = options.window ?? SCRIPTED_WINDOW;
  if (chosen.provider !== undefined && options.window === undefined) {
    // The window the run tells compaction, so that a window nobody knows is said in --window's words.
    const known = await modelWindow(chosen.provider, describeProvider(chosen.provider));
    if (known.note !== undefined) out(c.yellow(known.note));
    window = known.contextWindow;
  }
  // What read_file gave the model, which the scripted answer tells (and nothing else).
  const reads: FileRead[] = [];
  const provider = chosen.provider ?? (await scriptedProvider(root, window, maxSteps, chosen.reason, out, () => reads));
  const contextWindow = window;
  out(`Reading ${root}`);
  if (options.quiet !== true)
    out(c.dim(`Each step: the request's size in the window, | marking the compaction threshold.\n`));

  const agent = createAgent({
    provider,
    instructions: INSTRUCTIONS,
    tools: fileTools({ root, onRead: (read) => reads.push(fileRead(read)) }) as Tool<unknown, unknown>[],
    compaction: {
      strategy: twoPhaseStrategy({ model: scripted ? scriptedSummarizer() : provider }),
      contextWindow,
    },
    limits: { maxSteps },
  });
  const reporter = createRunReporter({ contextWindow, colours: c, out: options.quiet === true ? () => {} : out });
  const recorder = createReportRecorder({
    title: `lousho run ${root}`,
    source: `recorded from the run's events, as ${describeProvider(provider)} ran`,
    contextWindow,
    model: provider.modelId,
  });
  const stream = agent.stream(TASK);
  try {
    for await (const event of stream) {
      reporter.event(event);
      recorder.event(event);
    }
  } catch {
    // The same error rejects stream.result.
  }
  const result = await stream.result.catch((error: unknown) => {
    // A run stopped at its step limit is a result to picture, not a failure of the job.
    const partial =
      LoushoError.isInstance(error) && error.code === 'LOUSHO_LIMIT_EXCEEDED' ? partialResult(error) : undefined;
    if (partial === undefined) throw error;
    out(c.yellow(`\nStopped at the step limit (${maxSteps} steps); --max-steps sets it.`));
    return partial;
  });
  out(`\n${c.bold('Answer')}: ${result.text}\n`);
  for (const line of reporter.summary(result)) out(line);
  const leading = [{ role: 'system', content: INSTRUCTIONS } as const, { role: 'user', content: TASK } as const];
  out(await writeRunReport(recorder.report(result, leading), options.out ?? runReportPath(), c));
}
