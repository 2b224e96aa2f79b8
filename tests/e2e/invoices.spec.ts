import { expect, test, type APIRequestContext } from '@playwright/test';
import type { ReceivablesSummary } from '#shared/invoice.ts';
import { formatCents } from '#shared/money.ts';
import type { WorkOrder } from '#shared/work-order.ts';
import { expectNoSeriousA11yViolations, signIn } from './fixtures.ts';

// The office's billing journey against the real server: a completed work order becomes an
// invoice, a line is edited (live totals), the invoice is issued, paid in part in cash and the rest
// by check, and the dashboard's A/R figures move.

const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function completedWorkOrder(request: APIRequestContext) {
  const customerName = unique('Invoice Customer');
  const customer = await request.post('/api/admin/customers', {
    data: { name: customerName, phone: '(843) 555-0177', address: '12 Billing Bluff', city: 'Bluffton', state: 'SC', type: 'residential' },
  });
  expect(customer.status(), await customer.text()).toBe(201);
  const customerId = ((await customer.json()) as { customer: { id: string } }).customer.id;
  const created = await request.post('/api/admin/work-orders', {
    data: { customerId, title: unique('AC not cooling'), description: 'Billing journey.', serviceType: 'repair' },
  });
  expect(created.status(), await created.text()).toBe(201);
  let { workOrder } = (await created.json()) as { workOrder: WorkOrder };
  for (const status of ['in-progress', 'completed'] as const) {
    const moved = await request.post(`/api/admin/work-orders/${workOrder.id}/status`, { data: { status, expectedUpdatedAt: workOrder.updatedAt } });
    expect(moved.status(), await moved.text()).toBe(200);
    workOrder = ((await moved.json()) as { workOrder: WorkOrder }).workOrder;
  }
  return { workOrder, customerName };
}

async function receivables(request: APIRequestContext): Promise<ReceivablesSummary> {
  const response = await request.get('/api/admin/invoices/summary');
  expect(response.ok()).toBe(true);
  return (await response.json()) as ReceivablesSummary;
}

test('a completed work order is invoiced, edited, issued and paid in cash and by check; the dashboard follows', async ({ page }) => {
  // A long journey on a shared two-core machine: it ran 46.8 s against the 45 s limit in CI.
  test.slow();
  await signIn(page);
  const { workOrder, customerName } = await completedWorkOrder(page.request);

  await page.goto(`/admin/workorders/${workOrder.id}`);
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await expect(page).toHaveURL(/\/admin\/invoices\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: `Draft invoice for ${customerName}` })).toBeVisible();

  // Edit the service line: $250.00, 2 of them, 10 % off, then add a taxable part at 6 %.
  await page.getByRole('button', { name: 'Edit lines' }).click();
  const editor = page.getByRole('form', { name: 'Edit lines' });
  await editor.getByLabel('Quantity, line 1').fill('2');
  await editor.getByLabel('Unit price ($), line 1').fill('250');
  await editor.getByLabel('Discount %, line 1').fill('10');
  await expect(editor.getByTestId('editor-total')).toHaveText('$450.00');
  await editor.getByRole('button', { name: 'Add line' }).click();
  await editor.getByLabel('Name, line 2').fill('Capacitor 45/5 MFD');
  await editor.getByLabel('Unit price ($), line 2').fill('50');
  await editor.getByLabel('Taxable, line 2').check();
  await editor.getByLabel('Tax rate %, line 2').fill('6');
  // 450 + 50 + 6 % of 50 = 503.00, computed live by the shared money rule.
  await expect(editor.getByTestId('editor-total')).toHaveText('$503.00');
  await expectNoSeriousA11yViolations(page);
  await editor.getByRole('button', { name: 'Save lines' }).click();
  await expect(page.getByRole('alert').or(page.getByText('Lines saved.'))).toHaveText('Lines saved.');
  const document = page.getByRole('article', { name: 'Invoice Draft as the customer sees it' });
  await expect(document.getByTestId('document-balance')).toHaveText('$503.00');

  const before = await receivables(page.request);

  await page.getByRole('button', { name: 'Issue invoice' }).click();
  await page.getByRole('dialog', { name: 'Issue this invoice?' }).getByRole('button', { name: 'Issue invoice' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Invoice INV-\d{6}$/ })).toBeVisible();
  const number = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').replace('Invoice ', '');
  await expect(page.getByText('Sent', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit lines' })).toHaveCount(0);

  // A partial cash payment.
  await page.getByRole('button', { name: 'Record payment' }).click();
  let dialog = page.getByRole('dialog', { name: 'Record payment' });
  await dialog.getByLabel('Amount ($)').fill('200');
  await dialog.getByRole('button', { name: 'Record payment' }).click();
  await expect(page.getByText('Cash payment of $200.00 recorded.')).toBeVisible();
  await expect(page.getByText('Partially paid', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('document-balance')).toHaveText('$303.00');

  // The rest by check: the check number is required, and the error is announced.
  await page.getByRole('button', { name: 'Record payment' }).click();
  dialog = page.getByRole('dialog', { name: 'Record payment' });
  await expect(dialog.getByLabel('Amount ($)')).toHaveValue('303.00');
  await dialog.getByLabel('Method').selectOption('check');
  await dialog.getByRole('button', { name: 'Record payment' }).click();
  await expect(dialog.getByText('Enter the check number')).toBeVisible();
  await expect(dialog.getByLabel('Check number')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Check number').fill('1043');
  await dialog.getByRole('button', { name: 'Record payment' }).click();
  await expect(page.getByText('Check payment of $303.00 recorded.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: `Invoice ${number}` })).toBeVisible();
  await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId('document-balance')).toHaveText('$0.00');
  await expect(page.getByRole('article', { name: `Invoice ${number} as the customer sees it` }).getByText(/^Check #1043, /)).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The A/R figures: this invoice's $503 came in this month. The figures are shared by every
  // journey, and others running meanwhile only add money (a technician's cash, online payments):
  // at least $503 more than before, and the dashboard shows what the server says.
  const after = await receivables(page.request);
  expect(after.paidThisMonthCents - before.paidThisMonthCents).toBeGreaterThanOrEqual(50_300);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Dashboard' }).click();
  const shown = async () => Math.round(Number(((await page.getByTestId('ar-paid').textContent()) ?? '').replace(/[$,]/g, '')) * 100);
  await expect.poll(shown).toBeGreaterThanOrEqual(after.paidThisMonthCents);
  await expect.poll(async () => (await shown()) === (await receivables(page.request)).paidThisMonthCents).toBe(true);
  await expectNoSeriousA11yViolations(page);

  // The list finds it by number, marked Paid.
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Invoices' }).click();
  await page.getByLabel('Search invoices').fill(number);
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: `Invoice ${number} for ${customerName}` }) });
  await expect(row).toBeVisible();
  await expect(row.getByText('Paid', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('the dashboard’s A/R figures move live when a payment is recorded elsewhere', async ({ page, browser }) => {
  await signIn(page);
  const { workOrder } = await completedWorkOrder(page.request);
  const created = await page.request.post(`/api/admin/work-orders/${workOrder.id}/invoice`);
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { invoice: { id: string } }).invoice.id;
  const priced = await page.request.put(`/api/admin/invoices/${id}`, { data: { lines: [{ name: 'Repair service', quantityMilli: 1000, unitPriceCents: 12_345 }], notes: '' } });
  expect(priced.status(), await priced.text()).toBe(200);
  expect((await page.request.post(`/api/admin/invoices/${id}/issue`)).status()).toBe(200);

  // The dashboard stays open (no reload); another session records the payment.
  await expect(page.getByTestId('ar-paid')).not.toHaveText('…');
  const shown = (await page.getByTestId('ar-paid').textContent()) ?? '';
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const otherPage = await other.newPage();
    await signIn(otherPage);
    const paid = await otherPage.request.post(`/api/admin/invoices/${id}/payments`, { data: { method: 'cash', amountCents: 12_345, receivedOn: (await receivables(otherPage.request)).today } });
    expect(paid.status(), await paid.text()).toBe(201);
  } finally {
    await other.close();
  }
  await expect(page.getByTestId('ar-paid')).not.toHaveText(shown);
  // What the server says now (other journeys may add money meanwhile: compared until they agree).
  await expect.poll(async () => (await page.getByTestId('ar-paid').textContent()) === formatCents((await receivables(page.request)).paidThisMonthCents)).toBe(true);
});
