import { expect, test } from '@playwright/test';
import { e2eSiteUrl } from '../../playwright.config.ts';
import { fakeStripeFixedKeys } from '../support/fake-stripe-server.ts';
import { e2eAdmin, expectNoSeriousA11yViolations, outboxMailsMentioning, signIn } from './fixtures.ts';

// Settings → Integrations and Company profile (issue 10), against the e2e server: no SMTP (the
// outbox folder), the built-in chat assistant, the offline ZIP geocoder, Stripe's test keys on the
// fake Stripe that runs beside the server (playwright.config.ts).

test('each integration shows its adapter and its test reports what happened', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin/settings?tab=integrations');

  const email = page.getByRole('region', { name: 'E-mail' });
  await expect(email.getByText('Outbox folder', { exact: true })).toBeVisible();
  await email.getByRole('button', { name: 'Send test: E-mail' }).click();
  await expect(email.getByRole('status').filter({ hasText: 'Works' })).toContainText(e2eAdmin.email);
  expect(outboxMailsMentioning('If you can read this, outgoing e-mail works.').length).toBeGreaterThan(0);

  const chat = page.getByRole('region', { name: 'Chat assistant' });
  await expect(chat.getByText('Built-in rules', { exact: true })).toBeVisible();
  await chat.getByRole('button', { name: 'Test: Chat assistant' }).click();
  await expect(chat.getByRole('status').filter({ hasText: 'Works' })).toContainText('rule-based responder answered');

  const geocoding = page.getByRole('region', { name: 'Geocoding' });
  await geocoding.getByRole('button', { name: 'Test: Geocoding' }).click();
  await expect(geocoding.getByRole('status').filter({ hasText: 'Works' })).toContainText(/→ 32\.\d+, -80\.\d+/);

  // One tile from MAP_TILE_URL: offline this reports the real network error, online the HTTP status.
  const maps = page.getByRole('region', { name: 'Map tiles' });
  await maps.getByRole('button', { name: 'Test: Map tiles' }).click();
  await expect(maps.locator('[role="status"], [role="alert"]').filter({ hasText: /^(Works|Failed) \(\d+ ms\): .*tile 12\/1127\/1660/ })).toBeVisible();

  // Online payments: what to register in Stripe's dashboard, and a read of a session that does not exist.
  const payments = page.getByRole('region', { name: 'Online payments' });
  await expect(payments.getByText('Stripe', { exact: true })).toBeVisible();
  await expect(payments.getByText('set (never shown), test mode', { exact: true })).toBeVisible();
  await expect(payments.getByText(`${e2eSiteUrl}/api/public/payments/stripe/webhook`, { exact: true })).toBeVisible();
  await expect(payments.getByText(/checkout\.session\.completed, .*charge\.refunded/)).toBeVisible();
  await payments.getByRole('button', { name: 'Test: Online payments' }).click();
  await expect(payments.getByRole('status').filter({ hasText: 'Works' })).toContainText('the key was accepted (test mode)');
  const html = await page.content();
  expect(html).not.toContain(fakeStripeFixedKeys.secretKey);
  expect(html).not.toContain(fakeStripeFixedKeys.webhookSecret);
  await expectNoSeriousA11yViolations(page);
});

test('the company profile lists each value with where it is used and its variable', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin/settings?tab=company');
  const table = page.getByRole('table', { name: /Company profile values/ });
  const nameRow = table.getByRole('row', { name: /Company name/ });
  await expect(nameRow).toContainText('COMPANY_NAME');
  await expect(nameRow).toContainText('chat');
  await expect(table.getByRole('row', { name: /Street address/ })).toContainText('COMPANY_STREET');
  await expect(table.getByRole('row', { name: /Staff notification recipients/ })).toContainText('NOTIFICATION_RECIPIENTS');
  await expect(page.getByText('The server runs with different values')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});
