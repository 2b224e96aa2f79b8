import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { Customer } from '#shared/customer.ts';
import { todayIn } from '#shared/dates.ts';
import { workOrderMessages, type WorkOrderListResponse } from '#shared/work-order.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// The work order screens against the real server and its demo data (work orders in every status).
// Journeys that change data work on customers and work orders they create themselves (unique
// titles), so they run in parallel with the rest.

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function createCustomer(request: APIRequestContext, name = unique('WO Customer')): Promise<Customer> {
  const response = await request.post('/api/admin/customers', {
    data: { name, phone: '(843) 555-0177', address: '7 Palmetto Bluff Rd', city: 'Bluffton', state: 'SC', type: 'residential' },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { customer: Customer }).customer;
}

type CreatedWorkOrder = { id: string; workOrderNumber: string; title: string; customer: Customer };

async function createWorkOrder(request: APIRequestContext, title = unique('Test job')): Promise<CreatedWorkOrder> {
  const customer = await createCustomer(request);
  const response = await request.post('/api/admin/work-orders', {
    data: { customerId: customer.id, title, description: 'Created by the e2e suite.', serviceType: 'repair', priority: 'normal', timePreference: 'morning' },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { workOrder } = (await response.json()) as { workOrder: { id: string; workOrderNumber: string } };
  return { ...workOrder, title, customer };
}

async function listWorkOrders(request: APIRequestContext, params: Record<string, string>): Promise<WorkOrderListResponse> {
  const response = await request.get(`/api/admin/work-orders?${new URLSearchParams({ page: '1', pageSize: '25', ...params })}`);
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as WorkOrderListResponse;
}

/** A labelled control; required labels end in an asterisk hidden from screen readers. */
const field = (scope: Page | Locator, label: string) => scope.getByLabel(new RegExp(`^${label.replace(/[()]/g, '\\$&')}( \\*)?$`));
const cards = (page: Page) => page.getByRole('list', { name: 'Work orders' }).getByRole('listitem');
const header = (page: Page) => page.locator('article header');

/** The Status & Actions card's timeline entry for a step ('In Progress'), as text. */
const timelineStep = (page: Page, label: string) => page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').filter({ hasText: label });

test.describe('work orders', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('the list filters by status in the URL and the cards follow', async ({ page }) => {
    await page.goto('/admin/workorders');
    await expect(page.getByRole('heading', { name: 'Work Orders', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'New Work Order' })).toBeVisible();
    await expect(page.getByPlaceholder(workOrderMessages.searchPlaceholder)).toBeVisible();
    await expect(cards(page).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const status = page.getByLabel('Status');
    await expect(status.locator('option')).toHaveText(['All', 'Pending', 'Scheduled', 'In Progress', 'Completed', 'Cancelled']);
    for (const [value, label] of [
      ['completed', 'Completed'],
      ['pending', 'Pending'],
      ['in-progress', 'In Progress'],
    ] as const) {
      await status.selectOption(value);
      await expect(page).toHaveURL(new RegExp(`[?&]status=${value}(&|$)`));
      await expect(cards(page).first()).toBeVisible();
      await expect(page.getByRole('list', { name: 'Work orders' })).not.toHaveAttribute('aria-busy', 'true');
      const count = await cards(page).count();
      for (let index = 0; index < count; index += 1) await expect(cards(page).nth(index)).toContainText(label);
    }
    // Pending cards offer 'Start Job', in-progress cards 'Complete'.
    await expect(cards(page).first().getByRole('button', { name: /^Complete/ })).toBeVisible();
    await status.selectOption('all');
    await expect(page).not.toHaveURL(/status=/);
  });

  test('search finds a work order by its number and keeps it in the URL', async ({ page }) => {
    const { workOrders } = await listWorkOrders(page.request, { status: 'completed' });
    const target = workOrders[0]!;
    await page.goto('/admin/workorders');
    await page.getByPlaceholder(workOrderMessages.searchPlaceholder).fill(target.workOrderNumber);
    await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(target.workOrderNumber)}`));
    await expect(cards(page).filter({ hasText: target.workOrderNumber }).first()).toBeVisible();
    await expect(cards(page).first()).toContainText(target.workOrderNumber);

    await page.getByPlaceholder(workOrderMessages.searchPlaceholder).fill('zzzz-no-such-work-order');
    await expect(page.getByText(workOrderMessages.noMatches)).toBeVisible();
  });

  test("the list's Start Job and Complete change the card in place", async ({ page }) => {
    const workOrder = await createWorkOrder(page.request);
    await page.goto(`/admin/workorders?search=${encodeURIComponent(workOrder.title)}`);
    const card = cards(page).filter({ hasText: workOrder.title });
    await expect(card).toContainText('Pending');
    await card.getByRole('button', { name: /^Start Job/ }).click();
    await expect(card).toContainText('In Progress');
    await card.getByRole('button', { name: /^Complete/ }).click();
    await expect(card).toContainText('Completed');
    await expect(card.getByRole('button')).toHaveCount(0);
    await expect(card.getByRole('link', { name: /^View Details/ })).toHaveAttribute('href', `/admin/workorders/${workOrder.id}`);
  });

  test('creates a work order for an existing customer picked from the search', async ({ page }) => {
    const customer = await createCustomer(page.request);
    const title = unique('Picker job');
    await page.goto('/admin/workorders');
    await page.getByRole('link', { name: 'New Work Order' }).click();
    await expect(page).toHaveURL(/\/admin\/workorders\/new$/);
    await expect(page.getByRole('heading', { name: 'New Work Order', level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Defaults: repair, normal, today (company time zone), morning.
    await expect(page.getByLabel('Service Type')).toHaveValue('repair');
    await expect(page.getByLabel('Priority')).toHaveValue('normal');
    await expect(page.getByLabel('Time Preference')).toHaveValue('morning');
    await expect(page.getByLabel('Service Date')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);

    // No customer yet: the spec's alert.
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Description (Required)').fill('Picker journey');
    await page.getByRole('button', { name: 'Create Work Order' }).click();
    await expect(page.getByRole('alert')).toContainText(workOrderMessages.selectCustomer);

    const search = page.getByLabel('Search customers by name or phone');
    await search.fill('zzqxq-nobody');
    await expect(page.getByText('No customers found')).toBeVisible();
    await search.fill(customer.name);
    await page.getByRole('list', { name: 'Matching customers' }).getByRole('button', { name: new RegExp(customer.name) }).click();
    await expect(page.getByText(`Selected customer: ${customer.name}`)).toBeVisible();

    await page.getByRole('button', { name: 'Create Work Order' }).click();
    await expect(page).toHaveURL(/\/admin\/workorders$/);
    await expect(page.getByText(workOrderMessages.created)).toBeVisible();
    await page.getByPlaceholder(workOrderMessages.searchPlaceholder).fill(title);
    await expect(cards(page).filter({ hasText: title })).toContainText(customer.name);
  });

  test("starts from a customer's profile with the customer preselected", async ({ page }) => {
    const customer = await createCustomer(page.request);
    const title = unique('Profile job');
    await page.goto(`/admin/customers/${customer.id}`);
    await page.getByRole('link', { name: 'New Work Order' }).first().click();
    await expect(page).toHaveURL(new RegExp(`/admin/workorders/new\\?customer=${customer.id}`));
    await expect(page.getByText(`Selected customer: ${customer.name}`)).toBeVisible();
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Priority').selectOption('high');
    await page.getByLabel('Description (Required)').fill('From the profile');
    await page.getByRole('button', { name: 'Create Work Order' }).click();
    await expect(page.getByText(workOrderMessages.created)).toBeVisible();
    const { workOrders } = await listWorkOrders(page.request, { search: title });
    expect(workOrders.map((workOrder) => [workOrder.title, workOrder.customer.id, workOrder.priority])).toEqual([[title, customer.id, 'high']]);
  });

  test('creates a work order with a new customer added inline', async ({ page }) => {
    const name = unique('Inline Customer');
    const title = unique('Inline job');
    await page.goto('/admin/workorders/new');
    await page.getByRole('button', { name: 'Add New Customer' }).click();
    await field(page, 'Name').fill(name);
    await field(page, 'Phone').fill('(843) 555-0199');
    await field(page, 'Address').fill('19 Calhoun St');
    const details = page.getByRole('group', { name: 'Work Order Details' });
    await field(details, 'Title').fill(title);
    await field(details, 'Description (Required)').fill('Inline customer journey');
    await page.getByRole('button', { name: 'Create Work Order' }).click();
    await expect(page).toHaveURL(/\/admin\/workorders$/);
    await expect(page.getByText(workOrderMessages.created)).toBeVisible();
    const { workOrders } = await listWorkOrders(page.request, { search: title });
    expect(workOrders.map((workOrder) => workOrder.customer.name)).toEqual([name]);
  });

  test('detail: Start Job moves a pending order to In Progress, then Complete Job', async ({ page }) => {
    const workOrder = await createWorkOrder(page.request);
    await page.goto(`/admin/workorders/${workOrder.id}`);
    await expect(page.getByRole('heading', { name: workOrder.title, level: 1 })).toBeVisible();
    await expect(header(page)).toContainText(workOrder.workOrderNumber);
    await expect(header(page)).toContainText('Pending');
    await expect(page.getByRole('link', { name: workOrder.customer.name })).toHaveAttribute('href', `/admin/customers/${workOrder.customer.id}`);
    await expect(page.getByRole('link', { name: workOrder.customer.phone })).toHaveAttribute('href', /^tel:/);
    await expect(page.getByText('Unassigned')).toBeVisible();
    await expect(timelineStep(page, 'In Progress')).toContainText('Not yet');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Start Job' }).click();
    await expect(header(page)).toContainText('In Progress');
    await expect(timelineStep(page, 'In Progress')).not.toContainText('Not yet');
    await expect(page.getByRole('button', { name: 'Start Job' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Complete Job' }).click();
    await expect(header(page)).toContainText('Completed');
    await expect(timelineStep(page, 'Completed')).not.toContainText('Not yet');
    await expect(page.getByRole('button', { name: 'Cancel Work Order' })).toHaveCount(0);
  });

  test('detail: schedules a pending order with the modal', async ({ page }) => {
    const workOrder = await createWorkOrder(page.request);
    await page.goto(`/admin/workorders/${workOrder.id}`);
    await page.getByRole('button', { name: 'Schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule Appointment' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Date')).toBeFocused();
    const submit = dialog.getByRole('button', { name: 'Schedule' });
    await expect(submit).toBeDisabled();
    await expect(dialog.getByLabel('Duration')).toHaveValue('2');
    await expect(dialog.getByLabel('Duration').locator('option')).toHaveText(['1 hour', '2 hours', '3 hours', '4 hours', 'Full day']);
    await expect(dialog.getByLabel('Start Time').locator('option')).toHaveText(['Select a time', '8:00 AM', '9:00 AM', '10:00 AM', '11:00 AM', '1:00 PM', '2:00 PM', '3:00 PM', '4:00 PM']);
    await expectNoSeriousA11yViolations(page);

    const tomorrow = new Date(`${todayIn('UTC')}T12:00:00Z`);
    tomorrow.setUTCDate(tomorrow.getUTCDate() + 2);
    await dialog.getByLabel('Date').fill(tomorrow.toISOString().slice(0, 10));
    await expect(submit).toBeDisabled();
    await dialog.getByLabel('Start Time').selectOption({ label: '9:00 AM' });
    await expect(dialog.getByText('Ends at 11:00 AM')).toBeVisible();
    await dialog.getByLabel('Duration').selectOption('3');
    await expect(dialog.getByText('Ends at 12:00 PM')).toBeVisible();
    await expect(submit).toBeEnabled();
    await dialog.getByLabel('Special Instructions').fill('Gate code 1234');
    await submit.click();

    await expect(dialog).toBeHidden();
    await expect(page.getByText(workOrderMessages.scheduled)).toBeVisible();
    await expect(header(page)).toContainText('Scheduled');
    await expect(page.getByText('Gate code 1234')).toBeVisible();
    await expect(page.getByText('3 hours', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Schedule' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Start Job' })).toBeVisible();
  });

  test('detail: Cancel Work Order asks first', async ({ page }) => {
    const workOrder = await createWorkOrder(page.request);
    await page.goto(`/admin/workorders/${workOrder.id}`);
    await page.getByRole('button', { name: 'Cancel Work Order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this work order?' });
    await expect(dialog.getByRole('button', { name: 'Cancel', exact: true })).toBeFocused();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(header(page)).toContainText('Pending');

    await page.getByRole('button', { name: 'Cancel Work Order' }).click();
    await dialog.getByRole('button', { name: 'Cancel Work Order' }).click();
    await expect(dialog).toBeHidden();
    await expect(header(page)).toContainText('Cancelled');
    await expect(page.getByRole('button', { name: 'Start Job' })).toHaveCount(0);
  });

  test('detail: a stale status change shows the conflict and refreshes', async ({ page }) => {
    // Without live updates (a dropped stream), the screen keeps the copy it loaded.
    await page.route('**/api/admin/events', (route) => route.abort());
    const workOrder = await createWorkOrder(page.request);
    await page.goto(`/admin/workorders/${workOrder.id}`);
    await expect(header(page)).toContainText('Pending');
    // Someone else starts the job meanwhile.
    const detail = (await (await page.request.get(`/api/admin/work-orders/${workOrder.id}`)).json()) as { workOrder: { updatedAt: string } };
    const response = await page.request.post(`/api/admin/work-orders/${workOrder.id}/status`, {
      data: { status: 'in-progress', expectedUpdatedAt: detail.workOrder.updatedAt },
    });
    expect(response.ok(), await response.text()).toBe(true);
    await page.getByRole('button', { name: 'Cancel Work Order' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel Work Order' }).click();
    await expect(page.getByText(workOrderMessages.conflict)).toBeVisible();
    await expect(header(page)).toContainText('In Progress');
  });

  test('detail: Edit Details changes the title, priority and service type', async ({ page }) => {
    const workOrder = await createWorkOrder(page.request);
    const title = unique('Edited job');
    await page.goto(`/admin/workorders/${workOrder.id}`);
    await page.getByRole('button', { name: 'Edit Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Work Order Details' });
    await expect(field(dialog, 'Title')).toHaveValue(workOrder.title);
    await expect(field(dialog, 'Title')).toBeFocused();
    await field(dialog, 'Title').fill('');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog.getByText('Title is required')).toBeVisible();
    await expect(field(dialog, 'Title')).toBeFocused();
    await field(dialog, 'Title').fill(title);
    await field(dialog, 'Priority').selectOption({ label: 'High' });
    await field(dialog, 'Service Type').selectOption('maintenance');
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(workOrderMessages.updated)).toBeVisible();
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(header(page)).toContainText('High priority');
    await page.reload();
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  });

  test("detail: Edit Details shows someone else's save instead of overwriting it", async ({ page }) => {
    const workOrder = await createWorkOrder(page.request);
    await page.goto(`/admin/workorders/${workOrder.id}`);
    await page.getByRole('button', { name: 'Edit Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Work Order Details' });
    await field(dialog, 'Title').fill('My title');
    // A colleague saves a new title meanwhile.
    const detail = (await (await page.request.get(`/api/admin/work-orders/${workOrder.id}`)).json()) as { workOrder: Record<string, unknown> };
    const { title: _title, updatedAt, ...rest } = detail.workOrder;
    const theirs = await page.request.put(`/api/admin/work-orders/${workOrder.id}`, {
      data: {
        title: 'Their title',
        serviceType: rest.serviceType,
        priority: rest.priority,
        serviceDate: rest.serviceDate,
        timePreference: rest.timePreference,
        description: rest.description,
        technicianId: null,
        equipmentId: null,
        expectedUpdatedAt: updatedAt,
      },
    });
    expect(theirs.ok(), await theirs.text()).toBe(true);
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog.getByText(workOrderMessages.conflict)).toBeVisible();
    await expect(dialog.getByText('Title: Their title')).toBeVisible();
    await expect(field(dialog, 'Title')).toHaveValue('My title');
    // Saving again, now knowingly, replaces their title.
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { name: 'My title', level: 1 })).toBeVisible();
  });

  test('detail: technical notes are added, edited and kept after reload', async ({ page }) => {
    const workOrder = await createWorkOrder(page.request);
    await page.goto(`/admin/workorders/${workOrder.id}`);
    await page.getByRole('button', { name: 'Add Notes' }).click();
    await expect(page.getByLabel('Notes', { exact: true })).toBeFocused();
    await page.getByLabel('Notes', { exact: true }).fill('Capacitor reads 30 µF.');
    await page.getByRole('button', { name: 'Save Notes' }).click();
    // Saved (the editor closed on the server's answer) before the reload, which would cancel the request.
    await expect(page.getByRole('button', { name: 'Edit Notes' })).toBeVisible();
    await expect(page.getByText('Capacitor reads 30 µF.')).toBeVisible();
    await page.reload();
    await expect(page.getByText('Capacitor reads 30 µF.')).toBeVisible();

    await page.getByRole('button', { name: 'Edit Notes' }).click();
    await expect(page.getByLabel('Notes', { exact: true })).toHaveValue('Capacitor reads 30 µF.');
    await page.getByLabel('Notes', { exact: true }).fill('Replaced the capacitor.');
    await page.getByRole('button', { name: 'Save Notes' }).click();
    await expect(page.getByRole('button', { name: 'Edit Notes' })).toBeVisible();
    await page.reload();
    await expect(page.getByText('Replaced the capacitor.')).toBeVisible();
  });

  test('detail: tasks and an inspection report are recorded', async ({ page }) => {
    const workOrder = await createWorkOrder(page.request);
    await page.goto(`/admin/workorders/${workOrder.id}`);
    await page.getByLabel('New task').fill('Check refrigerant charge');
    await page.getByRole('button', { name: 'Add Task' }).click();
    await expect(page.getByText('0 of 1 completed')).toBeVisible();
    await page.getByLabel('Check refrigerant charge').check();
    await expect(page.getByText('1 of 1 completed')).toBeVisible();

    await page.getByRole('button', { name: 'Record Inspection Report' }).click();
    await page.getByLabel('MCA (A)').fill('18.5');
    await page.getByLabel('Temp split (°F)').fill('19');
    await page.getByLabel('Static pressure (in. WC)').fill('0.5');
    await page.getByLabel('Inspection items').fill('Filter replaced, Coils cleaned');
    await page.getByRole('button', { name: 'Save Inspection Report' }).click();
    const report = page.getByRole('region', { name: 'Inspection Report' });
    await expect(report).toContainText('18.5');
    await expect(report).toContainText('19°F');
    await expect(report).toContainText('0.5 in. WC');
    await expect(report.getByRole('list', { name: 'Inspection items' })).toContainText('Filter replaced');
  });

  test('an unknown work order shows Work Order Not Found with a way back', async ({ page }) => {
    await page.goto('/admin/workorders/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { name: workOrderMessages.notFound })).toBeVisible();
    await page.getByRole('link', { name: 'Back to List' }).click();
    await expect(page).toHaveURL(/\/admin\/workorders$/);
  });

  test('fits a phone screen', async ({ page }) => {
    const workOrder = await createWorkOrder(page.request);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/admin/workorders', '/admin/workorders/new', `/admin/workorders/${workOrder.id}`]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});
