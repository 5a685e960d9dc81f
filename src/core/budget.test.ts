/**
 * core/budget.ts: read-only token tracking against a budget (specification "Context
 * Management": the Compactor acts once usage is over budgetTokens * softThreshold,
 * default 0.7).
 */
import { describe, expect, it } from 'vitest';
import { LoushoError } from '../errors/lousho-error.js';
import { DEFAULT_SOFT_THRESHOLD, TokenBudget } from './budget.js';

interface Note {
  text: string;
  tokens: number;
}

const note = (tokens: number): Note => ({ text: `n${tokens}`, tokens });
const countTokens = (m: Note) => m.tokens;

function configCode(make: () => unknown): string | undefined {
  try {
    make();
  } catch (error) {
    return LoushoError.isInstance(error) ? error.code : 'not a LoushoError';
  }
  return undefined;
}

describe('TokenBudget', () => {
  it('reports used, budget, soft limit and remaining tokens of a transcript', () => {
    const budget = new TokenBudget<Note>({ budgetTokens: 1_000, softThreshold: 0.5, countTokens });
    const messages = [note(100), note(250), note(50)];
    expect(budget.used(messages)).toBe(400);
    expect(budget.usage(messages)).toEqual({
      usedTokens: 400,
      budgetTokens: 1_000,
      softLimitTokens: 500,
      remainingTokens: 600,
      overSoftLimit: false,
      overHardLimit: false,
    });
    expect(budget.usage([]).usedTokens).toBe(0);
  });

  it('counts every message once per call, through countTokens', () => {
    const seen: Note[] = [];
    const budget = new TokenBudget<Note>({
      budgetTokens: 100,
      countTokens: (m) => {
        seen.push(m);
        return m.tokens;
      },
    });
    const messages = [note(1), note(2), note(3)];
    budget.used(messages);
    expect(seen).toEqual(messages);
  });

  it('puts the soft limit at floor(budgetTokens * softThreshold)', () => {
    expect(new TokenBudget<Note>({ budgetTokens: 1_000, softThreshold: 0.7, countTokens }).softLimitTokens).toBe(700);
    expect(new TokenBudget<Note>({ budgetTokens: 999, softThreshold: 0.7, countTokens }).softLimitTokens).toBe(699);
    expect(new TokenBudget<Note>({ budgetTokens: 10, softThreshold: 0.75, countTokens }).softLimitTokens).toBe(7);
    expect(new TokenBudget<Note>({ budgetTokens: 1_000, softThreshold: 1, countTokens }).softLimitTokens).toBe(1_000);
  });

  it('uses a soft threshold of 0.7 by default', () => {
    expect(DEFAULT_SOFT_THRESHOLD).toBe(0.7);
    const budget = new TokenBudget<Note>({ budgetTokens: 2_000, countTokens });
    expect(budget.softThreshold).toBe(0.7);
    expect(budget.softLimitTokens).toBe(1_400);
  });

  it('is over the soft limit only above it, and over the hard limit only above the budget', () => {
    const budget = new TokenBudget<Note>({ budgetTokens: 1_000, countTokens });
    const at = (tokens: number) => budget.usage([note(tokens)]);
    expect(at(700)).toMatchObject({ overSoftLimit: false, overHardLimit: false, remainingTokens: 300 });
    expect(at(701)).toMatchObject({ overSoftLimit: true, overHardLimit: false, remainingTokens: 299 });
    expect(at(1_000)).toMatchObject({ overSoftLimit: true, overHardLimit: false, remainingTokens: 0 });
    expect(at(1_001)).toMatchObject({ overSoftLimit: true, overHardLimit: true, remainingTokens: -1 });
  });

  it('never changes the messages it measures', () => {
    const budget = new TokenBudget<Note>({ budgetTokens: 10, countTokens });
    const messages = Object.freeze([note(20), note(30)]);
    const copy = structuredClone(messages);
    budget.usage(messages);
    expect(messages).toEqual(copy);
  });

  it('rejects a budget that is not a positive number with LOUSHO_CONFIG_INVALID', () => {
    for (const budgetTokens of [0, -1, Number.NaN]) {
      expect(configCode(() => new TokenBudget<Note>({ budgetTokens, countTokens }))).toBe('LOUSHO_CONFIG_INVALID');
    }
  });

  it('rejects a soft threshold outside (0, 1] with LOUSHO_CONFIG_INVALID', () => {
    for (const softThreshold of [0, -0.1, 1.01, 2, Number.NaN]) {
      expect(configCode(() => new TokenBudget<Note>({ budgetTokens: 100, softThreshold, countTokens }))).toBe(
        'LOUSHO_CONFIG_INVALID',
      );
    }
    expect(configCode(() => new TokenBudget<Note>({ budgetTokens: 100, softThreshold: 1, countTokens }))).toBe(
      undefined,
    );
  });
});
