import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { fakeStripeFixedKeys } from './tests/support/fake-stripe-server.ts';

// End-to-end journeys in Debian's Chromium against the built app, started the way the README
// starts it (`npm start`), on a fresh data directory, or on PostgreSQL when TEST_DATABASE_URL is set.
const port = Number(process.env.E2E_PORT ?? 3210);
/** The server's data directory: tests read the e-mails it writes to DATA_DIR/outbox. */
export const e2eDataDir = path.join(os.tmpdir(), `hvac-e2e-${port}`);
export const e2eAdmin = { email: 'e2e-admin@example.com', password: 'e2e-password-long-enough' };
/**
 * The fake Stripe (tests/support/fake-stripe-main.ts) runs beside the server with fixed test keys
 * (they open nothing but the fake): invoices can be paid online in journeys (decision 024-h).
 */
export const e2eStripePort = port + 1000;
/** The site's public address the server (and its prerendered pages) are built with: links in e-mails and Stripe's return come back here. */
export const e2eSiteUrl = `http://127.0.0.1:${port}`;


export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [['list']] : [['list']],
  // Generous: two cores run the server, the build's browser and two workers at once.
  timeout: 45_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } }],
  webServer: [
    {
      command: `npx tsx tests/support/fake-stripe-main.ts --port ${e2eStripePort} --webhook-url http://127.0.0.1:${port}/api/public/payments/stripe/webhook`,
      url: `http://127.0.0.1:${e2eStripePort}/_fake/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      command: `rm -rf "${e2eDataDir}" && npm start`,
      url: `http://127.0.0.1:${port}/readyz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: e2eDataDir,
        ...(process.env.TEST_DATABASE_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}),
        ADMIN_EMAIL: e2eAdmin.email,
        ADMIN_PASSWORD: e2eAdmin.password,
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        // Many journeys submit forms from 127.0.0.1; the per-address limit itself is tested in integration.
        PUBLIC_FORM_LIMIT: '1000',
        CHAT_MESSAGE_LIMIT: '1000',
        // Every journey signs in from 127.0.0.1; failed attempts are still throttled per account.
        LOGIN_RATE_LIMIT: '1000',
        // Geocoding batches with the offline ZIP provider: no outside service to be polite to.
        GEOCODER: 'zip',
        GEOCODER_PAUSE_MS: '20',
        // Links in e-mails and Stripe's return URLs point back at this server.
        COMPANY_SITE_URL: e2eSiteUrl,
        STRIPE_SECRET_KEY: fakeStripeFixedKeys.secretKey,
        STRIPE_WEBHOOK_SECRET: fakeStripeFixedKeys.webhookSecret,
        STRIPE_API_URL: `http://127.0.0.1:${e2eStripePort}`,
        // A plan sold in a journey gets its whole term's visits at once, whatever the month (issue 22).
        AGREEMENT_VISIT_LEAD_DAYS: '366',
      },
    },
  ],
});
