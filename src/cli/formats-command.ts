import { LOG_FORMATS } from '../converters/log-formats.js';
import { FORMAT_NAMES, TRANSCRIPT_FORMATS, type TranscriptFormat } from '../converters/transcript-format.js';
import type { CliIO } from './cli-io.js';
import { COMMAND_HELP } from './help.js';
import { parseCommandArgs } from './parse-command-args.js';

/** What a message format cannot carry, in a few words (docs/converters.md has the whole table). */
const MESSAGE_LACKS: Record<TranscriptFormat, string> = {
  lousho: "nothing: the library's own messages",
  'openai-chat': 'isError of tool results; images in tool results become a note',
  'openai-responses': 'toolName and isError of tool results; reasoning carried, not compacted',
  anthropic: 'cache_control and citations; toolName; image detail and size',
  'ai-sdk': 'providerOptions of text and image parts',
};

/** One row per format read: the id --from takes, its name, and what it cannot carry. */
export function formatRows(): [id: string, name: string, lacks: string][] {
  return [
    ...TRANSCRIPT_FORMATS.map((f): [string, string, string] => [f, FORMAT_NAMES[f], MESSAGE_LACKS[f]]),
    ['', 'mini-swe-agent trajectory', 'extra fields; its exit message is kept aside (read as openai-chat)'],
    ...LOG_FORMATS.map((f): [string, string, string] => [f.id, f.name, f.lacks]),
    ['session-log', 'FileSessionStore log', 'checkpoints, approvals and the pending turn'],
  ];
}

/** lousho formats: every format read, the --from id that names it, and what it cannot carry. */
export async function formats(args: string[], io: CliIO): Promise<void> {
  const parsed = parseCommandArgs('formats', args, { json: { type: 'boolean' } });
  if (parsed === 'help') return io.out(COMMAND_HELP.formats);
  const rows = formatRows();
  if (parsed.values.json === true)
    return io.out(
      JSON.stringify(
        rows.map(([id, name, lacks]) => ({ id: id || undefined, name, lacks })),
        null,
        2,
      ),
    );
  const width = (k: 0 | 1) => Math.max(...rows.map((r) => r[k].length));
  io.out('Formats lousho reads (detected; --from <id> names one when detection cannot tell):');
  io.out(`  ${'id'.padEnd(width(0))}  ${'format'.padEnd(width(1))}  not carried`);
  for (const [id, name, lacks] of rows) io.out(`  ${(id || '-').padEnd(width(0))}  ${name.padEnd(width(1))}  ${lacks}`);
}
