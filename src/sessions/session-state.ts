import { contentText } from '../messages/content.js';
import type { Message, ToolMessage } from '../messages/types.js';
import type { RecordedApproval, SavedCheckpoint, SessionRecord } from './records.js';

/** The durable state of a turn that has not finished (a crash, an error, or a pause for approval). */
export interface PendingTurn {
  /** The turn's number (1 for the session's first turn). */
  turn: number;
  /** Model replies of the turn saved so far. */
  step: number;
  /** Tool calls that were running at the last save. */
  running: Set<string>;
  /** Results of the open step's calls that finished, by toolCallId (they join the transcript when the step ends). */
  results: Map<string, ToolMessage>;
  /** Calls the turn stopped before, waiting for a decision. */
  awaiting: RecordedApproval[];
  /** Decisions taken on them. */
  decisions: Map<string, Decision>;
  /** The idempotency key the turn was sent with, if any. */
  key?: string;
}

/** A decision on a call that waited for approval. */
export interface Decision {
  approved: boolean;
  reason?: string;
}

/** What the log says of the turn sent with one idempotency key. */
export interface KeyedTurn {
  /** The turn's number. */
  turn: number;
  /** 'done' once it finished (`text` is its answer); 'pending' until then; 'cancelled' when dropped before finishing. */
  status: 'pending' | 'done' | 'cancelled';
  /** The turn's answer, once done. */
  text?: string;
}

interface Snapshot {
  /** The transcript at the checkpoint: the first `length` messages of `messages`, which only ever grows. */
  messages: Message[];
  length: number;
  pending: PendingTurn | undefined;
  turns: number;
  lastIdle: string | null;
}

function copyPending(p: PendingTurn | undefined): PendingTurn | undefined {
  if (p === undefined) return undefined;
  return {
    turn: p.turn,
    step: p.step,
    running: new Set(p.running),
    results: new Map(p.results),
    awaiting: [...p.awaiting],
    decisions: new Map(p.decisions),
    ...(p.key === undefined ? {} : { key: p.key }),
  };
}

/** Thrown while replaying a log read from a snapshot when a record needs what came before it (a rewind further back). */
export class HistoryNeeded extends Error {}

/**
 * Thrown by apply() for a record that does not follow from the ones before it (a `tail`
 * keeping more messages than the transcript has): the log was damaged, or written by a
 * process that did not read it first. Nothing of the state changed.
 */
export class LogInconsistent extends Error {}

/**
 * A session's state as its log says: replays records one at a time (the same code for a
 * session read from its store and for one that is writing), and keeps a snapshot per
 * checkpoint so rewind() can make any of them current again. Appending messages only pushes
 * onto the current array; a rewrite or a rewind starts a new one, and a tail cuts the array in
 * place only past every snapshot's length (else it starts a new one), so every snapshot stays
 * valid. A holder of `messages` sees a tail change it in place: compare lengths and ends, not
 * only the array.
 * A state restored from a snapshot record (restore()) knows only the checkpoints after it.
 */
export class SessionState {
  messages: Message[] = [];
  pending: PendingTurn | undefined;
  /** Turns in the current history (the next turn is turns + 1). */
  turns = 0;
  /** Every checkpoint saved, in order (rewound ones included, until clear()); only those after the snapshot when partial. */
  readonly checkpoints: SavedCheckpoint[] = [];
  /** How many checkpoints the log holds (the next one is cp-<checkpointCount + 1>). */
  checkpointCount = 0;
  /** True when the state was restored from a snapshot: the checkpoints before it are not known. */
  partial = false;
  /** The id of the checkpoint the state is at, if any. */
  current: string | undefined;
  /** The step of that checkpoint (0 when none). */
  currentStep = 0;
  /** The last checkpoint of the current history taken between turns (null: the empty session). */
  lastIdle: string | null = null;
  /** Every decision ever taken in the session, by toolCallId (a decision is final). */
  readonly decided = new Map<string, Decision>();
  /** The turn of every idempotency key the session was sent with. */
  readonly keys = new Map<string, KeyedTurn>();
  readonly #snapshots = new Map<string, Snapshot>();
  /** The longest prefix of `messages` (the array) a snapshot holds: a tail may cut the array in place after it. */
  #shared = 0;

  get status(): 'idle' | 'turn_pending' | 'awaiting_approval' | 'decided' {
    const pending = this.pending;
    if (pending === undefined) return 'idle';
    if (pending.awaiting.length === 0) return 'turn_pending';
    return this.undecided().length > 0 ? 'awaiting_approval' : 'decided';
  }

  /** The calls the pending turn waits on that have no decision yet. */
  undecided(): RecordedApproval[] {
    const pending = this.pending;
    return (pending?.awaiting ?? []).filter((a) => !pending?.decisions.has(a.toolCallId));
  }

  /** The open step's finished results, in the order of the last assistant message's calls. */
  openResults(): ToolMessage[] {
    const results = this.pending?.results;
    if (results === undefined || results.size === 0) return [];
    const last = this.messages.findLast((m) => m.role === 'assistant');
    const order = last?.role === 'assistant' ? (last.toolCalls ?? []).map((c) => c.id) : [];
    return order.flatMap((id) => results.get(id) ?? []);
  }

  apply(record: SessionRecord): void {
    const pending = this.pending;
    switch (record.type) {
      case 'messages':
        this.messages.push(...record.messages);
        return;
      case 'rewrite':
      case 'snapshot': // replayed from the start, a snapshot only rewrites (the rest of it is what the log says already)
        this.messages = [...record.messages];
        this.#shared = 0;
        pending?.results.clear();
        return;
      case 'tail':
        this.#tail(record.keep, record.messages);
        return;
      case 'turn.start':
        this.pending = {
          turn: record.turn,
          step: 0,
          running: new Set(),
          results: new Map(),
          awaiting: [],
          decisions: new Map(),
        };
        this.turns = record.turn;
        return;
      case 'turn.done':
        if (pending?.key !== undefined)
          this.keys.set(pending.key, { turn: pending.turn, status: 'done', text: this.#answer() });
        this.pending = undefined;
        return;
      case 'turn.key':
        if (pending !== undefined) {
          pending.key = record.key;
          this.keys.set(record.key, { turn: pending.turn, status: 'pending' });
        }
        return;
      case 'tools.running':
        for (const id of record.toolCallIds) pending?.running.add(id);
        if (pending !== undefined)
          pending.awaiting = pending.awaiting.filter((a) => !pending.running.has(a.toolCallId));
        return;
      case 'tool.result':
        pending?.results.set(record.message.toolCallId, record.message);
        pending?.running.delete(record.message.toolCallId);
        if (pending !== undefined)
          pending.awaiting = pending.awaiting.filter((a) => a.toolCallId !== record.message.toolCallId);
        return;
      case 'tool.results':
        for (const id of record.toolCallIds) {
          const result = pending?.results.get(id);
          if (result !== undefined) this.messages.push(result);
        }
        if (pending !== undefined) {
          pending.results.clear();
          pending.running.clear();
          pending.awaiting = [];
          pending.decisions.clear();
        }
        return;
      case 'approval.requested':
        if (pending !== undefined) pending.awaiting = [...record.approvals];
        return;
      case 'approval.decided': {
        const decision: Decision =
          record.reason === undefined
            ? { approved: record.approved }
            : { approved: record.approved, reason: record.reason };
        pending?.decisions.set(record.toolCallId, decision);
        this.decided.set(record.toolCallId, decision);
        return;
      }
      case 'checkpoint':
        this.#checkpoint(record.checkpoint);
        return;
      case 'rewind':
        this.#rewind(record.to);
        return;
    }
  }

  /**
   * Keeps the first `keep` messages and appends `messages`, in place when no snapshot holds
   * what is cut (the cost is then that of the messages added, not the transcript's; the cut
   * is found by what counts the transcript, which compares it). The
   * pending turn's results are left alone, unlike a rewrite's: only an Agents SDK session
   * writes a tail, and it opens no turn; a kept call's result still belongs to it.
   */
  #tail(keep: number, messages: readonly Message[]): void {
    if (keep > this.messages.length) {
      throw new LogInconsistent(
        `a tail record keeps ${keep} messages of a transcript of ${this.messages.length}: ` +
          'the log was damaged, or written by a process that had not read it',
      );
    }
    if (keep < this.#shared) {
      this.messages = this.messages.slice(0, keep);
      this.#shared = 0;
    } else if (keep < this.messages.length) {
      this.messages.length = keep;
    }
    this.messages.push(...messages);
  }

  #checkpoint(checkpoint: SavedCheckpoint): void {
    if (this.pending !== undefined) this.pending.step = checkpoint.step;
    else this.lastIdle = checkpoint.id;
    this.checkpoints.push(checkpoint);
    this.checkpointCount++;
    this.current = checkpoint.id;
    this.currentStep = checkpoint.step;
    this.#shared = Math.max(this.#shared, this.messages.length);
    this.#snapshots.set(checkpoint.id, {
      messages: this.messages,
      length: this.messages.length,
      pending: copyPending(this.pending),
      turns: this.turns,
      lastIdle: this.lastIdle,
    });
  }

  /** The text of the transcript's last assistant message (a finished turn's answer). */
  #answer(): string {
    const last = this.messages.findLast((m) => m.role === 'assistant');
    return last === undefined ? '' : contentText(last.content);
  }

  #rewind(to: string | null): void {
    const dropped = this.pending?.key;
    if (dropped !== undefined && this.keys.get(dropped)?.status === 'pending') {
      this.keys.set(dropped, { turn: this.pending?.turn ?? 0, status: 'cancelled' });
    }
    const snapshot = to === null ? undefined : this.#snapshots.get(to);
    if (to !== null && snapshot === undefined && this.partial) throw new HistoryNeeded(`checkpoint ${to}`);
    this.messages = snapshot === undefined ? [] : snapshot.messages.slice(0, snapshot.length);
    this.#shared = 0;
    this.pending = copyPending(snapshot?.pending);
    const restored = this.pending;
    if (restored?.key !== undefined) this.keys.set(restored.key, { turn: restored.turn, status: 'pending' });
    this.turns = snapshot?.turns ?? 0;
    this.lastIdle = snapshot?.lastIdle ?? null;
    this.current = snapshot === undefined ? undefined : (to as string);
    this.currentStep = this.checkpoints.find((c) => c.id === to)?.step ?? 0;
  }

  has(checkpointId: string): boolean {
    return this.#snapshots.has(checkpointId);
  }

  /** The transcript at a checkpoint this state knows (undefined for one it does not). */
  messagesAt(checkpointId: string): Message[] | undefined {
    const snapshot = this.#snapshots.get(checkpointId);
    return snapshot?.messages.slice(0, snapshot.length);
  }
}
