import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { calendarMessages } from '#shared/calendar.ts';
import { workOrderMessages, type WorkOrder } from '#shared/work-order.ts';
import { workOrderPlaceMessages } from '#shared/work-order-place.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// Decision 018-a, follow-up: a staff member sets a work order's service address in Edit Details,
// and the list card and the calendar's appointment modal then say the job is there, not at the
// customer's address on file. Each run works on its own customer, on a random far-off weekday.

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A random Monday-to-Friday date in 2035-2044, away from the demo data. */
function farWeekday(): string {
  const date = new Date(Date.UTC(2035, 0, 1) + Math.floor(Math.random() * 3650) * 86_400_000);
  while (date.getUTCDay() === 0 || date.getUTCDay() === 6) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

async function createAppointment(request: APIRequestContext, serviceDate: string) {
  const customerResponse = await request.post('/api/admin/customers', {
    data: { name: unique('Landlord'), phone: '(843) 555-0190', address: '1 Owner Lane', city: 'Bluffton', state: 'SC', zip: '29910', type: 'residential' },
  });
  expect(customerResponse.status(), await customerResponse.text()).toBe(201);
  const { customer } = (await customerResponse.json()) as { customer: { id: string; name: string } };
  const title = unique('Rental AC');
  const response = await request.post('/api/admin/work-orders', {
    data: { customerId: customer.id, title, description: 'Tenant reports no cooling.', serviceDate, startTime: '09:00', endTime: '10:00' },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { workOrder: ((await response.json()) as { workOrder: WorkOrder }).workOrder, customer, title };
}

/** A labelled control; required labels end in an asterisk hidden from screen readers. */
const field = (scope: Page | Locator, label: string) => scope.getByLabel(new RegExp(`^${label.replace(/[()]/g, '\\$&')}( \\*)?$`));

test('a service address set in Edit Details is where the list card and the calendar say the job is', async ({ page }) => {
  await signIn(page);
  const date = farWeekday();
  const { workOrder, title } = await createAppointment(page.request, date);

  await page.goto(`/admin/workorders/${workOrder.id}`);
  await page.getByRole('button', { name: 'Edit Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Work Order Details' });
  await expect(dialog.getByRole('group', { name: workOrderPlaceMessages.serviceAddress })).toBeVisible();

  // Part of an address is refused with the field named.
  await field(dialog, 'Service Street Address').fill('415 Marsh Tacky Rd');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog.getByText(workOrderPlaceMessages.incomplete).first()).toBeVisible();
  await expect(field(dialog, 'Service City')).toBeFocused();

  await field(dialog, 'Service City').fill('Okatie');
  await field(dialog, 'Service State').fill('sc');
  await field(dialog, 'Service ZIP').fill('29909');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(workOrderMessages.updated)).toBeVisible();
  const serviceDetails = page.getByRole('region', { name: 'Service Details' });
  await expect(serviceDetails).toContainText('415 Marsh Tacky Rd, Okatie, SC 29909');

  // The list card (a search result) says where the job is.
  await page.goto(`/admin/workorders?search=${encodeURIComponent(title)}`);
  const card = page.getByRole('list', { name: 'Work orders' }).getByRole('listitem').filter({ hasText: title });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(`${workOrderPlaceMessages.serviceAddress}415 Marsh Tacky Rd, Okatie, SC 29909`);
  await expect(card).not.toContainText('1 Owner Lane');

  // The calendar's appointment modal too.
  await page.goto(`/admin/calendar?date=${date}`);
  await expect(page.getByRole('heading', { name: calendarMessages.title, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: new RegExp(title) }).click();
  const modal = page.getByRole('dialog', { name: title });
  await expect(modal.getByTestId('event-address')).toContainText('415 Marsh Tacky Rd, Okatie, SC 29909');
  await expect(modal.getByTestId('event-address')).toContainText(workOrderPlaceMessages.serviceAddress);
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();

  // Cleared, the job is at the customer's address again.
  await page.goto(`/admin/workorders/${workOrder.id}`);
  await page.getByRole('button', { name: 'Edit Details' }).click();
  await dialog.getByRole('button', { name: 'Clear service address' }).click();
  await expect(field(dialog, 'Service Street Address')).toHaveValue('');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(serviceDetails).not.toContainText('Marsh Tacky');
  await page.goto(`/admin/workorders?search=${encodeURIComponent(title)}`);
  await expect(card).toContainText('Address1 Owner Lane');
});

test("the map's property becomes the new work order's service address unless it is the customer's own", async ({ page }) => {
  await signIn(page);
  const { customer } = await createAppointment(page.request, farWeekday());
  const created = async (query: Record<string, string>) => {
    const title = unique('From the map');
    await page.goto(`/admin/workorders/new?${new URLSearchParams({ customer: customer.id, ...query })}`);
    await expect(page.getByText(customer.name).first()).toBeVisible();
    await field(page, 'Title').fill(title);
    await field(page, 'Description (Required)').fill('Seen on the service map.');
    await page.getByRole('button', { name: 'Create Work Order' }).click();
    await expect(page.getByText(workOrderMessages.created)).toBeVisible();
    const response = await page.request.get(`/api/admin/work-orders?${new URLSearchParams({ search: title })}`);
    const [item] = ((await response.json()) as { workOrders: { serviceAddress: string | null; serviceCity: string | null; serviceZip: string | null }[] }).workOrders;
    return item;
  };

  // Another house: the form starts with it as the service address, and it is stored.
  expect(await created({ address: '7 Tenant Way', city: 'Okatie', state: 'SC', zip: '29909' })).toMatchObject({
    serviceAddress: '7 Tenant Way',
    serviceCity: 'Okatie',
    serviceZip: '29909',
  });
  // The customer's own address on file: the job is at the customer's, nothing stored.
  expect(await created({ address: '1 Owner Lane', city: 'Bluffton', state: 'SC', zip: '29910' })).toMatchObject({ serviceAddress: null });
});
