import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { png } from '#tests/support/images.ts';
import { e2eAdmin, expectNoSeriousA11yViolations, outboxMailsMentioning, signIn } from './fixtures.ts';

/**
 * The office side of the technician app (issue 19, decision 022-a "Office side"): an admin makes a
 * technician account for a technician record in Settings → Staff accounts; a visit done through the
 * /api/tech API shows on the work-order screen with its completion, signature, the technician's
 * note and every step with who and when.
 */

test.use({ timezoneId: 'America/New_York' });

const technicianPassword = 'attic crawl space mechanical room';
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function apiAs(baseURL: string, credentials: { email: string; password: string }): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const login = await api.post('/api/auth/login', { data: credentials });
  expect(login.status(), await login.text()).toBe(200);
  return api;
}

async function newTechnician(admin: APIRequestContext, name: string): Promise<string> {
  const technician = await admin.post('/api/admin/settings/technicians', { data: { name, color: '#0f766e' } });
  expect(technician.status(), await technician.text()).toBe(201);
  return ((await technician.json()) as { technician: { id: string } }).technician.id;
}

test.describe('the office side of the technician app', () => {
  test('an admin adds a technician account choosing its technician; the invite is sent and the list shows the technician', async ({ page, baseURL }) => {
    const admin = await apiAs(baseURL!, e2eAdmin);
    const technicianName = unique('Rory Field');
    await newTechnician(admin, technicianName);
    const email = `${technicianName.toLowerCase().replace(/\W+/g, '.')}@example.com`;

    await signIn(page);
    await page.goto('/admin/settings?tab=staff');
    await expect(page.getByRole('heading', { name: 'Staff accounts' })).toBeVisible();
    await page.getByRole('button', { name: 'Add staff member' }).click();
    const form = page.getByRole('region', { name: 'Add staff member' });
    await form.getByLabel('Name').fill(technicianName);
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Role').selectOption('technician');

    // Without the technician: refused on the spot, the field named and announced.
    await form.getByRole('button', { name: 'Add and send invite link' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Choose the technician this account is.' })).toBeAttached();
    const technicianSelect = form.getByRole('combobox', { name: /^Technician/ });
    await expect(technicianSelect).toBeFocused();
    await expectNoSeriousA11yViolations(page);

    await technicianSelect.selectOption({ label: technicianName });
    await form.getByRole('button', { name: 'Add and send invite link' }).click();
    await expect(page.getByRole('status').filter({ hasText: `${technicianName} was added` })).toBeVisible();
    await expect.poll(() => outboxMailsMentioning(email).length).toBeGreaterThan(0);

    const row = page.getByRole('listitem').filter({ hasText: email });
    await expect(row.getByText('Technician', { exact: true })).toBeVisible();
    await expect(row).toContainText(`Technician: ${technicianName}`);

    // The technician is now this account's: another account cannot take it (marked in the picker).
    await page.getByRole('button', { name: 'Add staff member' }).click();
    await form.getByLabel('Role').selectOption('technician');
    await expect(form.getByRole('option', { name: `${technicianName} (already ${technicianName}'s account)` })).toBeDisabled();
    await form.getByRole('button', { name: 'Cancel' }).click();

    // Change role opens a dialog with the same choice.
    await row.getByRole('button', { name: 'Change role' }).click();
    const dialog = page.getByRole('dialog', { name: `Change ${technicianName}'s role` });
    await dialog.getByLabel('Role').selectOption('technician');
    await expect(dialog.getByRole('combobox', { name: /^Technician/ })).toHaveValue(/.+/);
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await admin.dispose();
  });

  test('a visit completed through the technician app shows its completion, signature, note and steps on the work order', async ({ page, baseURL }) => {
    const admin = await apiAs(baseURL!, e2eAdmin);
    const technicianName = unique('Tess Tech');
    const technicianId = await newTechnician(admin, technicianName);
    const email = `${technicianName.toLowerCase().replace(/\W+/g, '.')}@example.com`;
    const staff = await admin.post('/api/admin/settings/staff', { data: { email, name: technicianName, role: 'technician', technicianId, setup: 'password', password: technicianPassword } });
    expect(staff.status(), await staff.text()).toBe(201);
    const customer = await admin.post('/api/admin/customers', {
      data: { name: unique('Dana Field'), phone: '(843) 555-0142', address: '12 Marsh Hen Lane', city: 'Bluffton', state: 'SC', zip: '29910', type: 'residential' },
    });
    expect(customer.status(), await customer.text()).toBe(201);
    const customerId = ((await customer.json()) as { customer: { id: string } }).customer.id;
    const title = unique('AC not cooling');
    const workOrder = await admin.post('/api/admin/work-orders', { data: { customerId, title, description: 'Upstairs unit blows warm air.', technicianId } });
    expect(workOrder.status(), await workOrder.text()).toBe(201);
    const workOrderId = ((await workOrder.json()) as { workOrder: { id: string } }).workOrder.id;

    // The technician, through the app's API.
    const tech = await apiAs(baseURL!, { email, password: technicianPassword });
    const act = async (action: Record<string, unknown>) => {
      const visit = await tech.get(`/api/tech/visits/${workOrderId}`);
      expect(visit.status(), await visit.text()).toBe(200);
      const { updatedAt } = ((await visit.json()) as { visit: { updatedAt: string } }).visit;
      const response = await tech.post(`/api/tech/visits/${workOrderId}/actions`, {
        data: { idempotencyKey: crypto.randomUUID(), baseUpdatedAt: updatedAt, takenAt: new Date().toISOString(), ...action },
      });
      expect(response.status(), await response.text()).toBe(200);
    };
    const signature = `data:image/png;base64,${(await png(480, 160)).toString('base64')}`;
    await act({ kind: 'en-route' });
    await act({ kind: 'on-site' });
    await act({ kind: 'note', text: 'Breaker had tripped; reset it.' });
    await act({
      kind: 'complete',
      summary: 'Replaced the run capacitor.',
      materials: [{ description: 'Run capacitor 45/5', quantity: 1 }],
      signerName: 'Dana Field',
      signature,
      followUp: { note: 'Quote a new condenser fan motor.' },
    });
    await tech.dispose();

    await signIn(page);
    await page.goto(`/admin/workorders/${workOrderId}`);
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    const completion = page.getByRole('region', { name: 'Completion' });
    await expect(completion).toContainText('Replaced the run capacitor.');
    await expect(completion).toContainText(`Completed by ${technicianName}`);
    await expect(completion).toContainText('Quote a new condenser fan motor.');
    await expect(completion.getByRole('list', { name: 'Materials used' }).getByRole('listitem')).toHaveText(['1 × Run capacitor 45/5']);
    const image = completion.getByRole('img', { name: 'Signature of Dana Field' });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    const notes = page.getByRole('region', { name: 'Technician notes' });
    await expect(notes).toContainText('Breaker had tripped; reset it.');
    await expect(notes).toContainText(technicianName);

    const steps = page.getByRole('list', { name: 'Steps' }).getByRole('listitem');
    await expect(steps).toHaveCount(5);
    await expect(steps.nth(0)).toContainText('Created — ');
    await expect(steps.nth(1)).toContainText(`Marked en route — ${technicianName}`);
    await expect(steps.nth(2)).toContainText(`Arrived on site — ${technicianName}`);
    await expect(steps.nth(3)).toContainText(`Note added — ${technicianName}`);
    await expect(steps.nth(4)).toContainText(`Completed — ${technicianName}`);
    // The existing timeline facts still read.
    await expect(page.getByRole('list', { name: 'Timeline' }).getByRole('listitem').filter({ hasText: 'Completed' })).not.toContainText('Not yet');
    await expectNoSeriousA11yViolations(page);

    // The follow-up notification opens this work order.
    await page.goto('/admin');
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await page.getByRole('button', { name: new RegExp(`Follow-up needed: .*From the field: ${technicianName}`) }).first().click();
    await expect(page).toHaveURL(new RegExp(`/admin/workorders/${workOrderId}$`));
    await admin.dispose();
  });
});
