/**
 * How much room the replay leaves under the cheapest peer: the bill of sending every
 * message once (no policy that keeps the task bills less), the bill of keeping every
 * message but the tool results, each result only until the model has read it, and what
 * keeping every name the results showed would add to that. None of these is a policy:
 * they bound what any policy can reach.
 */
import type { Message } from '../src/messages/types.js';
import { countTextTokens } from '../src/models/tokenizer.js';
import type { Trajectory } from './corpus.js';
import { BillingMeter, extractReferences, type PriceModel } from './replay-metrics.js';

export interface ReplayBounds {
  /** Every message sent once, at the write price, beside the system prompt and the task (kept, cached). */
  floorBilled: number;
  /** Every message kept but the tool results; each result sent once, when it is new. */
  skeletonBilled: number;
  /** Each name any result showed (as the identifier-loss metric finds them), kept once per trajectory from the step it appeared: written once, then read at the cached price to the end. */
  namesBilled: number;
  /** Distinct names over the trajectories. */
  names: number;
}

/** The bounds of the replay under one price model. */
export function replayBounds(
  trajectories: readonly Trajectory[],
  countMessage: (message: Message) => number,
  fixedTokens: number,
  prices: PriceModel,
): ReplayBounds {
  const bounds: ReplayBounds = { floorBilled: 0, skeletonBilled: 0, namesBilled: 0, names: 0 };
  for (const trajectory of trajectories) {
    const { messages } = trajectory;
    const floor = new BillingMeter(countMessage, fixedTokens, prices);
    const skeleton = new BillingMeter(countMessage, fixedTokens, prices);
    const head = messages.slice(0, 2);
    const kept: Message[] = [...head];
    const seen = new Set<string>();
    const steps = messages.filter((m) => m.role === 'assistant').length;
    let step = 0;
    let previous = 2;
    messages.forEach((message, i) => {
      if (message.role !== 'assistant') return;
      const added = messages.slice(previous, i);
      previous = i;
      floor.add([...head, ...added]);
      kept.push(...added.filter((m) => m.role !== 'tool'));
      skeleton.add([...kept, ...added.filter((m) => m.role === 'tool')]);
      for (const m of added) {
        if (m.role !== 'tool' || typeof m.content !== 'string') continue;
        for (const name of extractReferences(m.content)) {
          if (seen.has(name)) continue;
          seen.add(name);
          const tokens = countTextTokens(`${name}, `);
          bounds.namesBilled += tokens * (prices.write + prices.read * (steps - step - 1));
        }
      }
      step++;
    });
    bounds.floorBilled += floor.billedTokens;
    bounds.skeletonBilled += skeleton.billedTokens;
    bounds.names += seen.size;
  }
  return bounds;
}
