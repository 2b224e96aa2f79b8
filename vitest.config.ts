import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { __COMPANY__: 'globalThis.__COMPANY__' },
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.{ts,tsx}', 'tests/security/**/*.test.{ts,tsx}'],
    setupFiles: ['tests/support/setup.ts'],
    environment: 'node',
    // Each integration file opens its own database; two cores run two files at a time.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
