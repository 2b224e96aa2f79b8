import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, outboxMailsMentioning } from './fixtures.ts';

const uniqueName = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const uniqueEmail = () => `homeowner-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

async function fillValidRequest(page: Page, name: string, email = uniqueEmail()) {
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone').fill('843-555-0177');
  await page.getByLabel('Service Address').fill('42 Palmetto Bluff Rd, Bluffton, SC 29910');
  await page.getByLabel('Service Type').selectOption('heating-repair');
  await page.getByLabel('Preferred Time').selectOption('afternoon');
  await page.getByLabel('Tell us about your project').fill('Heat pump runs but blows cold air.');
}

test.describe('estimate form', () => {
  test('shows each required field error, announces it, and clears it when the field is edited', async ({ page }) => {
    await page.goto('/estimate');
    await page.getByRole('button', { name: 'Get My Free Estimate' }).click();
    for (const message of ['Name is required', 'Email is required', 'Phone number is required', 'Address is required', 'Service type is required']) {
      await expect(page.getByText(message)).toBeVisible();
    }
    await expect(page.getByLabel('Full Name')).toBeFocused();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Phone').fill('12345');
    await page.getByRole('button', { name: 'Get My Free Estimate' }).click();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByText('Please enter a valid phone number')).toBeVisible();
    await page.getByLabel('Full Name').fill('Sam');
    await expect(page.getByText('Name is required')).toHaveCount(0);
  });

  test('does not offer a preferred date before today', async ({ page }) => {
    await page.goto('/estimate');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
    await expect(page.getByLabel('Preferred Date')).toHaveAttribute('min', today);
  });

  test('submits: Submitting... with the form disabled, then the thank-you panel, and the request reaches staff by e-mail', async ({ page }) => {
    const name = uniqueName('Estimate Journey');
    const email = uniqueEmail();
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/public/estimate-requests', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/estimate');
    await fillValidRequest(page, name, email);
    await page.getByRole('button', { name: 'Get My Free Estimate' }).click();
    await expect(page.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
    await expect(page.getByLabel('Full Name')).toBeDisabled();
    release();
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeFocused();

    // The staff notification carries what the visitor typed; the confirmation to the visitor's
    // address carries none of it (issue 15: the form cannot send the company's mail with a
    // stranger's words).
    await expect.poll(() => outboxMailsMentioning(email).length).toBe(2);
    const [notification] = outboxMailsMentioning(name);
    expect(outboxMailsMentioning(name)).toHaveLength(1);
    expect(notification).toContain('Subject: [URGENT] New estimate request: Heating Repair for');
    expect(notification).toContain('Heat pump runs but blows cold air.');
    const confirmation = outboxMailsMentioning(email).find((mail) => mail !== notification)!;
    expect(confirmation).toMatch(new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}`, 'm'));
    expect(confirmation).not.toContain('Heat pump runs');

    await page.getByRole('button', { name: 'Submit Another Request' }).click();
    await expect(page.getByLabel('Full Name')).toHaveValue('');
    await expect(page.getByLabel('Service Type')).toHaveValue('');
  });

  test('the thank-you panel hides by itself after 8 seconds', async ({ page }) => {
    await page.clock.install();
    await page.goto('/estimate');
    await fillValidRequest(page, uniqueName('Timer Journey'));
    await page.getByRole('button', { name: 'Get My Free Estimate' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
    await page.clock.fastForward(7_000);
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
    await page.clock.fastForward(1_100);
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toHaveCount(0);
    await expect(page.getByLabel('Full Name')).toHaveValue('');
  });

  test('shows the spec error above the form when the request fails, and keeps what was typed', async ({ page }) => {
    await page.route('**/api/public/estimate-requests', (route) => route.abort('connectionrefused'));
    await page.goto('/estimate');
    await fillValidRequest(page, 'Offline Person');
    await page.getByRole('button', { name: 'Get My Free Estimate' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Failed to submit request: the connection to our server failed. Please try again or call us at (843) 555-0142.',
    );
    await expect(page.getByLabel('Full Name')).toHaveValue('Offline Person');
    await expect(page.getByRole('button', { name: 'Get My Free Estimate' })).toBeEnabled();
  });

  test('the estimate page is accessible', async ({ page }) => {
    await page.goto('/estimate');
    await expect(page.getByRole('heading', { level: 1, name: 'Get Your FREE Estimate' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'What to Expect' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('online booking page', () => {
  test('on a phone, the header Contact Us leads here', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Contact Us' }).filter({ visible: true }).click();
    await expect(page).toHaveURL(/\/BookingPage$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Book a Service Visit' })).toBeVisible();
  });
});
