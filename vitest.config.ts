import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { __COMPANY__: 'globalThis.__COMPANY__' },
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.{ts,tsx}', 'tests/security/**/*.test.{ts,tsx}'],
    setupFiles: ['tests/support/setup.ts'],
    // Migrates one template database per run; each file's database is a copy (decision 022-c).
    globalSetup: ['tests/support/global-setup.ts'],
    environment: 'node',
    // Each integration file opens its own database. Vitest 4 runs availableParallelism - 1 files at
    // a time: one on a 2-core machine (decision 022-c measured two; not adopted yet).
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
