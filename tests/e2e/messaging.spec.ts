import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Customer } from '#shared/customer.ts';
import { addDays, todayIn } from '#shared/dates.ts';
import { calendarMessages } from '#shared/calendar.ts';
import { workOrderMessages } from '#shared/work-order.ts';
import { e2eAdmin, expectNoSeriousA11yViolations, outboxMailsMentioning, signIn } from './fixtures.ts';

// Customer messaging (issue 18) through the staff screens: a template edited with its live preview
// (and a test e-mail that reaches the outbox), a work order scheduled from its detail screen whose
// Messages card shows the confirmation and then "On my way", and the customer profile's consents
// and history. Each journey works on records it creates (unique names); the template journey edits
// "Visit completed", which the other journeys do not send.

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Messages are planned after the work order's change is committed: the screens poll for a few seconds. */
const plannedSoon = { timeout: 20_000 };

async function createCustomer(request: APIRequestContext): Promise<Customer> {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const response = await request.post('/api/admin/customers', {
    data: {
      name: `Msg Customer ${id}`,
      phone: '(843) 555-0177',
      email: `msg.${id}@example.com`,
      address: '14 Marsh Hen Lane',
      city: 'Bluffton',
      state: 'SC',
      type: 'residential',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { customer: Customer }).customer;
}

async function createWorkOrder(request: APIRequestContext, customer: Customer): Promise<{ id: string; title: string }> {
  const title = unique('Msg job');
  const response = await request.post('/api/admin/work-orders', {
    data: { customerId: customer.id, title, description: 'Created by the messaging e2e journey.', serviceType: 'repair', priority: 'normal', timePreference: 'morning' },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { id: ((await response.json()) as { workOrder: { id: string } }).workOrder.id, title };
}

/** The date two days ahead (the schedule dialog accepts today or later, in the company's time zone). */
function inTwoDays(): string {
  const date = new Date(`${todayIn('UTC')}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 2);
  return date.toISOString().slice(0, 10);
}

/** Schedules the open work order from its detail screen with the first active technician. */
async function scheduleFromDetail(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule Appointment' });
  await dialog.getByLabel('Date').fill(inTwoDays());
  await dialog.getByLabel('Start Time').selectOption({ label: '9:00 AM' });
  const technician = dialog.getByLabel('Technician');
  await expect(technician.locator('option').nth(1)).toBeAttached();
  await technician.selectOption({ index: 1 });
  await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(workOrderMessages.scheduled)).toBeVisible();
}

test.describe('customer messaging', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('settings: edits a template with the live preview, sends a test, and restores the default', async ({ page }) => {
    await page.goto('/admin/settings?tab=messages');
    await expect(page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Messages' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('form', { name: 'Reminders and quiet hours' }).getByLabel('Reminder, hours before the visit')).toHaveValue(/^\d+$/);

    const summary = page.locator('summary', { hasText: 'Visit completed' });
    await summary.click();
    const editor = page.getByRole('region', { name: 'Visit completed template' });
    await expect(editor).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // A problem is a field error before saving.
    const subject = editor.getByLabel(/^Subject/);
    await subject.fill('All done {{customer.lastName}}');
    await expect(editor.getByText(/^Unknown variable \{\{customer\.lastName\}\}/)).toBeVisible();
    await expect(subject).toHaveAttribute('aria-invalid', 'true');

    // The preview follows the typing, with the sample values; a variable goes in at the cursor.
    const marker = unique('Done');
    await subject.fill(`${marker} for `);
    await subject.press('End');
    await editor.getByRole('button', { name: /^Customer's first name/ }).click();
    await expect(subject).toHaveValue(`${marker} for {{customer.firstName}}`);
    await expect(editor.getByText(`${marker} for Dana`)).toBeVisible();
    const textBody = editor.getByLabel(/^Text body/);
    await textBody.fill('Thanks {{customer.firstName}}! '.repeat(12));
    await expect(editor.getByText(/^\d+ characters, 2 text messages \(153 characters each\)$/)).toBeVisible();
    await textBody.fill('Thanks {{customer.firstName}}, all done today.');
    await expect(editor.getByText('Thanks Dana, all done today. Reply STOP to opt out.')).toBeVisible();
    await expect(editor.getByText(/^\d+ characters, 1 text message$/)).toBeVisible();

    await editor.getByRole('button', { name: 'Save template' }).click();
    await expect(editor.getByRole('status').filter({ hasText: 'Visit completed saved.' })).toBeVisible();
    await expect(summary.getByText('Edited')).toBeVisible();

    // "Send me a test" goes to the signed-in user's address, with the saved subject.
    const testForm = editor.getByRole('form', { name: 'Send a test of the visit completed' });
    await expect(testForm.getByLabel('E-mail address')).toHaveValue(e2eAdmin.email);
    await testForm.getByRole('button', { name: 'Send test' }).click();
    await expect(testForm.getByRole('status')).toHaveText(`Test e-mail sent to ${e2eAdmin.email}.`);
    await expect.poll(() => outboxMailsMentioning(marker).filter((mail) => mail.includes(e2eAdmin.email)).length, plannedSoon).toBeGreaterThan(0);

    // Restore default: asks, then the built-in text is back.
    await editor.getByRole('button', { name: 'Restore default' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore the default visit completed?' });
    await dialog.getByRole('button', { name: 'Restore default' }).click();
    await expect(editor.getByRole('status').filter({ hasText: 'back to the built-in default' })).toBeVisible();
    await expect(subject).toHaveValue('Your visit is done: {{workOrder.title}}');
    await expect(editor.getByRole('button', { name: 'Restore default' })).toHaveCount(0);
    await expect(summary.getByText('Edited')).toHaveCount(0);
  });

  test('work order: scheduling sends "Appointment confirmed", Mark en route sends "On my way"', async ({ page }) => {
    const customer = await createCustomer(page.request);
    const workOrder = await createWorkOrder(page.request, customer);
    await page.goto(`/admin/workorders/${workOrder.id}`);
    const card = page.getByRole('region', { name: 'Messages' });
    await expect(card.getByText('No messages for this work order yet.')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Mark en route' })).toHaveCount(0);

    await scheduleFromDetail(page);
    const history = card.getByRole('list', { name: 'Messages' });
    // By e-mail (the default); texts wait for an opt-in, so a text row, if planned, is not sent.
    const byEmail = history.getByRole('listitem').filter({ hasText: `To ${customer.email}` });
    const confirmed = byEmail.filter({ hasText: 'Appointment confirmed' });
    await expect(confirmed, 'the confirmation is planned after the schedule').toBeVisible(plannedSoon);
    await expect(confirmed).toContainText('E-mail');
    await expectNoSeriousA11yViolations(page);

    await card.getByRole('button', { name: 'Mark en route' }).click();
    await expect(card.getByRole('status').filter({ hasText: 'On my way sent' })).toBeVisible();
    await expect(byEmail.filter({ hasText: 'On my way' })).toBeVisible(plannedSoon);
    await expect(card.getByRole('button', { name: 'Mark en route' })).toHaveCount(0);
    // The e-mail reaches the outbox (no SMTP_URL in e2e).
    await expect.poll(() => outboxMailsMentioning(customer.email!).length, plannedSoon).toBeGreaterThan(0);
  });

  test('customer profile: consents in words, the history, and opting out of e-mail', async ({ page }) => {
    const customer = await createCustomer(page.request);
    const workOrder = await createWorkOrder(page.request, customer);
    await page.goto(`/admin/workorders/${workOrder.id}`);
    await scheduleFromDetail(page);
    // Planned after the commit: the work order's card polls for it; the profile then finds it at once.
    await expect(page.getByRole('region', { name: 'Messages' }).getByText('Appointment confirmed').first()).toBeVisible(plannedSoon);

    await page.goto(`/admin/customers/${customer.id}`);
    const section = page.getByRole('region', { name: 'Messages' });
    const consents = section.getByRole('list', { name: 'Consent by channel' });
    await expect(consents.getByRole('listitem').filter({ hasText: 'E-mail:' })).toContainText('E-mail: sending (default)');
    await expect(consents.getByRole('listitem').filter({ hasText: 'Texts:' })).toContainText('Texts: not opted in');
    const confirmed = section
      .getByRole('list', { name: 'Messages' })
      .getByRole('listitem')
      .filter({ hasText: 'Appointment confirmed' })
      .filter({ hasText: `To ${customer.email}` });
    await expect(confirmed).toBeVisible(plannedSoon);
    await expect(confirmed.getByRole('link')).toHaveAttribute('href', `/admin/workorders/${workOrder.id}`);
    await expectNoSeriousA11yViolations(page);

    // Opting in to texts asks first; cancelling changes nothing.
    await section.getByRole('button', { name: 'Opt in to texts' }).click();
    const dialog = page.getByRole('dialog', { name: 'Opt in to texts?' });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(consents).toContainText('Texts: not opted in');

    await section.getByRole('button', { name: 'Opt out of e-mail' }).click();
    await expect(section.getByRole('status').filter({ hasText: 'Saved.' })).toContainText('E-mail: opted out by');
    await expect(consents.getByRole('listitem').filter({ hasText: 'E-mail:' })).toContainText(/E-mail: opted out by .+, \d{1,2} [A-Z][a-z]{2} \d{4}/);
    await expect(section.getByRole('button', { name: 'Opt out of e-mail' })).toHaveCount(0);
    await expect(section.getByRole('button', { name: 'Opt in to e-mail' })).toBeVisible();
  });

  test('calendar: an appointment booked and then dragged to another day reaches the customer as "booked", then "moved", in the outbox', async ({ page }) => {
    const customer = await createCustomer(page.request);
    // A weekday well ahead (Sunday to Friday, so the next day is in the same week).
    let date = addDays(todayIn('UTC'), 30);
    while (new Date(`${date}T12:00:00Z`).getUTCDay() === 6) date = addDays(date, 1);
    const nextDay = addDays(date, 1);
    const title = unique('Msg calendar job');
    const created = await page.request.post('/api/admin/work-orders', {
      data: { customerId: customer.id, title, description: 'Booked on the calendar by the messaging journey.', serviceDate: date, startTime: '09:00', endTime: '11:00' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const mails = () => outboxMailsMentioning(customer.email!);
    await expect.poll(() => mails().filter((mail) => mail.includes('Subject: Your visit is booked')).length, plannedSoon).toBe(1);

    await page.goto(`/admin/calendar?date=${date}`);
    await expect(page.getByRole('heading', { name: calendarMessages.title, level: 1 })).toBeVisible();
    const dayColumn = (day: string) => page.locator(`[role="cell"][data-date="${day}"]`);
    const event = dayColumn(date).getByRole('button', { name: new RegExp(title) });
    const from = (await event.boundingBox())!;
    const target = (await dayColumn(nextDay).boundingBox())!;
    const startX = from.x + from.width / 2;
    const startY = from.y + from.height / 2;
    await page.mouse.move(startX, startY);
    await page.mouse.down();
    await page.mouse.move(startX + 10, startY, { steps: 3 });
    await page.mouse.move(target.x + target.width / 2, startY, { steps: 10 });
    await page.mouse.up();
    await expect(page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: title })).toContainText(`moved to ${nextDay}`);

    // The customer hears of the move once, by e-mail in the outbox (.eml: no SMTP_URL in e2e).
    await expect.poll(() => mails().filter((mail) => mail.includes('Subject: Your visit has moved')).length, plannedSoon).toBe(1);
    expect(mails().filter((mail) => mail.includes('Subject: Your visit is booked'))).toHaveLength(1);
  });
});

test.describe('customer messaging on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the Messages tab, a template editor and the public forms\' text box fit the screen and work by touch size', async ({ page }) => {
    await signIn(page);
    const fitsTheScreen = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

    await page.goto('/admin/settings?tab=messages');
    await expect(page.getByRole('form', { name: 'Reminders and quiet hours' })).toBeVisible();
    await page.locator('summary', { hasText: 'Appointment reminder' }).click();
    const editor = page.getByRole('region', { name: 'Appointment reminder template' });
    await expect(editor.getByLabel(/^Text body/)).toBeVisible();
    await expect(editor.getByText(/characters, 1 text message/)).toBeVisible();
    expect(await fitsTheScreen()).toBe(true);
    await expectNoSeriousA11yViolations(page);

    // The estimate form's box: labelled with the wording the privacy page uses, and ticked by its label.
    await page.goto('/estimate');
    const box = page.getByRole('checkbox', { name: /^Text me about my request and appointments/ });
    await expect(box).not.toBeChecked();
    await page.getByText(/^Text me about my request and appointments/).click();
    await expect(box).toBeChecked();
    await expect(page.getByText(/Reply STOP to stop texts, HELP for help\. Agreeing is not a condition of buying/)).toBeVisible();
    expect(await fitsTheScreen()).toBe(true);
  });
});
