import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { calendarMessages, type CalendarEvent } from '#shared/calendar.ts';
import { addDays } from '#shared/dates.ts';
import { workOrderMessages, type Technician, type WorkOrder } from '#shared/work-order.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// The service calendar against the real server. Every test works on its own customer and
// appointments, on a random weekday years away from the demo data, opened with ?date=.

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A random Sunday-to-Friday date in 2035-2044 (so the next day is in the same week). */
function farDate(): string {
  const date = new Date(Date.UTC(2035, 0, 1) + Math.floor(Math.random() * 3650) * 86_400_000);
  if (date.getUTCDay() === 6) date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

async function createCustomer(request: APIRequestContext, name = unique('Cal Customer')) {
  const response = await request.post('/api/admin/customers', {
    data: { name, phone: '(843) 555-0188', address: '9 Calendar Row', city: 'Bluffton', state: 'SC', type: 'residential' },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { customer: { id: string; name: string } }).customer;
}

async function createAppointment(
  request: APIRequestContext,
  values: { serviceDate: string; startTime: string; endTime: string; title?: string; technicianId?: string },
) {
  const customer = await createCustomer(request);
  const title = values.title ?? unique('Cal job');
  const response = await request.post('/api/admin/work-orders', {
    data: { customerId: customer.id, title, description: 'Created by the calendar e2e suite.', ...values },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { workOrder } = (await response.json()) as { workOrder: WorkOrder };
  return { workOrder, customer, title };
}

async function workOrder(request: APIRequestContext, id: string): Promise<WorkOrder> {
  const response = await request.get(`/api/admin/work-orders/${id}`);
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { workOrder: WorkOrder }).workOrder;
}

async function openCalendar(page: Page, date: string, view?: string) {
  await page.goto(`/admin/calendar?date=${date}${view ? `&view=${view}` : ''}`);
  await expect(page.getByRole('heading', { name: calendarMessages.title, level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: calendarMessages.loading })).toHaveCount(0);
}

/** The time grid's body cell of a day (the column header carries the same data-date). */
const dayColumn = (page: Page, date: string) => page.locator(`[role="cell"][data-date="${date}"]`);
const appointmentOn = (page: Page, title: string) => page.getByRole('button', { name: new RegExp(title) });

test.describe('service calendar', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('opens on the week view, switches views and fetches the range it shows', async ({ page }) => {
    const date = farDate();
    const { title } = await createAppointment(page.request, { serviceDate: date, startTime: '09:00', endTime: '10:00' });
    await openCalendar(page, date);
    await expect(page.getByText(calendarMessages.subtitle)).toBeVisible();
    await expect(page.getByRole('button', { name: '+ New Appointment' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Legend' }).getByText('Emergency')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Week view' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('columnheader')).toHaveCount(7);
    await expect(appointmentOn(page, title)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Ranges asked for from here on (live updates from other journeys may refetch the one shown).
    const ranges = new Set<string>();
    page.on('request', (request) => {
      if (!request.url().includes('/api/admin/calendar/events')) return;
      const params = new URL(request.url()).searchParams;
      ranges.add(`${params.get('start')}/${params.get('end')}`);
    });
    const weekStart = addDays(date, -new Date(`${date}T12:00:00Z`).getUTCDay());
    await page.getByRole('button', { name: 'Next Week' }).click();
    await expect(appointmentOn(page, title)).toHaveCount(0);
    // Only what is shown: the next week, Sunday to Sunday (and at most the week it came from).
    await expect.poll(() => ranges.has(`${addDays(weekStart, 7)}/${addDays(weekStart, 14)}`)).toBe(true);
    expect([...ranges].every((range) => [`${weekStart}/${addDays(weekStart, 7)}`, `${addDays(weekStart, 7)}/${addDays(weekStart, 14)}`].includes(range))).toBe(true);
    await page.getByRole('button', { name: 'Previous Week' }).click();
    await expect(appointmentOn(page, title)).toBeVisible();

    await page.getByRole('tab', { name: 'Month view' }).click();
    await expect(page.getByRole('tab', { name: 'Month view' })).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL(/view=dayGridMonth/);
    await expect(appointmentOn(page, title)).toBeVisible();
    await page.getByRole('tab', { name: 'Day view' }).click();
    await expect(page.getByRole('tab', { name: 'Day view' })).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL(/view=timeGridDay/);
  });

  test('creates an appointment from a range selected on the time grid', async ({ page }) => {
    const date = farDate();
    const customer = await createCustomer(page.request);
    const title = unique('Selected slot');
    await openCalendar(page, date);

    const column = dayColumn(page, date);
    const box = (await column.boundingBox())!;
    const hour = box.height / 12; // 07:00-19:00
    const x = box.x + box.width / 2;
    await page.mouse.move(x, box.y + 3 * hour + 3); // 10:00
    await page.mouse.down();
    await page.mouse.move(x, box.y + 4 * hour, { steps: 5 });
    await page.mouse.move(x, box.y + 5 * hour - 3, { steps: 5 }); // up to 12:00
    await page.mouse.up();

    const dialog = page.getByRole('dialog', { name: 'Create New Appointment' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel(/^Date/)).toHaveValue(date);
    await expect(dialog.getByLabel(/^Start Time/)).toHaveValue('10:00');
    await expect(dialog.getByLabel(/^End Time/)).toHaveValue('12:00');
    await expect(dialog.getByLabel(/^Service Type/)).toHaveValue('repair');
    await expect(dialog.getByLabel(/^Priority/)).toHaveValue('normal');

    await dialog.getByRole('button', { name: 'Create Appointment' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(calendarMessages.selectCustomer);
    await dialog.getByLabel('Search customers by name or phone').fill(customer.name);
    await dialog.getByRole('button', { name: new RegExp(customer.name) }).click();
    await dialog.getByRole('button', { name: 'Create Appointment' }).click();
    await expect(dialog.getByLabel(/^Title/)).toBeFocused();
    await dialog.getByLabel(/^Title/).fill(title);
    await dialog.getByLabel(/^Description/).fill('No heat upstairs.');
    await dialog.getByRole('button', { name: 'Create Appointment' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(dayColumn(page, date).getByRole('button', { name: new RegExp(title) })).toBeVisible();

    const response = await page.request.get(`/api/admin/calendar/events?start=${date}&end=${addDays(date, 1)}`);
    const created = ((await response.json()) as { events: CalendarEvent[] }).events.find((event) => event.title === title);
    expect(created).toMatchObject({ startTime: '10:00', endTime: '12:00', status: 'pending', serviceType: 'repair', priority: 'normal', customer: { name: customer.name } });
  });

  test('shows an appointment, assigns a technician and moves its status along the flow', async ({ page }) => {
    const date = farDate();
    const { workOrder: order, customer, title } = await createAppointment(page.request, { serviceDate: date, startTime: '13:00', endTime: '14:00' });
    const technicians = ((await (await page.request.get('/api/admin/technicians?active=true')).json()) as { technicians: Technician[] }).technicians;
    const technician = technicians[0]!;
    await openCalendar(page, date);
    await appointmentOn(page, title).click();

    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(customer.name)).toBeVisible();
    await expect(dialog.getByText('(843) 555-0188')).toBeVisible();
    await expect(dialog.getByText('9 Calendar Row')).toBeVisible();
    await expect(dialog.getByText('Repair')).toBeVisible();
    await expect(dialog.getByTestId('event-technician')).toHaveText('Unassigned');
    await expect(dialog.getByRole('link', { name: /View Full Details/ })).toHaveAttribute('href', `/admin/workorders/${order.id}`);
    await expect(dialog.getByRole('link', { name: /View Full Details/ })).toHaveAttribute('target', '_blank');
    // Decision 015: moves the transition table refuses are shown disabled with the reason.
    await expect(dialog.getByRole('button', { name: 'Complete' })).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Complete' })).toHaveAccessibleDescription('A pending work order cannot be moved to completed.');

    await dialog.getByRole('button', { name: technician.name }).click();
    await expect(dialog.getByTestId('event-technician')).toHaveText(technician.name);
    await expect(dialog.getByRole('status')).toHaveText(`Assigned to ${technician.name}.`);

    await dialog.getByRole('button', { name: 'Start Job' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Status changed to In Progress.');
    await expect(dialog.getByRole('button', { name: 'Pending' })).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Complete' })).toBeEnabled();

    const saved = await workOrder(page.request, order.id);
    expect(saved).toMatchObject({ technicianId: technician.id, status: 'in-progress' });
    expect(saved.startedAt).not.toBeNull();
  });

  test('a drag to another day is saved and still there after a reload', async ({ page }) => {
    const date = farDate();
    const nextDay = addDays(date, 1);
    const { workOrder: order, title } = await createAppointment(page.request, { serviceDate: date, startTime: '09:00', endTime: '10:00' });
    await openCalendar(page, date);

    const event = dayColumn(page, date).getByRole('button', { name: new RegExp(title) });
    const from = (await event.boundingBox())!;
    const target = (await dayColumn(page, nextDay).boundingBox())!;
    const startX = from.x + from.width / 2;
    const startY = from.y + from.height / 2; // the middle: the top edge is read as the quarter before
    await page.mouse.move(startX, startY);
    await page.mouse.down();
    await page.mouse.move(startX + 10, startY, { steps: 3 });
    await page.mouse.move(target.x + target.width / 2, startY, { steps: 10 });
    await page.mouse.up();

    await expect(page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: title })).toContainText(`moved to ${nextDay}, 09:00-10:00`);
    await expect.poll(async () => (await workOrder(page.request, order.id)).serviceDate).toBe(nextDay);

    await page.reload();
    await expect(page.getByRole('heading', { name: calendarMessages.title, level: 1 })).toBeVisible();
    await expect(dayColumn(page, nextDay).getByRole('button', { name: new RegExp(title) })).toBeVisible();
    await expect(dayColumn(page, date).getByRole('button', { name: new RegExp(title) })).toHaveCount(0);
    expect(await workOrder(page.request, order.id)).toMatchObject({ scheduledStartTime: '09:00:00', scheduledEndTime: '10:00:00' });
  });

  test('deletes an appointment after the confirmation', async ({ page }) => {
    const date = farDate();
    const { workOrder: order, title } = await createAppointment(page.request, { serviceDate: date, startTime: '15:00', endTime: '16:00' });
    await openCalendar(page, date);
    await appointmentOn(page, title).click();
    await page.getByRole('dialog', { name: title }).getByRole('button', { name: 'Delete' }).click();

    const confirm = page.getByRole('dialog', { name: 'Delete Work Order' });
    await expect(confirm).toContainText(calendarMessages.confirmDelete);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(appointmentOn(page, title)).toHaveCount(0);
    expect((await page.request.get(`/api/admin/work-orders/${order.id}`)).status()).toBe(404);
  });

  test('edits an appointment from the keyboard: times, status and notes', async ({ page }) => {
    const date = farDate();
    const { workOrder: order, title } = await createAppointment(page.request, { serviceDate: date, startTime: '10:00', endTime: '11:00' });
    await openCalendar(page, date);
    await appointmentOn(page, title).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: title }).getByRole('button', { name: 'Edit Details' }).click();

    const dialog = page.getByRole('dialog', { name: 'Edit Appointment' });
    await expect(dialog.getByLabel(/^Title/)).toHaveValue(title);
    await expect(dialog.getByText(/Selected customer/)).toBeVisible();
    // Pending may go to scheduled, in progress or cancelled; never straight to completed.
    await expect(dialog.getByRole('option', { name: /Completed/ })).toBeDisabled();
    await dialog.getByLabel(/^End Time/).fill('12:30');
    await dialog.getByLabel(/^Status/).selectOption('scheduled');
    await dialog.getByLabel(/^Notes/).fill('Dog in the yard.');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: 'Appointment updated.' })).toBeVisible();
    expect(await workOrder(page.request, order.id)).toMatchObject({ status: 'scheduled', notes: 'Dog in the yard.', scheduledEndTime: '12:30:00', estimatedDuration: 2.5 });
  });

  test("asks before a drag double-books the technician; cancelling puts the appointment back", async ({ page }) => {
    const date = farDate();
    const nextDay = addDays(date, 1);
    const technicians = ((await (await page.request.get('/api/admin/technicians?active=true')).json()) as { technicians: Technician[] }).technicians;
    const technicianId = technicians[technicians.length - 1]!.id;
    const busy = await createAppointment(page.request, { serviceDate: nextDay, startTime: '09:00', endTime: '10:00', technicianId, title: unique('Busy job') });
    const { workOrder: order, title } = await createAppointment(page.request, { serviceDate: date, startTime: '09:00', endTime: '10:00', technicianId });
    await openCalendar(page, date);

    async function dragToNextDay() {
      const from = (await dayColumn(page, date).getByRole('button', { name: new RegExp(title) }).boundingBox())!;
      const target = (await dayColumn(page, nextDay).boundingBox())!;
      const y = from.y + from.height / 2;
      await page.mouse.move(from.x + from.width / 2, y);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2 + 10, y, { steps: 3 });
      await page.mouse.move(target.x + target.width / 2, y, { steps: 10 });
      await page.mouse.up();
    }

    await dragToNextDay();
    const question = page.getByRole('dialog', { name: 'Double booking' });
    await expect(question.getByRole('list', { name: 'Conflicting appointments' })).toContainText(busy.title);
    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect(dayColumn(page, date).getByRole('button', { name: new RegExp(title) })).toBeVisible();
    expect((await workOrder(page.request, order.id)).serviceDate).toBe(date);

    await dragToNextDay();
    await page.getByRole('dialog', { name: 'Double booking' }).getByRole('button', { name: 'Book Anyway' }).click();
    await expect.poll(async () => (await workOrder(page.request, order.id)).serviceDate).toBe(nextDay);
    await expect(dayColumn(page, nextDay).getByRole('button', { name: new RegExp(title) })).toBeVisible();
  });

  test('a resize changes the end time', async ({ page }) => {
    const date = farDate();
    const { workOrder: order, title } = await createAppointment(page.request, { serviceDate: date, startTime: '09:00', endTime: '10:00' });
    await openCalendar(page, date);
    const event = dayColumn(page, date).getByRole('button', { name: new RegExp(title) });
    const box = (await event.boundingBox())!;
    const hour = (await dayColumn(page, date).boundingBox())!.height / 12;
    await event.hover();
    const x = box.x + box.width / 2;
    await page.mouse.move(x, box.y + box.height - 2);
    await page.mouse.down();
    await page.mouse.move(x, box.y + box.height + 10, { steps: 3 });
    await page.mouse.move(x, box.y + box.height - 2 + hour, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await workOrder(page.request, order.id)).scheduledEndTime).toBe('11:00:00');
    expect(await workOrder(page.request, order.id)).toMatchObject({ serviceDate: date, scheduledStartTime: '09:00:00', estimatedDuration: 2 });
  });

  test('a drag based on a stale copy is reverted with the conflict message, and the event shows the saved time', async ({ page }) => {
    // Without live updates (a dropped stream), the calendar keeps the copy it loaded.
    await page.route('**/api/admin/events', (route) => route.abort());
    const date = farDate();
    const nextDay = addDays(date, 1);
    const { workOrder: order, title } = await createAppointment(page.request, { serviceDate: date, startTime: '09:00', endTime: '10:00' });
    await openCalendar(page, date);
    const event = dayColumn(page, date).getByRole('button', { name: new RegExp(title) });
    await expect(event).toContainText('9:00');
    // Someone else moves it to the afternoon meanwhile.
    const moved = await page.request.post(`/api/admin/work-orders/${order.id}/reschedule`, {
      data: { serviceDate: date, startTime: '14:00', endTime: '15:00', expectedUpdatedAt: order.updatedAt },
    });
    expect(moved.status(), await moved.text()).toBe(200);

    const from = (await event.boundingBox())!;
    const target = (await dayColumn(page, nextDay).boundingBox())!;
    const y = from.y + from.height / 2;
    await page.mouse.move(from.x + from.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 10, y, { steps: 3 });
    await page.mouse.move(target.x + target.width / 2, y, { steps: 10 });
    await page.mouse.up();

    await expect(page.getByRole('alert')).toHaveText(`${calendarMessages.rescheduleFailed}: ${workOrderMessages.conflict}`);
    await expect(dayColumn(page, date).getByRole('button', { name: new RegExp(title) })).toContainText('2:00');
    await expect(dayColumn(page, nextDay).getByRole('button', { name: new RegExp(title) })).toHaveCount(0);
    expect(await workOrder(page.request, order.id)).toMatchObject({ serviceDate: date, scheduledStartTime: '14:00:00' });
  });
});
