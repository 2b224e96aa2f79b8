import { expect, test, type APIRequestContext } from '@playwright/test';
import { todayIn } from '#shared/dates.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// Issue 22: a maintenance plan sold from a profile, its visits in Visits Due, one scheduled on the
// calendar and completed. The e2e server generates a whole term's visits at once
// (AGREEMENT_VISIT_LEAD_DAYS=366, playwright.config.ts), so the journey works in any month.

const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function createCustomer(request: APIRequestContext, name: string): Promise<{ id: string }> {
  const response = await request.post('/api/admin/customers', {
    data: { name, phone: '(843) 555-0190', email: 'member@example.com', address: '12 Oyster Shell Ln', city: 'Bluffton', state: 'SC', zip: '29910', type: 'residential' },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { customer: { id: string } }).customer;
}

/** Two days from today in the company's time zone (the schedule dialog refuses past dates). */
function inTwoDays(): string {
  const day = new Date(`${todayIn('America/New_York')}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 2);
  return day.toISOString().slice(0, 10);
}

test('sell a plan from a profile, find its visit in Visits Due, schedule it on the calendar and complete it', async ({ page }) => {
  test.slow();
  await signIn(page);
  const name = unique('Member');
  const customer = await createCustomer(page.request, name);
  await page.goto(`/admin/customers/${customer.id}`);

  const plans = page.getByRole('region', { name: 'Maintenance Plans' });
  await expect(plans).toContainText('No maintenance plan');
  await plans.getByRole('button', { name: 'Add maintenance plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add maintenance plan' });
  await expect(dialog.getByLabel('Plan')).toBeFocused();
  // Nothing chosen: the error is announced at its field and focused.
  await dialog.getByRole('button', { name: 'Add plan' }).click();
  await expect(dialog.getByText('Choose a plan.')).toBeVisible();
  await expect(dialog.getByLabel('Plan')).toBeFocused();
  await dialog.getByLabel('Plan').selectOption('advanced');
  await expect(dialog).toContainText('Two visits a year');
  await dialog.getByLabel('Billing').selectOption('monthly');
  await expect(dialog).toContainText('Billed $20.83 a month.');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Add plan' }).click();
  await expect(dialog).toBeHidden();
  await expect(plans.getByRole('status')).toContainText(/Advanced plan MA-\d+ added; 2 visits due\./);
  const card = plans.getByRole('article');
  await expect(card).toContainText('Active');
  await expect(card).toContainText('$250.00 a year (billed monthly, $20.83)');
  await expect(card.getByRole('link', { name: /^WO-/ })).toHaveCount(2);

  // The first visit, in the month its season opens.
  const firstVisit = card.getByRole('listitem').first();
  const visitNumber = (await firstVisit.getByRole('link', { name: /^WO-/ }).textContent())!;
  await firstVisit.getByRole('link', { name: /^In Visits due for/ }).click();
  await expect(page).toHaveURL(/\/admin\/visits-due\?month=\d{4}-\d{2}$/);
  const visitsDueUrl = page.url();
  await expect(page.getByRole('heading', { level: 1, name: 'Visits Due' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(visitNumber);
  await expect(row).toContainText('Member · Advanced');
  await expectNoSeriousA11yViolations(page);
  // The plan filter keeps it; another plan's does not.
  await page.getByRole('combobox', { name: 'Plan' }).selectOption('essential');
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Plan' }).selectOption('advanced');
  await expect(row).toBeVisible();

  // Open the visit and schedule it.
  await row.getByRole('link', { name: visitNumber }).click();
  await expect(page).toHaveURL(/\/admin\/workorders\/[0-9a-f-]+$/);
  await expect(page.getByText('Cooling tune-up (Advanced plan)').first()).toBeVisible();
  await expect(page.getByText('Check refrigerant pressures and temperature split')).toBeVisible();
  await page.getByRole('button', { name: 'Schedule' }).click();
  const schedule = page.getByRole('dialog', { name: 'Schedule Appointment' });
  const day = inTwoDays();
  await schedule.getByLabel('Date').fill(day);
  await schedule.getByLabel('Start Time').selectOption({ label: '9:00 AM' });
  await schedule.getByRole('button', { name: 'Schedule' }).click();
  await expect(schedule).toBeHidden();
  const workOrderUrl = page.url();

  // Scheduled, it leaves Visits Due; on the calendar it is marked as a member's.
  await page.goto(visitsDueUrl);
  await expect(page.getByRole('status').filter({ hasText: /to schedule in/ })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
  await page.getByLabel('Show').selectOption('all');
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('Scheduled');
  await page.goto(`/admin/calendar?date=${day}&view=timeGridDay`);
  const event = page.getByText(`Member · Cooling tune-up (Advanced plan) · ${name}`);
  await expect(event).toBeVisible();
  await event.click();
  const eventDialog = page.getByRole('dialog');
  await expect(eventDialog.getByText('Plan member')).toBeVisible();
  await page.keyboard.press('Escape');

  // Done on site: started and completed.
  await page.goto(workOrderUrl);
  await page.getByRole('button', { name: 'Start Job' }).click();
  await page.getByRole('button', { name: 'Complete Job' }).click();
  await expect(page.getByRole('button', { name: 'Start Job' })).toHaveCount(0);
  await page.goto(`/admin/customers/${customer.id}`);
  await expect(page.getByRole('region', { name: 'Maintenance Plans' }).getByRole('listitem').first()).toContainText('Completed');
});

test('Visits Due on a phone: filters by keyboard, and the dashboard counts the plans', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto('/admin/visits-due');
  await expect(page.getByRole('heading', { level: 1, name: 'Visits Due' })).toBeVisible();
  await page.getByLabel('Area').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page).toHaveURL(/area=/);
  await expectNoSeriousA11yViolations(page);
  await page.goto('/admin');
  const figures = page.getByRole('region', { name: 'Maintenance plans' });
  await expect(figures.getByTestId('agreements-active')).toHaveText(/^\d+$/);
  await expect(figures.getByTestId('agreements-revenue')).toHaveText(/^\$/);
});
