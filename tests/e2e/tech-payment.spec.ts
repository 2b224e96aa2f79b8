import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { formatCents } from '#shared/money.ts';
import { techMessages } from '#shared/tech.ts';
import { e2eAdmin, expectNoSeriousA11yViolations, signIn, signInToTechApp } from './fixtures.ts';

/**
 * A payment on site (issue 20, decision 025-a) on a phone: the office issues the invoice of a job
 * assigned to a technician; the technician opens the visit, loses the network, records the cash
 * the customer hands over (kept on the phone, shown as waiting), and once back online the office's
 * invoice screen shows it paid, by that technician. A payment the office overtook is refused with
 * the balance, kept with what was typed, corrected in the form and sent again.
 */

test.use({ viewport: { width: 390, height: 844 }, timezoneId: 'America/New_York' });

const technicianPassword = 'attic crawl space mechanical room';
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const login = await api.post('/api/auth/login', { data: e2eAdmin });
  expect(login.status(), await login.text()).toBe(200);
  return api;
}

type InvoicedJob = { technicianName: string; email: string; workOrderId: string; title: string; invoiceId: string; invoiceNumber: string };

/** A technician and their sign-in, a job for today assigned to them, and the job's invoice issued by the office. */
async function invoicedJob(admin: APIRequestContext, totalCents: number): Promise<InvoicedJob> {
  const technicianName = unique('Cass Collect');
  const technician = await admin.post('/api/admin/settings/technicians', { data: { name: technicianName, color: '#0f766e' } });
  expect(technician.status(), await technician.text()).toBe(201);
  const technicianId = ((await technician.json()) as { technician: { id: string } }).technician.id;
  const email = `${technicianName.toLowerCase().replace(/\W+/g, '.')}@example.com`;
  const staff = await admin.post('/api/admin/settings/staff', { data: { email, name: technicianName, role: 'technician', technicianId, setup: 'password', password: technicianPassword } });
  expect(staff.status(), await staff.text()).toBe(201);

  const customer = await admin.post('/api/admin/customers', {
    data: { name: unique('Pat Payer'), phone: '(843) 555-0163', address: '4 Sweetgrass Way', city: 'Bluffton', state: 'SC', zip: '29910', type: 'residential' },
  });
  expect(customer.status(), await customer.text()).toBe(201);
  const customerId = ((await customer.json()) as { customer: { id: string } }).customer.id;
  const title = unique('Capacitor replacement');
  const workOrder = await admin.post('/api/admin/work-orders', { data: { customerId, title, description: 'Outdoor unit hums, fan does not start.', technicianId, startTime: '08:00', endTime: '10:00' } });
  expect(workOrder.status(), await workOrder.text()).toBe(201);
  const workOrderId = ((await workOrder.json()) as { workOrder: { id: string } }).workOrder.id;

  const draft = await admin.post('/api/admin/invoices', { data: { customerId, workOrderId, lines: [{ name: 'Capacitor 45/5 MFD, installed', quantityMilli: 1000, unitPriceCents: totalCents }] } });
  expect(draft.status(), await draft.text()).toBe(201);
  const invoiceId = ((await draft.json()) as { invoice: { id: string } }).invoice.id;
  const issued = await admin.post(`/api/admin/invoices/${invoiceId}/issue`);
  expect(issued.status(), await issued.text()).toBe(200);
  const invoiceNumber = ((await issued.json()) as { invoice: { invoiceNumber: string } }).invoice.invoiceNumber;
  return { technicianName, email, workOrderId, title, invoiceId, invoiceNumber };
}

test('a technician records a cash payment offline; back online, the office’s invoice shows it paid', async ({ page, context, baseURL, browser }) => {
  const admin = await adminApi(baseURL!);
  const job = await invoicedJob(admin, 24_550);
  await signInToTechApp(page, job.email, technicianPassword);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await page.getByRole('link', { name: new RegExp(job.title) }).first().click();
  await expect(page.getByRole('heading', { name: job.title, level: 1 })).toBeVisible();
  const payment = page.getByRole('region', { name: 'Payment' });
  await expect(payment.getByTestId('visit-invoice')).toContainText(`Invoice ${job.invoiceNumber}`);
  await expect(payment.getByTestId('invoice-balance')).toHaveText('$245.50');

  // No network at all: the visit (and what is owed) opens from the phone.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await expect(payment.getByTestId('invoice-balance')).toHaveText('$245.50');

  await payment.getByRole('button', { name: 'Record payment' }).click();
  const form = page.getByRole('form', { name: 'Record payment' });
  await expect(form.getByLabel('Amount ($)')).toBeFocused();
  await expect(form.getByLabel('Amount ($)')).toHaveValue('245.50');
  await expect(form.getByRole('radio', { name: 'Cash' })).toBeChecked();
  // More than is owed: refused on the phone, the field marked and the error announced.
  await form.getByLabel('Amount ($)').fill('300');
  await form.getByRole('button', { name: 'Record payment' }).click();
  await expect(form.getByRole('alert')).toContainText('At most the balance due, $245.50');
  await expect(form.getByLabel('Amount ($)')).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousA11yViolations(page);

  await form.getByLabel('Amount ($)').fill('245.50');
  await form.getByLabel('Note').fill('Paid in cash at the door.');
  await form.getByRole('button', { name: 'Record payment' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Cash payment of $245.50 on ${job.invoiceNumber} recorded.` })).toBeVisible();
  await expect(payment.getByTestId('pending-payment')).toHaveText(`Cash payment of $245.50 on ${job.invoiceNumber}: waiting to sync`);
  await expect(page.getByTestId('waiting-to-sync')).toHaveText(techMessages.waitingToSync(1));
  // Nothing more to collect on the phone while it waits: no second payment of the same money.
  await expect(payment.getByRole('button', { name: 'Record payment' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  // Back online: sent once, and the visit shows the office's figures.
  await context.setOffline(false);
  await expect(page.getByTestId('waiting-to-sync')).toHaveCount(0, { timeout: 30_000 });
  await expect(payment.getByTestId('pending-payment')).toHaveCount(0);
  await expect(payment.getByTestId('invoice-balance')).toHaveText('$0.00');
  await expect(payment.getByTestId('visit-invoice')).toContainText('Paid');

  // The office: the invoice is paid, in cash, by the technician.
  const office = await browser.newContext({ baseURL: baseURL!, viewport: { width: 1280, height: 800 }, timezoneId: 'America/New_York' });
  try {
    const officePage = await office.newPage();
    await signIn(officePage);
    await officePage.goto(`/admin/invoices/${job.invoiceId}`);
    await expect(officePage.getByRole('heading', { level: 1, name: `Invoice ${job.invoiceNumber}` })).toBeVisible();
    await expect(officePage.getByText('Paid', { exact: true }).first()).toBeVisible();
    await expect(officePage.getByTestId('document-balance')).toHaveText(formatCents(0));
    const payments = officePage.getByRole('listitem').filter({ hasText: 'Cash' }).filter({ hasText: job.technicianName });
    await expect(payments).toHaveCount(1);
    await expect(payments).toContainText('Cash');
    await expect(payments).toContainText('$245.50');
  } finally {
    await office.close();
  }
  // One payment, however the phone's queue was sent.
  const detail = (await (await admin.get(`/api/admin/invoices/${job.invoiceId}`)).json()) as { payments: { method: string; amountCents: number; recordedByName: string }[] };
  expect(detail.payments).toEqual([expect.objectContaining({ method: 'cash', amountCents: 24_550, recordedByName: job.technicianName })]);
  await admin.dispose();
});

test('a payment the office overtook is refused with the balance; the technician corrects what they typed and sends it again', async ({ page, context, baseURL }) => {
  const admin = await adminApi(baseURL!);
  const job = await invoicedJob(admin, 24_550);
  await signInToTechApp(page, job.email, technicianPassword);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await page.getByRole('link', { name: new RegExp(job.title) }).first().click();
  const payment = page.getByRole('region', { name: 'Payment' });
  await expect(payment.getByTestId('invoice-balance')).toHaveText('$245.50');

  // Offline, the customer pays $100.00 by check.
  await context.setOffline(true);
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await payment.getByRole('button', { name: 'Record payment' }).click();
  const form = page.getByRole('form', { name: 'Record payment' });
  await form.getByRole('radio', { name: 'Check' }).check();
  await form.getByLabel('Amount ($)').fill('100');
  await form.getByRole('button', { name: 'Record payment' }).click();
  // A check needs its number: said on the field and announced.
  await expect(form.getByRole('alert')).toContainText('Enter the check number');
  await expect(form.getByLabel('Check number')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Check number').fill('5521');
  await form.getByLabel('Note').fill('Post-dated, see office.');
  await form.getByRole('button', { name: 'Record payment' }).click();
  await expect(payment.getByTestId('pending-payment')).toHaveText(`Check #5521 payment of $100.00 on ${job.invoiceNumber}: waiting to sync`);

  // Meanwhile the office records $200.00 by card on the same invoice: $45.50 is left.
  const office = await admin.post(`/api/admin/invoices/${job.invoiceId}/payments`, {
    data: { method: 'card', amountCents: 20_000, receivedOn: ((await (await admin.get('/api/admin/invoices/summary')).json()) as { today: string }).today },
  });
  expect(office.status(), await office.text()).toBe(201);

  await context.setOffline(false);
  const issues = page.getByRole('region', { name: 'Needs your choice' });
  await expect(issues).toContainText(`Not accepted: Check #5521 payment of $100.00 on ${job.invoiceNumber}. That is more than the balance due ($45.50).`);
  await expect(issues).toContainText('Note: Post-dated, see office.');
  await expect(payment.getByTestId('invoice-balance')).toHaveText('$45.50');
  await expectNoSeriousA11yViolations(page);

  // What was typed comes back in the form, to correct.
  await issues.getByRole('button', { name: 'Correct the payment' }).click();
  const correction = page.getByRole('form', { name: 'Record payment' });
  await expect(correction.getByLabel('Amount ($)')).toBeFocused();
  await expect(correction.getByLabel('Amount ($)')).toHaveValue('100.00');
  await expect(correction.getByRole('radio', { name: 'Check' })).toBeChecked();
  await expect(correction.getByLabel('Check number')).toHaveValue('5521');
  await expect(correction.getByLabel('Note')).toHaveValue('Post-dated, see office.');
  await correction.getByLabel('Amount ($)').fill('45.50');
  await correction.getByRole('button', { name: 'Send again' }).click();

  await expect(page.getByTestId('waiting-to-sync')).toHaveCount(0, { timeout: 30_000 });
  await expect(issues).toHaveCount(0);
  await expect(payment.getByTestId('invoice-balance')).toHaveText('$0.00');
  const detail = (await (await admin.get(`/api/admin/invoices/${job.invoiceId}`)).json()) as { invoice: { status: string }; payments: { method: string; amountCents: number; reference: string }[] };
  expect(detail.invoice.status).toBe('paid');
  expect(detail.payments.map((row) => [row.method, row.amountCents, row.reference])).toEqual([
    ['card', 20_000, ''],
    ['check', 4550, '5521'],
  ]);
  await admin.dispose();
});
