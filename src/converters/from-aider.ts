import type { Message } from '../messages/types.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { type LogReading, logExtras, REPORTED_USAGE, type ReportedUsage, reportedUsage } from './log-reading.js';

const STARTED = /^# aider chat started at /m;

/** True for an Aider chat history (`.aider.chat.history.md`): Markdown with `# aider chat started at` headers. */
export function isAiderHistory(text: unknown): boolean {
  return typeof text === 'string' && STARTED.test(text.slice(0, 10_000));
}

/** A count as aider prints it ("2.3k", "1.2M", "156"). */
function count(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number.parseFloat(text);
  const scale = /k$/i.test(text) ? 1_000 : /M$/.test(text) ? 1_000_000 : 1;
  return Number.isFinite(n) ? Math.round(n * scale) : undefined;
}

/** The usage of aider's "Tokens: 4.2k sent, 1.0k cache write, 2.0k cache hit, 250 received." line (rounded as printed). */
function tokensLine(line: string): ReportedUsage | undefined {
  const found =
    /Tokens: ([\d.]+[kM]?) sent(?:, ([\d.]+[kM]?) cache write)?(?:, ([\d.]+[kM]?) cache hit)?, ([\d.]+[kM]?) received/.exec(
      line,
    );
  if (found === null) return undefined;
  return reportedUsage({
    inputTokens: count(found[1]),
    cacheWriteTokens: count(found[2]),
    cacheReadTokens: count(found[3]),
    outputTokens: count(found[4]),
  });
}

/**
 * An Aider chat history (`.aider.chat.history.md`) as our messages, with the main model it
 * names and the usage of its newest reply. Lines starting `#### ` are the user's (one message
 * per block, as aider/io.py writes them); aider's own commands (`/add`, `/run`, ...) are not
 * read: aider sends none of them, and writes the text that `/ask` or `/architect` forwards as a
 * block of its own. Other lines
 * are the model's replies; lines starting `>` are aider's notes and tool output, which the
 * model does not see: of them only "Main model:" (the model) and "Tokens: ... sent, ...
 * received" (the reply's `metadata.reportedUsage`, rounded as aider prints it) are read.
 * Aider edits files through the text of its replies: there are no tool calls. `detail` counts
 * the commands left out.
 *
 * @example
 * const { messages, model } = fromAider(await readFile('.aider.chat.history.md', 'utf8'));
 */
export function fromAider(text: string, options: ConvertOptions = {}): LogReading {
  const messages: Message[] = [];
  let model: string | undefined;
  let reported: ReportedUsage | undefined;
  let block: { role: 'user' | 'assistant'; lines: string[] } | undefined;
  const commands = new Set<string>();
  const close = () => {
    if (block === undefined) return;
    const content = block.lines.join('\n').trim();
    const command = block.role === 'user' ? /^\/\S+/.exec(content)?.[0] : undefined;
    if (command !== undefined) commands.add(command);
    else if (content !== '') messages.push({ role: block.role, content });
    block = undefined;
  };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/ {2}$/, ''); // aider ends its lines with a Markdown line break
    if (line.startsWith('#### ') || line === '####') {
      if (block?.role !== 'user') close();
      block ??= { role: 'user', lines: [] };
      block.lines.push(line.slice(5));
    } else if (line.startsWith('>') || STARTED.test(line)) {
      close();
      const note = line.replace(/^>\s?/, '');
      if (note.startsWith('Main model: ')) model = note.slice('Main model: '.length).split(' ')[0];
      const usage = tokensLine(note);
      const last = messages.at(-1);
      if (usage !== undefined && last?.role === 'assistant') {
        last.metadata = { ...last.metadata, [REPORTED_USAGE]: usage };
        reported = usage;
      }
    } else if (block?.role === 'user' && line.trim() === '') close();
    else if (block !== undefined || line.trim() !== '') {
      if (block?.role !== 'assistant') close();
      block ??= { role: 'assistant', lines: [] };
      block.lines.push(line);
    }
  }
  close();
  const left = [...commands].join(', ');
  return {
    messages: checkedTranscript(messages, options),
    ...logExtras({ model, reported, detail: left === '' ? undefined : `aider's own commands left out: ${left}` }),
  };
}
