#!/usr/bin/env node
/**
 * The command line, and the main job: `lousho run [folder]` (the default) has an agent read
 * a folder (this project by default) with real file tools and compact its transcript as it
 * goes, printing the compaction events as they happen. It uses a real model when one is
 * configured (see choose-model.ts), else a scripted one. `lousho inspect` and `lousho
 * compact` work on a saved transcript (see commands.ts).
 *
 *   npm start [-- <folder>]
 */
import { resolve } from 'node:path';
import { createAgent } from '../agent/create-agent.js';
import { twoPhaseStrategy } from '../compaction/two-phase.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { Tool } from '../executor/tool.js';
import { resolveProvider } from '../providers/resolve-provider.js';
import { mockModel } from '../testing/mock-model.js';
import { chooseModel, describeProvider } from './choose-model.js';
import { runCli } from './commands.js';
import { explorerScript } from './explorer-script.js';
import { fileTools, listTree } from './file-tools.js';

/** The scripted run uses a small window so that compaction happens within a short run. */
const SCRIPTED_WINDOW = 16_000;

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

async function runJob(args: string[]): Promise<void> {
  const root = resolve(args[0] ?? '.');
  const tools = fileTools({ root }) as Tool<unknown, unknown>[];
  const choice = await chooseModel();
  let provider: LLMProvider | undefined;
  let summarizer: LLMProvider | string;
  if (choice.spec !== undefined) {
    try {
      provider = resolveProvider(choice.spec);
      console.log(`Model: ${describeProvider(provider)} (${choice.reason}).`);
    } catch (error) {
      console.log(`Cannot use ${choice.spec}: ${(error as Error).message}`);
    }
  }
  if (provider === undefined) {
    console.log(`No model is configured (${choice.reason}): a scripted model (mockModel) drives the agent.`);
    console.log(
      `Its window is set to ${SCRIPTED_WINDOW.toLocaleString('en-US')} tokens so that compaction shows within the run.`,
    );
    provider = mockModel(explorerScript(await listTree(root)), { modelId: 'scripted-explorer' });
    summarizer = scriptedSummarizer();
  } else {
    summarizer = provider;
  }
  console.log(`Reading ${root}\n`);

  const agent = createAgent({
    provider,
    instructions: 'You are a code reviewer. Use the tools to read the project, then say what it does.',
    tools,
    compaction: {
      strategy: twoPhaseStrategy({ model: summarizer }),
      ...(choice.spec === undefined || provider.provider === 'mock' ? { contextWindow: SCRIPTED_WINDOW } : {}),
    },
    limits: { maxSteps: 200 },
  });

  const stream = agent.stream('Read the project and tell me what it does.');
  for await (const event of stream) {
    if (event.type === 'tool.start') {
      process.stdout.write(`step ${event.step}: ${event.toolCall.name}(${JSON.stringify(event.toolCall.arguments)})\n`);
    } else if (event.type === 'compaction.start') {
      console.log(
        `  compaction.start  ${event.strategy}: ${event.tokensBefore} tokens > threshold ${event.thresholdTokens}`,
      );
    } else if (event.type === 'compaction.done') {
      const what = event.unchanged
        ? 'nothing to compact'
        : `${event.tokensBefore} -> ${event.tokensAfter} tokens, ${event.prunedToolCallIds.length} results pruned${event.summary ? ', old turns summarized' : ''}`;
      console.log(
        `  compaction.done   ${event.appliedStrategy ?? event.strategy}: ${what}${event.error ? ` (error: ${event.error.message})` : ''}`,
      );
    }
  }
  const result = await stream.result;
  console.log(`\n${result.text}\n`);
  const { usage } = result;
  console.log(
    `${result.steps} steps, ${result.messages.length} messages; ${usage.inputTokens} input + ${usage.outputTokens} output tokens`,
  );
  for (const [model, totals] of Object.entries(usage.byModel)) {
    console.log(
      `  ${model}: ${totals.calls} calls, ${totals.inputTokens} input tokens${totals.costUsd === undefined ? '' : `, $${totals.costUsd.toFixed(4)}`}`,
    );
  }
}

const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
runCli(process.argv.slice(2), io, runJob).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
