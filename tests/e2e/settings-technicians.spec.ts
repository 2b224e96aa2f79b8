import { expect, test } from '@playwright/test';
import type { TechnicianSettingsItem } from '#shared/technician.ts';
import type { WorkOrder } from '#shared/work-order.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// Settings → Technicians (issue 10): a technician added with a colour shows in that colour on the
// calendar; a new colour reaches the calendar; each change is in the activity log.

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A random weekday in 2045-2054, away from the demo data and the calendar suite's dates. */
function farDate(): string {
  const date = new Date(Date.UTC(2045, 0, 1) + Math.floor(Math.random() * 3650) * 86_400_000);
  if (date.getUTCDay() === 6) date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

/** The colour a browser reports for #rrggbb. */
function rgb(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`;
}

test('adds a technician with a colour and sees their appointment in it on the calendar', async ({ page }) => {
  await signIn(page);
  const name = unique('Tess Tech');
  const firstColor = '#a21caf';
  const secondColor = '#0e7490';

  await page.goto('/admin/settings?tab=technicians');
  const form = page.getByRole('form', { name: 'Add a technician' });
  await form.getByLabel('Name').fill(name);
  // The colour by keyboard: the hex field (the picker beside it follows).
  await form.getByRole('textbox', { name: 'Colour', exact: true }).fill(firstColor);
  await form.getByRole('button', { name: 'Add technician' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${name} was added.` })).toBeVisible();
  const row = page.getByRole('listitem', { name });
  await expect(row.getByText('Active')).toBeVisible();
  await expect(row.getByText(firstColor)).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // A work order with a time for the new technician (set up through the API, as staff would on the calendar).
  const technicians = (await (await page.request.get('/api/admin/settings/technicians')).json()) as { technicians: TechnicianSettingsItem[] };
  const technician = technicians.technicians.find((candidate) => candidate.name === name)!;
  const customer = await page.request.post('/api/admin/customers', {
    data: { name: unique('Tech Customer'), phone: '(843) 555-0177', address: '3 Colour Ct', city: 'Bluffton', state: 'SC', type: 'residential' },
  });
  expect(customer.status()).toBe(201);
  const date = farDate();
  const title = unique('Coloured job');
  const response = await page.request.post('/api/admin/work-orders', {
    data: {
      customerId: ((await customer.json()) as { customer: { id: string } }).customer.id,
      title,
      description: 'Checks the technician colour on the calendar.',
      priority: 'normal',
      serviceDate: date,
      startTime: '10:00',
      endTime: '11:00',
      technicianId: technician.id,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const workOrder = ((await response.json()) as { workOrder: WorkOrder }).workOrder;

  await page.goto(`/admin/calendar?date=${date}`);
  const event = page.getByRole('button', { name: new RegExp(title) });
  await expect(event).toBeVisible();
  await expect(event).toHaveCSS('background-color', rgb(firstColor));
  await expect(page.getByRole('list', { name: 'Legend' }).getByText(name)).toBeVisible();

  // A new colour in settings reaches the calendar.
  await page.goto('/admin/settings?tab=technicians');
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('form', { name: `Edit ${name}` });
  await edit.getByRole('textbox', { name: 'Colour', exact: true }).fill(secondColor);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${name} was saved.` })).toBeVisible();
  await page.goto(`/admin/calendar?date=${date}`);
  await expect(page.getByRole('button', { name: new RegExp(title) })).toHaveCSS('background-color', rgb(secondColor));

  // The changes are in the activity log, and the work order's own log names the technician.
  await page.goto(`/admin/settings?tab=activity&entityType=technician&entityId=${technician.id}`);
  const log = page.getByRole('table', { name: /Activity log/ });
  await expect(log.getByRole('row')).toHaveCount(3);
  await expect(log.getByRole('row').nth(1)).toContainText('Updated');
  await expect(log.getByRole('row').nth(1)).toContainText(`${firstColor}`);
  await expect(log.getByRole('row').nth(1)).toContainText(`${secondColor}`);
  await expect(log.getByRole('row').nth(2)).toContainText('Created');
  await expectNoSeriousA11yViolations(page);

  await page.goto(`/admin/workorders/${workOrder.id}`);
  await page.getByRole('link', { name: 'View activity' }).click();
  await expect(page).toHaveURL(new RegExp(`entityType=work_order&entityId=${workOrder.id}`));
  const created = page.getByRole('table', { name: /Activity log/ }).getByRole('row').nth(1);
  await expect(created).toContainText('Created');
  await expect(created).toContainText(`Technician:`);
  await expect(created).toContainText(name);
});

test('deactivating a technician keeps them on their orders and out of the pickers', async ({ page }) => {
  await signIn(page);
  const name = unique('Retiring Tech');
  await page.goto('/admin/settings?tab=technicians');
  const form = page.getByRole('form', { name: 'Add a technician' });
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Add technician' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${name} was added.` })).toBeVisible();

  await page.getByRole('button', { name: `Deactivate ${name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `${name} was deactivated` })).toBeVisible();
  await expect(page.getByRole('listitem', { name }).getByText('Inactive')).toBeVisible();
  const pickers = (await (await page.request.get('/api/admin/technicians?active=true')).json()) as { technicians: { name: string }[] };
  expect(pickers.technicians.map((technician) => technician.name)).not.toContain(name);

  await page.getByRole('button', { name: `Activate ${name}` }).click();
  await expect(page.getByRole('listitem', { name }).getByText('Active', { exact: true })).toBeVisible();

  // A bad colour is refused before it is sent, with the field's message.
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('form', { name: `Edit ${name}` });
  await edit.getByRole('textbox', { name: 'Colour', exact: true }).fill('blue');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('Choose a colour as #rrggbb, for example #2563eb.')).toBeVisible();
  await expect(edit.getByRole('textbox', { name: 'Colour', exact: true })).toHaveAttribute('aria-invalid', 'true');
});
