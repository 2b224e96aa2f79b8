import { defineConfig } from '@playwright/test';

/**
 * `npm run test:scale` (issue 23): three instances on one PostgreSQL database behind nginx
 * (tests/scale/scale-cluster.ts), driven through nginx by a browser and API clients. One worker:
 * the tests share the cluster, and the last one kills an instance.
 */
export default defineConfig({
  testDir: 'tests/scale',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  globalSetup: './tests/scale/global-setup.ts',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
    trace: 'retain-on-failure',
  },
});
