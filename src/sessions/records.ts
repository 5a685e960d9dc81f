import type { Message, ToolMessage } from '../messages/types.js';
import { validateMessageShapes } from '../messages/validate.js';
import { fromSessionJson, toSessionJson } from './serialize.js';

/** One saved checkpoint of a session, as session.checkpoints() lists it. */
export interface SessionCheckpoint {
  /** Pass it to session.rewind(). */
  id: string;
  /** The turn it belongs to (1 for the session's first turn). */
  turn: number;
  /** Model replies of that turn so far (0 when the turn had just started). */
  step: number;
  /** When it was saved, in ms since the epoch. */
  time: number;
  /** Messages in the transcript at that point. */
  messageCount: number;
  /** The transcript's estimated size at that point, in tokens. */
  tokens: number;
}

/**
 * A checkpoint as its record keeps it: the token count is left out (session.checkpoints()
 * counts it when it lists the checkpoint), so a save never waits for the tokenizer to load.
 * Logs written before kept it, and it is read back as it was.
 */
export type SavedCheckpoint = Omit<SessionCheckpoint, 'tokens'> & { tokens?: number };

/** A tool call a turn stopped before, waiting for session.approve() or session.reject(). */
export interface RecordedApproval {
  /** The id of the call waiting for a decision. */
  toolCallId: string;
  /** The name of the tool called. */
  toolName: string;
  /** The arguments the model wrote. */
  arguments: unknown;
}

/**
 * What a session's log holds, one record at a time; a store keeps a batch of records per
 * entry (one save), and replaying every record in order gives the session's state. Records
 * only add what a step added, so a save costs what is new; `rewrite` (after a compaction) is
 * the one that carries the whole transcript, and `tail` replaces only its newest messages.
 */
export type SessionRecord =
  /** Messages appended to the transcript. */
  | { type: 'messages'; messages: Message[] }
  /** The whole transcript, replacing what was there (a compaction rewrote it). */
  | { type: 'rewrite'; messages: Message[] }
  /**
   * The transcript's first `keep` messages, then `messages`: a change to its end (the newest
   * items of an Agents SDK session replaced or popped) saved as what changed, not as the whole
   * transcript (SessionLog saves one as a snapshot now and then, so reads start late enough).
   * A `keep` longer than the transcript is a log that was damaged or written over.
   */
  | { type: 'tail'; keep: number; messages: Message[] }
  /** A turn started; it stays pending until turn.done. */
  | { type: 'turn.start'; turn: number }
  /** The pending turn finished. */
  | { type: 'turn.done' }
  /** The turn just started was sent with this idempotency key (no other turn is ever started for it). */
  | { type: 'turn.key'; key: string }
  /** Tool calls about to run (a crash leaves them "running"). */
  | { type: 'tools.running'; toolCallIds: string[] }
  /** One tool call's result, kept with the pending turn until its step ends. */
  | { type: 'tool.result'; message: ToolMessage }
  /** The step's results join the transcript, in this (call) order. */
  | { type: 'tool.results'; toolCallIds: string[] }
  /** The turn stopped before these calls until each is approved or rejected. */
  | { type: 'approval.requested'; approvals: RecordedApproval[] }
  /** A decision on one of them. */
  | { type: 'approval.decided'; toolCallId: string; approved: boolean; reason?: string }
  /** A checkpoint of everything above it. */
  | { type: 'checkpoint'; checkpoint: SavedCheckpoint }
  /**
   * The transcript written whole (as `rewrite`), with the rest of the session's state at this
   * point: a reader may start here and skip everything before (see SessionStore.readLatest()).
   */
  | { type: 'snapshot'; messages: Message[]; state: SnapshotState }
  /** Makes checkpoint `to` current again (null: the empty session before the first turn). */
  | { type: 'rewind'; to: string | null };

/** A pending turn as a snapshot keeps it (sets and maps as lists). */
export interface SnapshotPendingTurn {
  turn: number;
  step: number;
  running: string[];
  results: ToolMessage[];
  awaiting: RecordedApproval[];
  decisions: [string, { approved: boolean; reason?: string }][];
  key?: string;
}

/** Everything of a session's state but its transcript, at one point of its log. */
export interface SnapshotState {
  turns: number;
  pending?: SnapshotPendingTurn;
  /** How many checkpoints the log holds up to this point (the next is cp-<checkpoints + 1>). */
  checkpoints: number;
  /** The current checkpoint's id and step, if any. */
  current?: string;
  currentStep: number;
  lastIdle: string | null;
  decided: [string, { approved: boolean; reason?: string }][];
  keys: [string, { turn: number; status: 'pending' | 'done' | 'cancelled'; text?: string }][];
}

/** One store entry: a batch of records saved together, as a single line of JSON. */
export function encodeEntry(records: readonly SessionRecord[]): string {
  return toSessionJson(records);
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

function checkRecord(record: unknown): asserts record is SessionRecord {
  const r = record as Record<string, unknown> | null;
  const ok = (() => {
    switch (r?.type) {
      case 'messages':
      case 'rewrite':
        validateMessageShapes(r.messages);
        return true;
      case 'tail':
        validateMessageShapes(r.messages);
        return Number.isSafeInteger(r.keep) && (r.keep as number) >= 0;
      case 'turn.start':
        return typeof r.turn === 'number';
      case 'turn.done':
        return true;
      case 'turn.key':
        return isString(r.key);
      case 'tools.running':
      case 'tool.results':
        return isStrings(r.toolCallIds);
      case 'tool.result':
        validateMessageShapes([r.message]);
        return (r.message as Message).role === 'tool';
      case 'approval.requested':
        return Array.isArray(r.approvals) && r.approvals.every((a) => isString(a?.toolCallId) && isString(a?.toolName));
      case 'approval.decided':
        return isString(r.toolCallId) && typeof r.approved === 'boolean';
      case 'checkpoint': {
        const c = r.checkpoint as Record<string, unknown> | null;
        return (
          isString(c?.id) &&
          ['turn', 'step', 'time', 'messageCount'].every((k) => typeof c?.[k] === 'number') &&
          (c?.tokens === undefined || typeof c.tokens === 'number')
        );
      }
      case 'snapshot':
        validateMessageShapes(r.messages);
        if (!isSnapshotState(r.state)) return false;
        validateMessageShapes((r.state as SnapshotState).pending?.results ?? []);
        return true;
      case 'rewind':
        return r.to === null || isString(r.to);
      default:
        return false;
    }
  })();
  if (!ok) throw new Error(`a record ${JSON.stringify(record).slice(0, 120)} is not one this library writes`);
}

function isSnapshotState(value: unknown): boolean {
  const s = value as Partial<SnapshotState> | null;
  const pending = s?.pending;
  return (
    typeof s?.turns === 'number' &&
    typeof s.checkpoints === 'number' &&
    typeof s.currentStep === 'number' &&
    (s.current === undefined || isString(s.current)) &&
    (s.lastIdle === null || isString(s.lastIdle)) &&
    Array.isArray(s.decided) &&
    Array.isArray(s.keys) &&
    (pending === undefined ||
      (typeof pending.turn === 'number' &&
        typeof pending.step === 'number' &&
        isStrings(pending.running) &&
        Array.isArray(pending.results) &&
        Array.isArray(pending.awaiting) &&
        Array.isArray(pending.decisions)))
  );
}

/** Reads one store entry back; throws a plain Error saying what is wrong when it is not one. */
export function decodeEntry(entry: string): SessionRecord[] {
  const records = fromSessionJson(entry);
  if (!Array.isArray(records)) throw new Error('an entry is not a list of records');
  for (const record of records) checkRecord(record);
  return records as SessionRecord[];
}
