/**
 * What a run report (`lousho report`, the page `npm start` writes) shows, whatever it was read
 * from: a transcript, a FileSessionStore log, or a run's events as they came.
 */

/** One step of the run: the size of the request that produced one model reply. */
export interface ReportStep {
  /** The step's place in the run, from 1 (a session's turns are numbered through). */
  step: number;
  /** The request's size in tokens. */
  tokens: number;
  /** How the run named it, when that is not just the step: 'turn 2, step 3'. */
  label?: string;
  /** The input tokens the provider reported for the same request, where the log records them (`tokens` is then the estimate). */
  reported?: number;
}

/** A step's size as billed where the log says, else as estimated. */
export const billedTokens = (step: ReportStep): number => step.reported ?? step.tokens;

/** A compaction, a recovery or a rewind: a moment the request's size changed other than by growing. */
export interface ReportMark {
  /** The step whose request it changed. */
  step: number;
  kind: 'compaction' | 'recovery' | 'rewind';
  /** What ran, in words: 'two-phase, ran prune-tool-results'. */
  what: string;
  /** The request's size before and after, when known. */
  tokensBefore?: number;
  tokensAfter?: number;
  /** More about it: results pruned, what a recovery did, an error. */
  detail?: string;
}

/** A row of a make-up table: a role's or a tool's messages and tokens, over the run and at its end. */
export interface ReportRow {
  name: string;
  messages: number;
  tokens: number;
  /** Of them, in the transcript at the end (absent when the run's transcript is the only one known). */
  keptMessages?: number;
  keptTokens?: number;
}

/** One of the largest tool results. */
export interface ReportResult {
  /** The step whose call asked for it. */
  step?: number;
  tool: string;
  toolCallId: string;
  tokens: number;
  chars: number;
  /** Its first characters. */
  preview: string;
}

/** Everything the page shows. */
export interface ReportData {
  /** The file or run it pictures. */
  title: string;
  /** Where its numbers come from, in words: 'read as OpenAI chat messages in a JSON array'. */
  source: string;
  /** How the sizes were obtained: 'estimated with the o200k tokenizer', 'as the provider reported them'. */
  sizes: string;
  model?: string;
  contextWindow: number;
  /** Where the window came from: 'gpt-4o's', '--context-window', 'assumed'. */
  windowFrom: string;
  thresholdTokens: number;
  steps: ReportStep[];
  marks: ReportMark[];
  byRole: ReportRow[];
  byTool: ReportRow[];
  largest: ReportResult[];
  /** The newest request whose input the provider reported, and its estimate (the step it produced, when it is one). */
  newestBilled?: { reported: number; estimated: number; step?: number };
  /** For a transcript: the size of the request it makes, the total inspect and compact give it (transcriptTokens()). */
  transcriptTokens?: number;
  /** Messages and tokens produced over the run, and (when known apart) in the transcript at its end. */
  totals: { messages: number; tokens: number; keptMessages?: number; keptTokens?: number };
  /** Remarks on what the source could not say (a session log does not tell a recovery from a compaction). */
  notes: string[];
}

/** The tokens a mark freed (0 when it freed none or its sizes are unknown). */
export function freedTokens(mark: ReportMark): number {
  if (mark.tokensBefore === undefined || mark.tokensAfter === undefined) return 0;
  return Math.max(0, mark.tokensBefore - mark.tokensAfter);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The compactions, recoveries and rewinds among `marks`, in the words the run's summary and
 * the report's line both use: '88 compactions, 3 recoveries' (a recovery that compacted is
 * one recovery; rewinds only when there are some).
 */
export function marksInWords(marks: readonly ReportMark[]): string {
  const of = (kind: ReportMark['kind']) => marks.filter((m) => m.kind === kind).length;
  const parts = [
    plural(of('compaction'), 'compaction', 'compactions'),
    plural(of('recovery'), 'recovery', 'recoveries'),
  ];
  if (of('rewind') > 0) parts.push(plural(of('rewind'), 'rewind', 'rewinds'));
  return parts.join(', ');
}
