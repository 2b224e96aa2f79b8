import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, outboxMailsMentioning, signIn } from './fixtures.ts';

const suffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The set-password link's path and fragment in an .eml file (its text part may be quoted-printable). */
function setPasswordPathIn(mail: string): string | undefined {
  const decoded = mail.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return /\/admin\/set-password#token=[\w-]+/.exec(decoded)?.[0];
}

async function openUserMenu(page: Page) {
  await page.getByRole('button', { name: /account menu/ }).click();
  return page.locator('#admin-user-menu');
}

test.describe('staff accounts', () => {
  test('an admin adds a dispatcher; the dispatcher has no Settings; deactivation ends their open session without a reload', async ({ page, browser }) => {
    const id = suffix();
    const dispatcher = { name: `Dana Dispatch ${id}`, email: `dana.${id}@example.com`, password: 'spartina marsh at low tide' };

    await signIn(page);
    await page.goto('/admin/settings?tab=staff');
    await expect(page.getByRole('heading', { name: 'Staff accounts' })).toBeVisible();
    await page.getByRole('button', { name: 'Add staff member' }).click();
    const form = page.getByRole('region', { name: 'Add staff member' });
    await form.getByLabel('Name').fill(dispatcher.name);
    await form.getByLabel('Email').fill(dispatcher.email);
    await form.getByLabel('Role').selectOption('dispatcher');
    await form.getByLabel('Set initial password').check();

    // A weak password is refused in the form, announced, and the field gets the focus.
    await form.getByRole('textbox', { name: 'Initial password', exact: true }).fill('123456789012');
    await form.getByRole('button', { name: 'Add staff member' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'simple sequence' })).toBeAttached();
    await expect(form.getByRole('textbox', { name: 'Initial password', exact: true })).toBeFocused();

    await form.getByRole('textbox', { name: 'Initial password', exact: true }).fill(dispatcher.password);
    await form.getByRole('button', { name: 'Add staff member' }).click();
    await expect(page.getByRole('status').filter({ hasText: `${dispatcher.name} was added` })).toBeVisible();
    const row = page.getByRole('listitem').filter({ hasText: dispatcher.email });
    await expect(row.getByText('Dispatcher', { exact: true })).toBeVisible();
    await expect(row.getByText('Active', { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The dispatcher signs in in a browser of their own.
    const dispatcherContext = await browser.newContext();
    const other = await dispatcherContext.newPage();
    await signIn(other, dispatcher);
    const menu = await openUserMenu(other);
    await expect(menu.getByRole('link', { name: 'Change password' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Settings' })).toHaveCount(0);
    await other.keyboard.press('Escape');
    // Even by address, settings are closed to them.
    await other.goto('/admin/settings');
    await expect(other.getByText('Only administrators can open settings.')).toBeVisible();
    const liveStream = other.waitForResponse((response) => response.url().endsWith('/api/admin/events') && response.status() === 200);
    await other.goto('/admin/customers');
    await liveStream;
    await expect(other.getByRole('heading', { level: 1, name: 'Customer Directory' })).toBeVisible();
    // A mark on this document: it survives client-side navigation, not a reload.
    await other.evaluate(() => Object.assign(window, { staffJourneyMark: true }));

    // The admin deactivates them, confirming first.
    await row.getByRole('button', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('dialog', { name: `Deactivate ${dispatcher.name}?` });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByRole('status').filter({ hasText: `${dispatcher.name} was deactivated` })).toBeVisible();
    await expect(row.getByText('Deactivated', { exact: true })).toBeVisible();

    // Their open page goes to the login page by itself (the live stream ends, its reconnection is refused).
    await expect(other).toHaveURL(/\/admin\/login$/);
    await expect(other.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
    expect(await other.evaluate(() => (window as unknown as { staffJourneyMark?: boolean }).staffJourneyMark)).toBe(true);

    // And they cannot sign in again.
    await other.getByLabel('Email').fill(dispatcher.email);
    await other.getByLabel('Password').fill(dispatcher.password);
    await other.getByRole('button', { name: 'Login' }).click();
    await expect(other.getByRole('alert')).toHaveText('Invalid login credentials. Please try again.');
    await dispatcherContext.close();
  });

  test('any staff member changes their own password: the current one is required', async ({ page, browser }) => {
    const id = suffix();
    const user = { name: `Cal Changer ${id}`, email: `cal.${id}@example.com`, password: 'oyster shell causeway' };
    await signIn(page);
    await page.goto('/admin/settings?tab=staff');
    await page.getByRole('button', { name: 'Add staff member' }).click();
    const form = page.getByRole('region', { name: 'Add staff member' });
    await form.getByLabel('Name').fill(user.name);
    await form.getByLabel('Email').fill(user.email);
    await form.getByLabel('Set initial password').check();
    await form.getByRole('textbox', { name: 'Initial password', exact: true }).fill(user.password);
    await form.getByRole('button', { name: 'Add staff member' }).click();
    await expect(page.getByRole('status').filter({ hasText: `${user.name} was added` })).toBeVisible();

    const userContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const phone = await userContext.newPage();
    await signIn(phone, user);
    const menu = await openUserMenu(phone);
    await menu.getByRole('link', { name: 'Change password' }).click();
    await expect(phone.getByRole('heading', { name: 'Change password' })).toBeVisible();

    await phone.getByLabel('Current password').fill('not the password at all');
    await phone.getByRole('textbox', { name: 'New password', exact: true }).fill('heron tide lantern 42');
    await phone.getByLabel('Repeat the new password').fill('heron tide lantern 42');
    await phone.getByRole('button', { name: 'Change password' }).click();
    await expect(phone.getByRole('alert').filter({ hasText: 'The current password is not right.' })).toBeAttached();
    await expect(phone.getByLabel('Current password')).toBeFocused();

    await phone.getByLabel('Current password').fill(user.password);
    await phone.getByRole('textbox', { name: 'New password', exact: true }).fill('heron tide lantern 42');
    await phone.getByLabel('Repeat the new password').fill('heron tide lantern 42');
    await phone.getByRole('button', { name: 'Change password' }).click();
    await expect(phone.getByText('Your password was changed.')).toBeVisible();
    await expectNoSeriousA11yViolations(phone);
    await userContext.close();
  });

  test('an invited user chooses their password through the one-time link, which then stops working', async ({ page, browser }) => {
    const id = suffix();
    const invitee = { name: `Ivy Invitee ${id}`, email: `ivy.${id}@example.com`, password: 'pluff mud and salt air' };
    await signIn(page);
    await page.goto('/admin/settings?tab=staff');
    await page.getByRole('button', { name: 'Add staff member' }).click();
    const form = page.getByRole('region', { name: 'Add staff member' });
    await form.getByLabel('Name').fill(invitee.name);
    await form.getByLabel('Email').fill(invitee.email);
    await form.getByRole('button', { name: 'Add and send invite link' }).click();
    await expect(page.getByRole('status').filter({ hasText: `A set-password link was e-mailed to ${invitee.email}` })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: invitee.email }).getByText('Invited, no password yet')).toBeVisible();

    await expect.poll(() => outboxMailsMentioning(invitee.email).length).toBeGreaterThan(0);
    const linkPath = setPasswordPathIn(outboxMailsMentioning(invitee.email)[0]!);
    expect(linkPath).toBeDefined();

    const inviteeContext = await browser.newContext();
    const own = await inviteeContext.newPage();
    await own.goto(linkPath!);
    await expect(own.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
    await expect(own.getByText(`Hello ${invitee.name}.`)).toBeVisible();
    await own.getByRole('textbox', { name: 'New password', exact: true }).fill(`ivy ${id} password`);
    await own.getByLabel('Repeat the password').fill(`ivy ${id} password`);
    await own.getByRole('button', { name: 'Set password' }).click();
    await expect(own.getByRole('alert').filter({ hasText: 'cannot contain the e-mail address or the name' })).toBeAttached();

    await own.getByRole('textbox', { name: 'New password', exact: true }).fill(invitee.password);
    await own.getByLabel('Repeat the password').fill(invitee.password);
    await own.getByRole('button', { name: 'Set password' }).click();
    await expect(own.getByText('Your password is set.')).toBeVisible();
    await expectNoSeriousA11yViolations(own);
    await own.getByRole('link', { name: 'Sign in' }).click();
    await own.getByLabel('Email').fill(invitee.email);
    await own.getByLabel('Password').fill(invitee.password);
    await own.getByRole('button', { name: 'Login' }).click();
    await expect(own.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

    // The same link again: used.
    const second = await inviteeContext.newPage();
    await second.goto(linkPath!);
    await expect(second.getByRole('alert')).toContainText('This link has expired or was already used.');
    await inviteeContext.close();
  });
});
