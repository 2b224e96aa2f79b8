import { devices, expect, test, type Browser, type Page } from '@playwright/test';
import type { AgreementSignup } from '#shared/agreement-signup.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// Issue 22 (decision 027-c): a plan sign-up paid online. The visitor signs up on a phone, pays the
// first year on Stripe's page (the fake Stripe playwright.config.ts starts beside the server), comes
// back to "Payment received"; the office sees "Paid online", and confirming puts the payment on the
// plan's first invoice. A paid sign-up the office declines is refunded to the card.

const suffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A visitor on a phone signs up for Essential, yearly, and pays $150.00 on Stripe's page. */
async function signUpAndPay(browser: Browser, name: string, email: string) {
  const visitor = await browser.newContext({ ...devices['Pixel 7'], baseURL: test.info().project.use.baseURL });
  const site = await visitor.newPage();
  await site.goto('/MaintenancePlan?plan=essential#sign-up');
  const form = site.getByRole('form', { name: 'Sign up for a maintenance plan' });
  await expect(form.getByRole('radio', { name: /^Essential/ })).toBeChecked();
  await form.getByLabel('Full name').fill(name);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Phone').fill('(843) 555-0177');
  await form.getByLabel('ZIP code').fill('29910');
  await form.getByLabel('Street address of the home').fill('21 Sea Pines Circle');
  await form.getByRole('button', { name: 'Sign up' }).click();
  await expect(site.getByRole('heading', { name: 'Thank you! We received your sign-up.' })).toBeFocused();
  await expect(site.getByText('You can pay now by card ($150.00), or pay when our office confirms your plan.')).toBeVisible();
  await expectNoSeriousA11yViolations(site);

  await site.getByRole('link', { name: 'Pay $150.00 by card' }).click();
  // Stripe's hosted page (the fake's): the test card, then Pay.
  await expect(site.getByRole('heading', { name: 'Essential maintenance plan, first year' })).toBeVisible();
  await site.getByRole('button', { name: 'Pay $150.00' }).click();

  await expect(site).toHaveURL(/\/MaintenancePlan\?checkout=cs_test_/);
  const received = site.getByRole('heading', { name: 'Payment received. Thank you!' });
  await expect(received).toBeVisible();
  await expect(received).toBeFocused();
  await expectNoSeriousA11yViolations(site);
  await visitor.close();
}

async function signupOf(page: Page, email: string, status: string): Promise<AgreementSignup | undefined> {
  const response = await page.request.get(`/api/admin/agreement-signups?status=${status}&pageSize=100`);
  return ((await response.json()) as { signups: AgreementSignup[] }).signups.find((signup) => signup.email === email);
}

test('a visitor pays for a plan on a phone; the office confirms it and the payment is on the first invoice', async ({ page, browser }) => {
  test.slow();
  const id = suffix();
  const name = `Casey Paid ${id}`;
  const email = `casey.${id}@example.com`;
  await signIn(page);
  await page.goto('/admin/visits-due');
  const signups = page.getByRole('region', { name: 'Plan sign-ups' });
  await expect(signups.getByRole('status')).toContainText(/sign-ups? waiting/);

  await signUpAndPay(browser, name, email);

  // Live: the office's card says it is paid.
  const card = signups.getByRole('article', { name: new RegExp(name) });
  await expect(card).toContainText('Paid online $150.00 by card');
  await card.getByRole('button', { name: `Confirm the sign-up of ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: /^Confirm PS-/ });
  await expect(dialog).toContainText("The $150.00 paid online is recorded on the plan's first invoice.");
  await dialog.getByRole('button', { name: 'Confirm plan' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toHaveCount(0);

  // The confirmed sign-up links its invoice, which is paid by card online.
  await signups.getByLabel('Sign-up status').selectOption('confirmed');
  const confirmed = signups.getByRole('article', { name: new RegExp(name) });
  await expect(confirmed).toContainText('Paid online $150.00 by card');
  await confirmed.getByRole('link', { name: /^INV-/ }).click();
  await expect(page).toHaveURL(/\/admin\/invoices\/[0-9a-f-]+$/);
  await expect(page.getByText('Card (online)').first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 }).locator('..').getByText('Paid', { exact: true })).toBeVisible();
  expect((await signupOf(page, email, 'confirmed'))?.payment).toMatchObject({ status: 'paid', amountCents: 15_000, invoiceNumber: expect.stringMatching(/^INV-/) });
});

test('a paid sign-up the office declines is refunded to the card', async ({ page, browser }) => {
  test.slow();
  const id = suffix();
  const name = `Jordan Refund ${id}`;
  const email = `jordan.${id}@example.com`;
  await signIn(page);
  await signUpAndPay(browser, name, email);

  await page.goto('/admin/visits-due');
  const signups = page.getByRole('region', { name: 'Plan sign-ups' });
  const card = signups.getByRole('article', { name: new RegExp(name) });
  await expect(card).toContainText('Paid online $150.00 by card');
  await card.getByRole('button', { name: `Decline the sign-up of ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: /^Decline PS-/ });
  await expect(dialog).toContainText('The $150.00 paid online is refunded to the card.');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByLabel('Reason').fill('The home is outside our plan area.');
  await dialog.getByRole('button', { name: 'Decline sign-up' }).click();
  await expect(dialog).toBeHidden();

  await signups.getByLabel('Sign-up status').selectOption('declined');
  const declined = signups.getByRole('article', { name: new RegExp(name) });
  await expect(declined).toContainText('Refunded $150.00 back to the card');
  expect((await signupOf(page, email, 'declined'))?.payment).toMatchObject({ status: 'refunded', amountCents: 15_000 });
});
