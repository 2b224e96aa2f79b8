import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

test('public pages show the site header and footer, and never the admin navigation', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Heating & Cooling Services' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});

test('the home page is complete HTML before any script runs', async ({ request }) => {
  const response = await request.get('/');
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toContain('Heating &amp; Cooling Services');
  expect(html).toContain('FREE Estimate');
  expect(response.headers()['content-security-policy']).toMatch(/script-src 'self'( 'sha256-[^']+')+/);
});

test('the login page shows neither the public header and footer nor the admin navigation', async ({ page }) => {
  await page.goto('/admin/login');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await expect(page.getByRole('contentinfo')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
});

test('admin screens show the admin navigation and never the public header, footer or chat', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await expect(page.getByRole('contentinfo')).toHaveCount(0);
  await expect(page.getByText('Need Help?')).toHaveCount(0);
  // View Website returns to the public site with its own frame.
  await page.getByRole('button', { name: /account menu/ }).click();
  await page.getByRole('link', { name: 'View Website' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
});

test('an unknown admin path shows the router fallback with its status text', async ({ page }) => {
  await signIn(page);
  await page.goto('/admin/no-such-screen');
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page.getByText('404 Not Found')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
});

test.describe('on a phone-sized screen', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the admin navigation opens from its menu button', async ({ page }) => {
    await signIn(page);
    const navigation = page.getByRole('navigation', { name: 'Admin' });
    await expect(navigation).toBeHidden();
    await page.getByRole('button', { name: 'Navigation' }).click();
    await navigation.getByRole('link', { name: 'Calendar' }).click();
    // The calendar may add the day and view it shows to the address.
    await expect(page).toHaveURL(/\/admin\/calendar(\?.*)?$/);
    await expect(navigation).toBeHidden();
  });

  test('the public menu opens from the hamburger and Contact Us goes to the booking page', async ({ page }) => {
    await page.goto('/');
    const contact = page.getByRole('link', { name: 'Contact Us' }).filter({ visible: true });
    await expect(contact).toHaveCount(0);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('link', { name: 'Contact Us' }).filter({ visible: true })).toHaveAttribute('href', '/BookingPage');
  });
});
