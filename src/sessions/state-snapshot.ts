import type { SessionRecord, SnapshotState } from './records.js';
import type { SessionState } from './session-state.js';

/** The record a rewrite is saved as: the transcript, and everything else of `state` (copies, which later records leave alone). */
export function snapshotRecord(state: SessionState): Extract<SessionRecord, { type: 'snapshot' }> {
  const p = state.pending;
  const rest: SnapshotState = {
    turns: state.turns,
    ...(p === undefined
      ? {}
      : {
          pending: {
            turn: p.turn,
            step: p.step,
            running: [...p.running],
            results: [...p.results.values()],
            awaiting: [...p.awaiting],
            decisions: [...p.decisions],
            ...(p.key === undefined ? {} : { key: p.key }),
          },
        }),
    checkpoints: state.checkpointCount,
    ...(state.current === undefined ? {} : { current: state.current }),
    currentStep: state.currentStep,
    lastIdle: state.lastIdle,
    decided: [...state.decided],
    keys: [...state.keys].map(([key, turn]) => [key, { ...turn }]),
  };
  return { type: 'snapshot', messages: [...state.messages], state: rest };
}

/** Starts `state` (a new one) from a snapshot record: the state there, without the checkpoints before it. */
export function restoreSnapshot(state: SessionState, record: Extract<SessionRecord, { type: 'snapshot' }>): void {
  const s = record.state;
  const p = s.pending;
  state.messages = [...record.messages];
  state.pending =
    p === undefined
      ? undefined
      : {
          turn: p.turn,
          step: p.step,
          running: new Set(p.running),
          results: new Map(p.results.map((m) => [m.toolCallId, m])),
          awaiting: [...p.awaiting],
          decisions: new Map(p.decisions),
          ...(p.key === undefined ? {} : { key: p.key }),
        };
  state.turns = s.turns;
  state.checkpointCount = s.checkpoints;
  state.current = s.current;
  state.currentStep = s.currentStep;
  state.lastIdle = s.lastIdle;
  for (const [id, decision] of s.decided) state.decided.set(id, decision);
  for (const [key, turn] of s.keys) state.keys.set(key, turn);
  state.partial = true;
}
