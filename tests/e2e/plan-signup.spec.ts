import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// Issue 22 (decision 027-b): a visitor signs up for a plan on /MaintenancePlan from a phone; the
// office sees it arrive live in Plan sign-ups (Visits Due), confirms it as a new customer, and the
// new customer's profile shows the active plan.

const suffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test('a visitor signs up for a plan on a phone; the office confirms it as a new customer', async ({ page, browser }) => {
  test.slow();
  const id = suffix();
  const name = `Riley Signup ${id}`;

  // The office has Visits Due open before the sign-up arrives.
  await signIn(page);
  await page.goto('/admin/visits-due');
  const signups = page.getByRole('region', { name: 'Plan sign-ups' });
  await expect(signups.getByRole('status')).toContainText(/sign-ups? waiting/);
  await expect(signups.getByRole('article', { name: new RegExp(name) })).toHaveCount(0);

  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const site = await visitor.newPage();
  await site.goto('/MaintenancePlan');
  // A plan card's button leads to the form with its plan chosen.
  await site.getByRole('link', { name: 'Choose Premium' }).click();
  await expect(site).toHaveURL(/\/MaintenancePlan\?plan=premium#sign-up$/);
  const form = site.getByRole('form', { name: 'Sign up for a maintenance plan' });
  await expect(form.getByRole('radio', { name: /^Premium/ })).toBeChecked();
  await form.getByRole('radio', { name: /^Monthly/ }).check();
  await form.getByLabel('Full name').fill(name);
  await form.getByLabel('Email').fill(`riley.${id}@example.com`);
  await form.getByLabel('Phone').fill('(843) 555-0163');
  await form.getByLabel('Street address of the home').fill('7 Marsh Hen Lane');
  await form.getByLabel('Anything we should know?').fill('One heat pump.');

  // The ZIP code left out: its one error is shown, tied to the field, which takes the focus (so it is read first).
  await form.getByRole('button', { name: 'Sign up' }).click();
  const zip = form.getByLabel('ZIP code');
  await expect(zip).toBeFocused();
  await expect(zip).toHaveAccessibleDescription('Enter the 5-digit ZIP code of the home.');
  await expect(form.getByText('Enter the 5-digit ZIP code of the home.')).toHaveCount(1);
  await expect(zip).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousA11yViolations(site);

  await zip.fill('29910');
  await expect(zip).not.toHaveAttribute('aria-invalid', 'true');
  await form.getByRole('button', { name: 'Sign up' }).click();
  const thanks = site.getByRole('heading', { name: 'Thank you! We received your sign-up.' });
  await expect(thanks).toBeFocused();
  await expect(site.getByRole('status')).toContainText(/Your reference is PS-[0-9A-F]{8}\. Our office will confirm your Premium plan/);
  await visitor.close();

  // Live: the sign-up appears in the office's list without a reload.
  const card = signups.getByRole('article', { name: new RegExp(name) });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Premium billed monthly');
  await expect(card).toContainText('7 Marsh Hen Lane, Bluffton 29910');
  await expect(card).toContainText('One heat pump.');
  await card.getByRole('button', { name: `Confirm the sign-up of ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: /^Confirm PS-/ });
  await expect(dialog.getByRole('radio', { name: /^New customer/ })).toBeFocused();
  await expect(dialog.getByRole('radio', { name: /^New customer/ })).toBeChecked();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Confirm plan' }).click();
  await expect(dialog).toBeHidden();
  await expect(signups.getByRole('status').filter({ hasText: 'confirmed' })).toContainText(new RegExp(`PS-[0-9A-F]{8} confirmed: Premium plan MA-\\d+ for ${name}\\.`));
  await expect(card).toHaveCount(0);

  // The new customer's profile shows the active plan.
  await signups.getByRole('link', { name: 'Open the customer' }).click();
  await expect(page).toHaveURL(/\/admin\/customers\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const plans = page.getByRole('region', { name: 'Maintenance Plans' });
  const agreement = plans.getByRole('article');
  await expect(agreement).toContainText('Premium');
  await expect(agreement).toContainText('Active');
  await expect(agreement).toContainText('billed monthly');
});

test('a link naming a plan opens the page with that plan chosen once the form is live, with no console errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/MaintenancePlan?plan=essential#sign-up');
  const form = page.getByRole('form', { name: 'Sign up for a maintenance plan' });
  // Prerendered with the recommended plan; the live form takes the address's.
  await expect(form.getByRole('radio', { name: /^Essential/ })).toBeChecked();
  await expect(form.getByRole('radio', { name: /^Advanced/ })).not.toBeChecked();
  await expect(form.getByRole('radio', { name: /^Monthly, \$12\.50 a month/ })).toBeVisible();
  expect(errors).toEqual([]);
});
