import { readFileSync } from 'node:fs';
import { TRANSCRIPT_FORMATS } from '../converters/transcript-format.js';

/** The commands `lousho` knows. */
export const COMMANDS = ['run', 'inspect', 'compact', 'report', 'formats'] as const;
export type CommandName = (typeof COMMANDS)[number];

const FORMATS = `A transcript is a JSON array of messages, { "messages": [...] } (an agent's trajectory), one
message per line (JSONL), or a session file. Its format is detected (${TRANSCRIPT_FORMATS.join(', ')});
--from names it when detection cannot tell. Agent logs are read too (Claude Code, Codex CLI, opencode,
Gemini CLI, GitHub Copilot CLI, Cline and Roo Code, ACP streams, Aider, OpenHands, SWE-agent,
mini-swe-agent, tau-bench, LangChain, FileSessionStore logs); compact writes those it cannot write
back in a message format it names. \`lousho formats\` lists them all, with what each cannot carry.`;

/** What the total of inspect, compact and report counts: one count for all three. */
const TOTAL = `The total, the same in inspect, compact and report, is the request the file makes as the
provider bills it: every message (the system prompt when the file holds one), the tool definitions
a request body holds (and Anthropic's tool-use prompt), reasoning (encrypted reasoning by its
size), and nothing a provider's compaction superseded.`;

/** `lousho --help`. */
export const USAGE = `Usage: lousho <command> [options]

Commands:
  run [folder]              an agent reads the folder (default: .) and compacts its context as it goes
  inspect <transcript>      what a transcript is made of: a token chart per role and per tool
  compact <transcript>      compacts a transcript once and writes it
  report <transcript>       a page picturing the run: each step's size, every compaction, the make-up
  formats                   the formats read: the --from id of each, and what it cannot carry

Options:
  -h, --help                this help; \`lousho <command> --help\` for a command's options
  -v, --version             the version

${FORMATS}`;

/** `lousho <command> --help`. */
export const COMMAND_HELP: Record<CommandName, string> = {
  run: `Usage: lousho run [folder] [--model provider/model] [--max-steps N] [--window N] [--out page.html] [--quiet]

An agent reads the folder (default: the current one) with file tools and compacts its transcript
as it goes, printing each step's request size against the context window and the threshold, each
compaction and recovery, and a summary at the end; then it writes a page picturing the run and
prints where. It uses a real model when one is configured (--model, LOUSHO_MODEL="provider/model",
an OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENROUTER_API_KEY, or a local Ollama or LM Studio server),
else a scripted one, and says which. Colour when the terminal supports it; NO_COLOR=1 turns it off.

Options:
  --model <spec>            the model to run, e.g. openai/gpt-4o-mini or ollama/qwen3:8b (default: as above)
  --max-steps <N>           stop after N steps (default: 200)
  --window <N>              the context window in tokens that compaction works against (default: the
                            model's; 24,000 for the scripted model, so that it compacts within the run)
  --out <file>              where to write the page (default: a new file in the system's temporary folder)
  -q, --quiet               no line per step: only the summary and where the page is
  -h, --help                this help`,
  inspect: `Usage: lousho inspect <transcript> [--model gpt-4o] [--context-window N] [--from format] [--json] [--repair]

Draws the transcript's tokens as a chart: one bar per role and per tool, the context window and
the compaction threshold marked, and what pruning old tool results and summarizing old turns
would save, with the defaults \`lousho compact\` uses (the protected tail is printed). The label
says which tokenizer counted and whether the count is exact for the model; "after pruning" is
what \`lousho compact\` with the same options does. When the file records the usage the provider
reported, it is printed beside the estimate of the same request, the headline gives it as the
newest billed request, and the window is drawn with what the provider billed beyond the estimate
(a log holds no system prompt or tool definitions).

${TOTAL}

Options:
  --model <id>              the model whose tokenizer and window to use (default: the model the
                            file names, else gpt-4o)
  --context-window <N>      the window in tokens, when the model's is not known
  --threshold <share>       the compaction threshold as a share of the window (default: 0.9)
  --protected-tokens <N>    the protected tail of the previews (default: compact's, 40,000 tokens
                            at most half the threshold)
  --from <format>           the transcript's format, when detection cannot tell
  --trajectory <N>          of a file of several trajectories (tau-bench results), the N-th,
                            counted from 1 (default: the first; the output says which of how many)
  --json                    the numbers as JSON instead of the chart
  --repair                  pair calls and results that do not pair, as \`lousho compact --repair\`
                            does, and print each change
  -h, --help                this help

${FORMATS}`,
  compact: `Usage: lousho compact <transcript> [--out file] [--strategy name] [--summarizer provider/model] [options]

Compacts the transcript once and writes it (to stdout without --out) in the format it was read
in, or the one --to names. Reports on stderr what it did: results pruned, messages summarized,
tokens before and after (the total \`lousho inspect\` gives); shows progress while a summarizer works.

Options:
  --out <file>              where to write (default: stdout): a regular file or a new one, replaced
                            only once the new one is written whole and reads back as the compacted
                            transcript, and not written at all when nothing changed
  --overwrite               let --out be the transcript it reads
  --strategy <name>         prune (default): replace old tool results by markers;
                            compactor: drain the oldest turns and summarize the rest of the head;
                            summarize: replace old turns by a summary (needs --summarizer);
                            two-phase: prune, then summarize if still above the threshold (needs --summarizer)
  --summarizer <spec>       the model that writes summaries, e.g. openai/gpt-4o-mini or ollama/qwen3:8b
                            (without it, compactor truncates instead of calling a model)
  --protected-tokens <N>    the newest messages that fit in N tokens stay as they are (default:
                            40,000 tokens, at most half the threshold; printed on stderr)
  --context-window <N>      the window in tokens, when the model's is not known
  --model <id>              the model whose tokenizer and window to use (default: the model the file names)
  --from <format>           the transcript's format, when detection cannot tell
  --trajectory <N>          of a file of several trajectories (tau-bench results), the N-th,
                            counted from 1 (default: the first; the output says which of how many)
  --to <format>             write in this format instead of the one read
  --repair                  pair calls and results that do not pair (a result is moved to its call,
                            joined or kept as a note, never dropped) and print each change
  -h, --help                this help

${FORMATS}`,
  report: `Usage: lousho report <transcript or session log> [--out file.html] [--model gpt-4o] [--repair] [options]

Writes one self-contained HTML page (it loads nothing from the network) picturing the run: the
request's size per step against the context window and the compaction threshold, every
compaction and recovery marked with what it freed, what the run is made of by role and by tool,
and its largest tool results. For a transcript the steps are its assistant turns, sized by
estimate as inspect counts (its total is the transcript size), with the input tokens the
provider reported drawn as a line of their own where the log records them; for a
FileSessionStore log they are the checkpoints the session saved, and its compactions show where
they happened. A run of thousands of steps is drawn thinned, keeping every peak and drop.

${TOTAL}

Options:
  --out <file>              where to write the page (default: beside the input, run.jsonl ->
                            run.report.html); never the input itself
  --model <id>              the model whose tokenizer and window to use (default: the one the
                            file names, else gpt-4o)
  --context-window <N>      the window in tokens, when the model's is not known
  --threshold <share>       the compaction threshold as a share of the window (default: 0.9)
  --from <format>           the input's format, when detection cannot tell
  --trajectory <N>          of a file of several trajectories (tau-bench results), the N-th,
                            counted from 1 (default: the first; the output says which of how many)
  --repair                  pair calls and results that do not pair, as \`lousho compact --repair\`
                            does, and print each change
  -h, --help                this help

${FORMATS}`,
  formats: `Usage: lousho formats [--json]

Lists every format lousho reads, one line each: the id --from takes to name it (detection picks
one otherwise), its name, and what of it is not read or not carried. A file of none of them is
refused in one line that names this command.

Options:
  --json                    the list as JSON
  -h, --help                this help`,
};

/** The package's version, read from its package.json (two folders up, from src/cli or dist/cli). */
export function version(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
