import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { techMessages } from '#shared/tech.ts';
import { png } from '#tests/support/images.ts';
import { drawSignature, e2eAdmin, expectNoSeriousA11yViolations, signIn, signInToTechApp } from './fixtures.ts';

/**
 * The technician app (issue 19, decision 022-b) on a phone: a technician account and a job made
 * through the office's API, then the whole visit done with no network, synced once back online and
 * checked through the office's API; a conflict with the dispatcher; the back office sends a
 * technician to /tech.
 */

test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'America/New_York' });

const technicianPassword = 'attic crawl space mechanical room';
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

type Job = { workOrderId: string; customerId: string; customerName: string; title: string; taskName: string; email: string };

async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const login = await api.post('/api/auth/login', { data: e2eAdmin });
  expect(login.status(), await login.text()).toBe(200);
  return api;
}

/** A technician record, its sign-in, a customer and a job for today assigned to it, with one task. */
async function technicianWithJob(admin: APIRequestContext): Promise<Job> {
  const name = unique('Tess Tech');
  const technician = await admin.post('/api/admin/settings/technicians', { data: { name, color: '#0f766e' } });
  expect(technician.status(), await technician.text()).toBe(201);
  const technicianId = ((await technician.json()) as { technician: { id: string } }).technician.id;
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`;
  const staff = await admin.post('/api/admin/settings/staff', { data: { email, name, role: 'technician', technicianId, setup: 'password', password: technicianPassword } });
  expect(staff.status(), await staff.text()).toBe(201);

  const customerName = unique('Dana Field');
  const customer = await admin.post('/api/admin/customers', {
    data: { name: customerName, phone: '(843) 555-0142', address: '12 Marsh Hen Lane', city: 'Bluffton', state: 'SC', zip: '29910', type: 'residential' },
  });
  expect(customer.status(), await customer.text()).toBe(201);
  const customerId = ((await customer.json()) as { customer: { id: string } }).customer.id;
  const title = unique('AC not cooling');
  const workOrder = await admin.post('/api/admin/work-orders', {
    data: { customerId, title, description: 'Upstairs unit blows warm air.', technicianId, startTime: '08:00', endTime: '10:00', priority: 'high' },
  });
  expect(workOrder.status(), await workOrder.text()).toBe(201);
  const workOrderId = ((await workOrder.json()) as { workOrder: { id: string } }).workOrder.id;
  const taskName = 'Check the refrigerant charge';
  const task = await admin.post(`/api/admin/work-orders/${workOrderId}/tasks`, { data: { taskName } });
  expect(task.status(), await task.text()).toBe(201);
  return { workOrderId, customerId, customerName, title, taskName, email };
}

/** No session: the sign-in page, then the technician's app. */
const signInAsTechnician = (page: Page, email: string) => signInToTechApp(page, email, technicianPassword);


const waiting = (page: Page) => page.getByTestId('waiting-to-sync');

test.describe('technician app', () => {
  test('a whole visit done offline arrives once, every item, when the phone is back online', async ({ page, context, baseURL }) => {
    const admin = await adminApi(baseURL!);
    const job = await technicianWithJob(admin);
    await signInAsTechnician(page, job.email);

    // My day: the job on top with Navigate and Call, and in today's list.
    const next = page.getByRole('region', { name: 'Next visit' });
    await expect(next).toContainText(job.customerName);
    await expect(next).toContainText('8:00–10:00 AM');
    await expect(next.getByRole('link', { name: /^Navigate/ })).toHaveAttribute('href', /^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=/);
    await expect(next.getByRole('link', { name: /^Call/ })).toHaveAttribute('href', 'tel:8435550142');
    await expect(page.getByRole('region', { name: "Today's visits" }).getByRole('link', { name: new RegExp(job.title) })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The service worker takes the page; then the app opens with no network at all.
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByText('Offline', { exact: true })).toBeVisible();
    await expect(next).toContainText(job.customerName);

    await next.getByRole('link', { name: /^Open visit/ }).click();
    await expect(page.getByRole('heading', { name: job.title, level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'En route', exact: true }).click();
    await expect(page.getByTestId('visit-step')).toContainText('En route since');
    await page.getByRole('button', { name: 'On site', exact: true }).click();
    await expect(page.getByTestId('visit-step')).toContainText('On site since');
    // The box follows the phone's copy (IndexedDB), a moment after the tap.
    await page.getByRole('checkbox', { name: job.taskName }).click();
    await expect(page.getByRole('checkbox', { name: job.taskName })).toBeChecked();
    await page.getByLabel('MCA (A)').fill('18.5');
    await page.getByLabel('Temp split (°F)').fill('19');
    await page.getByLabel('Inspection items').fill('Filter replaced, Coils cleaned');
    await page.getByRole('button', { name: 'Save Inspection Report' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Inspection report saved.' })).toBeVisible();
    await page.getByLabel('New note').fill('Filter was badly clogged.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect(page.getByText('Filter was badly clogged.')).toBeVisible();
    await page.getByLabel('Take a photo').setInputFiles({ name: 'unit.png', mimeType: 'image/png', buffer: await png(640, 480) });
    await page.getByLabel('Take a photo').setInputFiles({ name: 'coil.png', mimeType: 'image/png', buffer: await png(480, 640) });
    await expect(page.getByRole('img', { name: /Photo waiting to upload/ })).toHaveCount(2);

    await page.getByRole('button', { name: 'Work complete' }).click();
    const form = page.getByRole('form', { name: 'Work complete' });
    await form.getByLabel('Summary of the work').fill('Replaced the filter and recharged the system.');
    await form.getByRole('button', { name: 'Add material' }).click();
    await form.getByLabel('Material 1').fill('Filter 16x25x1');
    await form.getByLabel('Quantity 1').fill('2');
    await drawSignature(page, /Customer signature/);
    await form.getByLabel("Signed by (customer's name)").fill(job.customerName);
    await form.getByRole('button', { name: 'Complete the work' }).click();
    await expect(page.getByTestId('visit-step')).toContainText('Work complete');
    await expect(page.getByTestId('completion')).toContainText('Replaced the filter and recharged the system.');
    await expect(page.getByRole('img', { name: `Signature of ${job.customerName}` })).toBeVisible();

    // Six actions and two photos wait on the phone.
    await expect(waiting(page)).toHaveText(techMessages.waitingToSync(8));
    await expectNoSeriousA11yViolations(page);

    await context.setOffline(false);
    await expect(waiting(page)).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByText('Offline', { exact: true })).toHaveCount(0);

    // The office sees each item once.
    const detail = await (await admin.get(`/api/admin/work-orders/${job.workOrderId}`)).json();
    expect(detail.workOrder.status).toBe('completed');
    expect(detail.workOrder.enRouteAt).not.toBeNull();
    expect(detail.tasks.map((task: { status: string }) => task.status)).toEqual(['completed']);
    expect(detail.inspectionReport).toMatchObject({ mca: 18.5, tempSplit: 19, inspectionItems: ['filter_replaced', 'coils_cleaned'] });
    expect(detail.techNotes.map((note: { text: string }) => note.text)).toEqual(['Filter was badly clogged.']);
    expect(detail.completion).toMatchObject({ summary: 'Replaced the filter and recharged the system.', signerName: job.customerName, materials: [{ description: 'Filter 16x25x1', quantity: 2 }] });
    expect(detail.completion.signatureUrl).toBeTruthy();
    const signature = await admin.get(detail.completion.signatureUrl);
    expect(signature.headers()['content-type']).toBe('image/png');
    const profile = await (await admin.get(`/api/admin/customers/${job.customerId}`)).json();
    expect(profile.photos).toHaveLength(2);
    await admin.dispose();
  });

  test('the dispatcher changes the job while the phone is offline: both versions shown, "Keep mine" keeps the technician\'s', async ({ page, context, baseURL }) => {
    const admin = await adminApi(baseURL!);
    const job = await technicianWithJob(admin);
    await signInAsTechnician(page, job.email);
    await page.getByRole('region', { name: 'Next visit' }).getByRole('link', { name: /^Open visit/ }).click();
    await expect(page.getByRole('heading', { name: job.title, level: 1 })).toBeVisible();

    await context.setOffline(true);
    await expect(page.getByText('Offline', { exact: true })).toBeVisible();
    // The box follows the phone's copy (IndexedDB), a moment after the tap.
    await page.getByRole('checkbox', { name: job.taskName }).click();
    await expect(page.getByRole('checkbox', { name: job.taskName })).toBeChecked();
    await expect(waiting(page)).toHaveText(techMessages.waitingToSync(1));

    const before = (await (await admin.get(`/api/admin/work-orders/${job.workOrderId}`)).json()).workOrder;
    const edit = await admin.put(`/api/admin/work-orders/${job.workOrderId}/notes`, { data: { notes: 'Gate code 4821', expectedUpdatedAt: before.updatedAt } });
    expect(edit.status(), await edit.text()).toBe(200);

    await context.setOffline(false);
    const choice = page.getByRole('region', { name: 'Needs your choice' });
    await expect(choice.getByText(techMessages.conflict)).toBeVisible({ timeout: 30_000 });
    await expect(choice.getByText(`Task “${job.taskName}” marked done`)).toBeVisible();
    await expect(choice.getByText('Gate code 4821')).toBeVisible();
    await expect(choice.getByText(`${job.taskName}: not done`)).toBeVisible();
    await expect(waiting(page)).toHaveText(techMessages.waitingToSync(1));
    await expectNoSeriousA11yViolations(page);

    await choice.getByRole('button', { name: 'Keep mine' }).click();
    await expect(choice).toHaveCount(0);
    await expect(waiting(page)).toHaveCount(0);
    const after = await (await admin.get(`/api/admin/work-orders/${job.workOrderId}`)).json();
    expect(after.tasks.map((task: { status: string }) => task.status)).toEqual(['completed']);
    expect(after.workOrder.notes).toBe('Gate code 4821');
    await expect(page.getByText('Gate code 4821')).toBeVisible();
    await admin.dispose();
  });

  test('a technician who opens the back office lands on /tech', async ({ page, baseURL }) => {
    const admin = await adminApi(baseURL!);
    const job = await technicianWithJob(admin);
    await admin.dispose();
    await signInAsTechnician(page, job.email);
    await page.goto('/admin/customers');
    await expect(page).toHaveURL(/\/tech$/);
    await expect(page.getByRole('heading', { name: 'My day', level: 1 })).toBeVisible();
    await page.goto('/admin/login');
    await expect(page).toHaveURL(/\/tech$/);
  });

  test('office staff opening /tech are told it is for technicians and pointed to the office', async ({ page }) => {
    await signIn(page);
    await page.goto('/tech');
    await expect(page.getByRole('alert')).toBeVisible();
    await page.getByRole('link', { name: 'Go to the office' }).click();
    await expect(page).toHaveURL(/\/admin$/);
  });
});
