import { devices, expect, test, type Page } from '@playwright/test';
import type { Customer } from '#shared/customer.ts';
import { formatCents } from '#shared/money.ts';
import { quoteDetailResponseSchema, type QuoteCreate } from '#shared/quote.ts';
import { drawSignature, expectNoSeriousA11yViolations, outboxMailsMentioning, signIn } from './fixtures.ts';

// Issue 20's whole loop against the real server, the messaging runner's outbox and the fake Stripe
// that playwright.config.ts starts beside it: a quote with three options is sent, the customer
// approves the middle one from the e-mailed link on a phone, the approval makes the work order,
// the job is done, its invoice (from the approved option's lines) is issued and e-mailed, the
// customer pays it online, and the office's dashboard figures move without a reload.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A customer link's path in an .eml file (its text part may be quoted-printable). */
function linkPathIn(mail: string, kind: 'quote' | 'invoice'): string | undefined {
  const decoded = mail.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return new RegExp(`https?://[^/\\s]+(/${kind}/[A-Za-z0-9_-]{43})`).exec(decoded)?.[1];
}

async function linkFromOutbox(email: string, kind: 'quote' | 'invoice'): Promise<string> {
  await expect.poll(() => outboxMailsMentioning(email).filter((mail) => linkPathIn(mail, kind)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  return linkPathIn(outboxMailsMentioning(email).find((mail) => linkPathIn(mail, kind))!, kind)!;
}

const cents = (text: string | null) => Math.round(Number((text ?? '').replace(/[$,]/g, '')) * 100);

async function paidThisMonth(dashboard: Page): Promise<number> {
  const figure = dashboard.getByTestId('ar-paid');
  await expect(figure).toHaveText(/^-?\$[\d,]+\.\d\d$/);
  return cents(await figure.textContent());
}

test('a three-option quote is approved from its link, done, invoiced and paid online; the dashboard follows live', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page);
  const id = unique();
  const email = `loop.${id}@example.com`;
  const created = await page.request.post('/api/admin/customers', {
    data: { name: `Loop Customer ${id}`, phone: '(843) 555-0177', email, address: '12 Marsh Hen Ln', city: 'Bluffton', state: 'SC', type: 'residential' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const customer = ((await created.json()) as { customer: Customer }).customer;

  // The office's quote: good / better / best (written through the API here; the quotes journey writes one on screen).
  const options: QuoteCreate['options'] = [
    { name: 'Repair', lines: [{ name: 'Replace run capacitor (part included)', quantityMilli: 1000, unitPriceCents: 24500 }] },
    {
      name: 'New condenser',
      lines: [
        { name: '3-ton condenser 16 SEER2', kind: 'equipment', quantityMilli: 1000, unitPriceCents: 320000, taxable: true, taxRatePpm: 60_000 },
        { name: 'Condenser installation', quantityMilli: 1000, unitPriceCents: 85000 },
      ],
    },
    { name: 'New system', lines: [{ name: '3-ton heat pump system 18 SEER2', kind: 'equipment', quantityMilli: 1000, unitPriceCents: 1150000, taxable: true, taxRatePpm: 60_000 }] },
  ];
  const draft = await page.request.post('/api/admin/quotes', { data: { customerId: customer.id, title: `Upstairs AC ${id}`, options } });
  expect(draft.status(), await draft.text()).toBe(201);
  const quote = quoteDetailResponseSchema.parse(await draft.json());
  const chosen = quote.options[1]!;
  // 3,200.00 + 6% tax 192.00 + 850.00.
  expect(chosen.totalCents).toBe(424200);

  // Sent from the quote's screen.
  await page.goto(`/admin/quotes/${quote.quote.id}`);
  await page.getByRole('button', { name: 'Send to customer' }).click();
  await page.getByRole('dialog', { name: 'Send this quote?' }).getByRole('button', { name: 'Send quote' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Quote Q-\d{6}$/ })).toBeVisible();

  // The customer approves the middle option on a phone, with no account.
  const phone = await browser.newContext({ ...devices['Pixel 7'], baseURL: test.info().project.use.baseURL });
  const customerPage = await phone.newPage();
  await customerPage.goto(await linkFromOutbox(email, 'quote'));
  await expect(customerPage.getByRole('radio')).toHaveCount(3);
  await customerPage.getByRole('radio', { name: new RegExp(`New condenser ${formatCents(chosen.totalCents).replace('$', '\\$')}`) }).check();
  await customerPage.getByLabel('Your full name').fill(`Loop Customer ${id}`);
  await drawSignature(customerPage, /Your signature/);
  await customerPage.getByLabel('I approve this quote and authorize the work').check();
  await customerPage.getByRole('button', { name: 'Approve quote' }).click();
  await expect(customerPage.getByRole('heading', { level: 2, name: `Thank you, Loop Customer ${id}! Your quote is approved.` })).toBeVisible();
  await expectNoSeriousA11yViolations(customerPage);

  // The office's quote follows; the approval made the work order.
  const approval = page.getByRole('region', { name: 'Approved by the customer' });
  await expect(approval).toBeVisible({ timeout: 20_000 });
  await expect(approval.getByRole('img', { name: `Signature drawn by Loop Customer ${id}` })).toBeVisible();
  const approved = quoteDetailResponseSchema.parse(await (await page.request.get(`/api/admin/quotes/${quote.quote.id}`)).json());
  expect(approved.quote).toMatchObject({ status: 'approved', approvedOptionId: chosen.id, hasSignature: true });
  const workOrderId = approved.quote.resultingWorkOrderId!;

  // The job is done, and invoiced from the approved option's lines.
  await approval.getByRole('link', { name: approved.quote.resultingWorkOrderNumber! }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/workorders/${workOrderId}$`));
  await page.getByRole('button', { name: 'Start Job' }).click();
  await page.getByRole('button', { name: 'Complete Job' }).click();
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await expect(page).toHaveURL(/\/admin\/invoices\/[0-9a-f-]{36}/);
  await expect(page.getByText('3-ton condenser 16 SEER2').first()).toBeVisible();
  await expect(page.getByText('Condenser installation').first()).toBeVisible();
  await page.getByRole('button', { name: 'Issue invoice' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Issue invoice' }).click();
  await expect(page.getByText(/Invoice issued\. Sent by e-mail\./)).toBeVisible();

  // The dashboard, open in the office while the customer pays.
  const dashboard = await page.context().newPage();
  await dashboard.goto('/admin');
  const before = await paidThisMonth(dashboard);

  const total = formatCents(chosen.totalCents);
  await customerPage.goto(await linkFromOutbox(email, 'invoice'));
  await expect(customerPage.getByRole('heading', { level: 2, name: `Amount due: ${total}` })).toBeVisible();
  await customerPage.getByRole('button', { name: `Pay ${total} by card` }).click();
  await expect(customerPage.getByLabel('Card number')).toBeVisible();
  await customerPage.getByRole('button', { name: `Pay ${total}` }).click();
  await expect(customerPage.getByRole('heading', { level: 2, name: 'Paid in full' })).toBeVisible();
  await phone.close();

  // Paid this month moves on the open dashboard by at least this payment (other journeys only add money).
  await expect.poll(() => paidThisMonth(dashboard), { timeout: 20_000 }).toBeGreaterThanOrEqual(before + chosen.totalCents);
});
