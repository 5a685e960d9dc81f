import { describe, expect, it, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { bpeVocabulary } from '../models/bpe-vocabulary.js';
import { aroundAppend } from '../test-support/around-append.js';
import { mockModel } from '../testing/mock-model.js';
import { MemorySessionStore } from './store.js';

// Every load of a tokenizer's vocabulary goes through bpeVocabulary(): counted here.
vi.mock('../models/bpe-vocabulary.js', async (original) => {
  const module = await original<typeof import('../models/bpe-vocabulary.js')>();
  return { ...module, bpeVocabulary: vi.fn(module.bpeVocabulary) };
});

describe('the first save of a process', () => {
  it('is written before the tokenizer loads: a restarted worker saves its turn without waiting for it', async () => {
    const loads = vi.mocked(bpeVocabulary).mock.calls;
    const loadsAtSave: number[] = [];
    const store = aroundAppend(new MemorySessionStore(), async (_args, append) => {
      const version = await append();
      loadsAtSave.push(loads.length);
      return version;
    });
    const session = createAgent({ provider: mockModel(['Hello.']) }).session({ id: 's', store });
    expect(loads).toHaveLength(0);
    await session.send('hi');
    expect(loadsAtSave[0], 'tokenizer loads when the first save was acknowledged').toBe(0);
    // The checkpoints' token counts are counted when they are listed, with the tokenizer.
    const checkpoints = await session.checkpoints();
    expect(checkpoints.map((c) => c.step)).toEqual([0, 1]);
    for (const c of checkpoints) expect(c.tokens).toBeGreaterThan(0);
    expect(loads.length).toBeGreaterThan(0);
  });
});
