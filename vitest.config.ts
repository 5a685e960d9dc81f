import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // The docs' examples import the package by name, as users do; tests run them against the source.
    alias: [
      { find: /^@lousho\/build-ai-agent\/testing$/, replacement: src('testing/index.ts') },
      { find: /^@lousho\/build-ai-agent\/executor$/, replacement: src('executor/index.ts') },
      { find: /^@lousho\/build-ai-agent\/converters$/, replacement: src('converters/index.ts') },
      { find: /^@lousho\/build-ai-agent\/bullmq$/, replacement: src('integrations/bullmq-worker.ts') },
      { find: /^@lousho\/build-ai-agent\/pg-boss$/, replacement: src('integrations/pg-boss-worker.ts') },
      { find: /^@lousho\/build-ai-agent$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'docs/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 30_000,
    // The *.test-d.ts type tests (public generics) run as tests of their own, checked by tsc.
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.typecheck.json' },
  },
});
