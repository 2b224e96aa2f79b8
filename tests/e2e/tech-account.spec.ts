import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { e2eAdmin, expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

/**
 * The technician's own account in /tech (issue 19, decision 022-a "Later") on a phone: from the
 * header to the Account screen, the password changed with the office's rules (a wrong current
 * password refused on its field and announced), the phone's other session signed out, sign-out
 * from the screen and sign-in with the new password; then the office deactivates the technician
 * in Settings, is told about the sign-in, and the technician's phone is sent back to sign in.
 */

test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'America/New_York' });

const firstPassword = 'attic crawl space mechanical room';
const newPassword = 'heron marsh lantern kettle';
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function api(baseURL: string, credentials: { email: string; password: string }): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const login = await context.post('/api/auth/login', { data: credentials });
  expect(login.status(), await login.text()).toBe(200);
  return context;
}

/** A technician record and its sign-in, made through the office's API. */
async function technicianAccount(admin: APIRequestContext): Promise<{ name: string; email: string }> {
  const name = unique('Tara Tech');
  const technician = await admin.post('/api/admin/settings/technicians', { data: { name, color: '#7c3aed' } });
  expect(technician.status(), await technician.text()).toBe(201);
  const technicianId = ((await technician.json()) as { technician: { id: string } }).technician.id;
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`;
  const staff = await admin.post('/api/admin/settings/staff', { data: { email, name, role: 'technician', technicianId, setup: 'password', password: firstPassword } });
  expect(staff.status(), await staff.text()).toBe(201);
  return { name, email };
}

async function signInToTech(page: Page, email: string, password: string) {
  await page.goto('/tech');
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/tech$/);
  await expect(page.getByRole('heading', { name: 'My day', level: 1 })).toBeVisible();
}

test('a technician changes their password and signs out from the Account screen', async ({ page, baseURL }) => {
  const admin = await api(baseURL!, e2eAdmin);
  const account = await technicianAccount(admin);
  // The same technician signed in elsewhere (a tablet): the change signs it out.
  const tablet = await api(baseURL!, { email: account.email, password: firstPassword });
  await signInToTech(page, account.email, firstPassword);

  await page.getByRole('banner').getByRole('link', { name: 'Account' }).click();
  await expect(page).toHaveURL(/\/tech\/account$/);
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(page.getByText(`signed in as ${account.email}`)).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // A wrong current password: refused by the server, shown on its field, announced, focused.
  const form = page.getByRole('form', { name: 'Change password' });
  await form.getByLabel('Current password').fill('not my password at all');
  await form.getByLabel(/^New password/).fill(newPassword);
  await form.getByLabel('Repeat the new password').fill(newPassword);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The current password is not right.' })).toBeAttached();
  await expect(form.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Current password')).toBeFocused();
  expect((await tablet.get('/api/tech/session')).status()).toBe(200);

  // Keyboard only: type the current password and submit with Enter.
  await form.getByLabel('Current password').fill(firstPassword);
  await form.getByLabel('Repeat the new password').press('Enter');
  await expect(page.getByText('Your password was changed. Other devices were signed out.')).toBeVisible();
  expect((await tablet.get('/api/tech/session')).status()).toBe(401);
  // This phone stays signed in.
  await page.getByRole('link', { name: 'My day' }).click();
  await expect(page.getByRole('heading', { name: 'My day', level: 1 })).toBeVisible();

  // Sign out from the Account screen, then in again with the new password.
  await page.getByRole('banner').getByRole('link', { name: 'Account' }).click();
  await page.getByRole('region', { name: 'Sign out' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await signInToTech(page, account.email, newPassword);
  await tablet.dispose();
  await admin.dispose();
});

test('the office deactivates a technician with a sign-in: told first, the phone is signed out', async ({ page, browser, baseURL }) => {
  const admin = await api(baseURL!, e2eAdmin);
  const account = await technicianAccount(admin);
  await admin.dispose();
  await signInToTech(page, account.email, firstPassword);

  const officeContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL });
  const office = await officeContext.newPage();
  await signIn(office);
  await office.goto('/admin/settings?tab=technicians');
  const row = office.getByRole('listitem', { name: account.name });
  await expect(row).toContainText(`Technician app sign-in: ${account.email}`);
  await row.getByRole('button', { name: `Deactivate ${account.name}` }).click();
  const question = row.getByRole('alertdialog');
  await expect(question).toContainText(`signs in to the technician app as ${account.email}`);
  await expect(question.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await question.getByRole('button', { name: 'Deactivate and sign out' }).click();
  await expect(office.getByRole('status').filter({ hasText: `Their technician app sign-in (${account.email}) was signed out` })).toBeVisible();
  await expect(row).toContainText('(refused while inactive)');
  await expectNoSeriousA11yViolations(office);
  await officeContext.close();

  // The phone's next read finds its session gone: back to sign in, and the sign-in is refused.
  await page.reload();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(firstPassword);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Invalid login credentials. Please try again.')).toBeVisible();
});
