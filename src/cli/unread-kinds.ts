import { isRecord } from '../converters/invalid-input.js';

/** A kind of file people hand lousho that holds no transcript it reads: how it is recognised, and what to give instead. */
interface UnreadKind {
  /** True for the text of a file that is no JSON. */
  text?: (text: string) => boolean;
  /** True for the records of a JSON file (a list, or a JSON-lines file's lines); never called with none. */
  json?: (records: Record<string, unknown>[]) => boolean;
  /** What it is and the next step, in a few words. */
  says: string;
}

const records = (data: unknown): Record<string, unknown>[] =>
  Array.isArray(data) && data.length > 0 && data.every(isRecord) ? data : [];

const UNREAD: readonly UnreadKind[] = [
  {
    text: (text) => /^interactions:\s*$/m.test(text.slice(0, 2_000)),
    says: "a VCR cassette (YAML): give one request's body as JSON instead",
  },
  {
    text: (text) => /^\s*(?:export |import |const |module\.exports)/m.test(text.slice(0, 2_000)),
    says: 'a JavaScript or TypeScript module: write its messages out as JSON instead',
  },
  {
    json: (rs) => rs.every((r) => typeof r.ts === 'number' && (r.type === 'say' || r.type === 'ask')),
    says: 'a Cline or Roo Code UI log (ui_messages.json): give api_conversation_history.json beside it',
  },
  {
    json: (rs) => rs.every((r) => typeof r.sessionId === 'string' && 'messageId' in r && typeof r.message === 'string'),
    says: "a Gemini CLI prompt log (logs.json, the user's prompts only): give its chats/session-*.json",
  },
  {
    json: (rs) => rs.every((r) => typeof r.display === 'string' && 'pastedContents' in r),
    says: "Claude Code's prompt history (history.jsonl): give a session file of ~/.claude/projects",
  },
];

/**
 * What a file that holds no transcript lousho reads is, with the next step, when it is a kind
 * people often give: its text when it is no JSON, else its parsed JSON. Undefined for others.
 */
export function unreadKind(file: { text: string } | { data: unknown }): string | undefined {
  if ('text' in file) return UNREAD.find((kind) => kind.text?.(file.text))?.says;
  const rs = records(file.data);
  return rs.length === 0 ? undefined : UNREAD.find((kind) => kind.json?.(rs))?.says;
}
