import { compactOnce } from '../compaction/compact-messages.js';
import { compactionDoneEvent, compactionStartEvent } from '../compaction/compaction-report.js';
import { withChanges } from '../compaction/resolve-compaction.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { SessionLog } from './session-log.js';
import type { SessionCompactOptions, SessionCompactResult, SessionRunner } from './session-types.js';

/**
 * session.compact()'s work, under the lease: compacts the saved transcript with the strategy
 * options name (else the session's, else pruning) and saves it as a rewrite at checkpoint `step`.
 */
export async function compactSaved(
  log: SessionLog,
  runner: SessionRunner,
  options: SessionCompactOptions,
  step: number,
  emit: (event: AgentEvent) => void,
): Promise<SessionCompactResult> {
  const resolved = withChanges(runner.compaction, options, 'session.compact()');
  const before = log.state.messages;
  if (before.length === 0) {
    const strategy = resolved.strategy.name;
    return { messagesBefore: 0, messagesAfter: 0, tokensBefore: 0, tokensAfter: 0, strategy };
  }
  const manual = { trigger: 'manual' as const };
  const { outcome } = await compactOnce(before.slice(), resolved, { model: runner.provider() }, (start) =>
    emit(compactionStartEvent(manual, start)),
  );
  if (outcome.changed) await log.append([{ type: 'rewrite', messages: [...outcome.messages] }], { step });
  emit(compactionDoneEvent(manual, outcome));
  return {
    messagesBefore: before.length,
    messagesAfter: log.state.messages.length,
    tokensBefore: outcome.tokensBefore,
    tokensAfter: outcome.tokensAfter,
    strategy: outcome.strategy,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
  };
}
