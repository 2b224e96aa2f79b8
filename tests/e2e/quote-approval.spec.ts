import { expect, request as playwrightRequest, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import type { Customer } from '#shared/customer.ts';
import type { DocumentLineInput } from '#shared/document-line.ts';
import { formatCents } from '#shared/money.ts';
import type { QuoteCreate, QuoteDetailResponse, QuoteSendResponse } from '#shared/quote.ts';
import type { WorkOrderDetailResponse } from '#shared/work-order.ts';
import { drawSignature, e2eAdmin, expectNoSeriousA11yViolations, outboxMailsMentioning } from './fixtures.ts';

// The customer's side of a quote (issue 20, decision 025-d) against the real server: the office
// writes a good / better / best quote and sends it through the admin API, the messaging runner
// e-mails its link, and the customer opens it on a phone, chooses the middle option with the
// keyboard, signs with the mouse, types their name and approves; the office's API then shows the
// quote approved with a work order. Another customer declines on a wide screen. A tampered link
// says what the invoice page says.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const phoneViewport = { width: 390, height: 844 };

/** The quote link's path in an .eml file (its text part may be quoted-printable). */
function quotePathIn(mail: string): string | undefined {
  const decoded = mail.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return /https?:\/\/[^/\s]+(\/quote\/[A-Za-z0-9_-]{43})/.exec(decoded)?.[1];
}

async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const login = await api.post('/api/auth/login', { data: e2eAdmin });
  expect(login.status(), await login.text()).toBe(200);
  return api;
}

const line = (name: string, unitPriceCents: number, values: Partial<DocumentLineInput> = {}): DocumentLineInput => ({ name, quantityMilli: 1000, unitPriceCents, ...values });

/** Good / better / best: a repair, a new condenser, a whole new system. */
const threeOptions = (): QuoteCreate['options'] => [
  { name: 'Repair', description: 'Replace the failed capacitor and test the system.', lines: [line('Capacitor 45/5 MFD', 18500, { kind: 'part', taxable: true, taxRatePpm: 60_000 }), line('Labor (hour)', 12500, { kind: 'labor', quantityMilli: 1500 })] },
  { name: 'New condenser', description: 'A new outdoor unit on the existing coil.', lines: [line('3-ton condenser 16 SEER2', 420000, { kind: 'equipment', taxable: true, taxRatePpm: 60_000 }), line('Installation', 95000, { discountBps: 1000 })] },
  { name: 'New system', lines: [line('3-ton heat pump system 18 SEER2', 1150000, { kind: 'equipment', taxable: true, taxRatePpm: 60_000 }), line('Installation', 180000)] },
];

type SentQuote = { detail: QuoteDetailResponse; linkPath: string; customerName: string };

/** A customer with an e-mail address, a three-option quote sent to them, and the link from the e-mail the runner wrote. */
async function sentQuote(admin: APIRequestContext): Promise<SentQuote> {
  const id = unique();
  const email = `quote.${id}@example.com`;
  const customerName = `Quinn Customer ${id}`;
  const customerResponse = await admin.post('/api/admin/customers', {
    data: { name: customerName, phone: '(843) 555-0177', email, address: '7 Salt Marsh Way', city: 'Bluffton', state: 'SC', zip: '29910', type: 'residential' },
  });
  expect(customerResponse.status(), await customerResponse.text()).toBe(201);
  const customer = ((await customerResponse.json()) as { customer: Customer }).customer;
  const created = await admin.post('/api/admin/quotes', { data: { customerId: customer.id, title: `Upstairs AC not cooling ${id}`, options: threeOptions() } satisfies QuoteCreate });
  expect(created.status(), await created.text()).toBe(201);
  const quoteId = ((await created.json()) as QuoteDetailResponse).quote.id;
  const sent = await admin.post(`/api/admin/quotes/${quoteId}/send`);
  expect(sent.status(), await sent.text()).toBe(200);
  const detail = (await sent.json()) as QuoteSendResponse;
  expect(detail.delivery.queued).toContain('email');
  expect(detail.quote.status).toBe('sent');

  await expect.poll(() => outboxMailsMentioning(email).filter((mail) => quotePathIn(mail)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const linkPath = quotePathIn(outboxMailsMentioning(email).find((mail) => quotePathIn(mail))!)!;
  return { detail, linkPath, customerName };
}

/** A browser context with no staff session; layout shifts recorded from the first paint (no input within 500 ms before them). */
async function customerPage(browser: Browser, baseURL: string, viewport = phoneViewport): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport });
  await context.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { layoutShifts: number[] }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!entry.hadRecentInput) shifts.push(entry.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return context.newPage();
}

const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts.reduce((sum, value) => sum + value, 0));


test('a quote e-mailed to a customer is opened on a phone, the middle option chosen, signed and approved, and the office sees it approved with a work order', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const admin = await adminApi(baseURL!);
  const { detail, linkPath, customerName } = await sentQuote(admin);
  const [good, better, best] = detail.options;
  const totals = [good!, better!, best!].map((option) => formatCents(option.totalCents));

  const page = await customerPage(browser, baseURL!);
  const response = await page.goto(linkPath);
  expect(response?.headers()['referrer-policy']).toBe('no-referrer');
  expect(response?.headers()['x-robots-tag']).toContain('noindex');
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(`Quote ${detail.quote.quoteNumber}`) })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  // Sent without a date of its own: valid for the billing settings' days from today.
  await expect(page.getByText(`Prepared for ${customerName} · Valid until`)).toBeVisible();

  // Three options, good / better / best, each with its total; stacked on a phone.
  const radios = page.getByRole('radio');
  await expect(radios).toHaveCount(3);
  await expect(page.getByRole('radio', { name: `Good Repair ${totals[0]}` })).toBeVisible();
  await expect(page.getByRole('radio', { name: `Better New condenser ${totals[1]}` })).toBeVisible();
  await expect(page.getByRole('radio', { name: `Best New system ${totals[2]}` })).toBeVisible();
  await expect(page.getByTestId('option-total')).toHaveText(totals);
  await expect(page.getByText('3-ton condenser 16 SEER2')).toBeVisible();
  const boxes = await Promise.all([0, 1, 2].map(async (index) => (await page.getByTestId('option-total').nth(index).boundingBox())!));
  expect(boxes[1]!.y).toBeGreaterThan(boxes[0]!.y + 50);
  expect(boxes[2]!.y).toBeGreaterThan(boxes[1]!.y + 50);
  await expectNoSeriousA11yViolations(page);

  // Approving with nothing filled in: the errors are announced and the focus goes to the options.
  await page.getByRole('button', { name: 'Approve quote' }).click();
  await expect(page.getByRole('alert')).toContainText('Choose one of the options.');
  await expect(page.getByRole('alert')).toContainText('Type your full name');
  await expect(page.getByRole('alert')).toContainText('Tick the box to approve');
  await expect(radios.first()).toBeFocused();

  // The keyboard moves through the radio group: the middle option is chosen and highlighted.
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: /New condenser/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /Repair/ })).not.toBeChecked();
  const card = (name: string) => page.locator('label').filter({ has: page.getByRole('radio', { name: new RegExp(name) }) });
  await expect(card('New condenser').getByText('Your choice', { exact: true })).toBeVisible();
  await expect(card('Repair').getByText('Your choice', { exact: true })).toBeHidden();
  await expect(page.getByText(`Your choice: New condenser, ${totals[1]}.`)).toBeVisible();
  await page.getByText('See the full quote for New condenser').click();
  await expect(page.getByRole('article', { name: /Quote .* as the customer sees it/ })).toContainText('Option: New condenser');

  await drawSignature(page, /Your signature/);
  await page.getByLabel('Your full name').fill('Quinn Homeowner');
  await page.getByLabel('I approve this quote and authorize the work').check();
  await page.getByRole('button', { name: 'Approve quote' }).click();

  // The thank-you state: the chosen option, the name and the time; the focus on it.
  const outcome = page.getByRole('heading', { level: 2, name: 'Thank you, Quinn Homeowner! Your quote is approved.' });
  await expect(outcome).toBeVisible();
  await expect(outcome).toBeFocused();
  await expect(page.getByTestId('quote-outcome')).toContainText(`You chose New condenser for ${totals[1]}.`);
  await expect(page.getByTestId('quote-outcome')).toContainText(/Approved by Quinn Homeowner on [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M\./);
  await expect(page.getByText("We'll call you to schedule the work.")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve quote' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  expect(await layoutShift(page)).toBeLessThan(0.05);

  // The office's API: approved, the middle option, the name, the drawn signature, and a work order.
  const after = await admin.get(`/api/admin/quotes/${detail.quote.id}`);
  expect(after.status()).toBe(200);
  const { quote } = (await after.json()) as QuoteDetailResponse;
  expect(quote).toMatchObject({ status: 'approved', approvedOptionId: better!.id, approvedByName: 'Quinn Homeowner', hasSignature: true });
  expect(quote.resultingWorkOrderId).toBeTruthy();
  const signature = await admin.get(`/api/admin/quotes/${detail.quote.id}/signature`);
  expect(signature.headers()['content-type']).toBe('image/png');
  const workOrder = await admin.get(`/api/admin/work-orders/${quote.resultingWorkOrderId}`);
  expect(workOrder.status()).toBe(200);
  const order = (await workOrder.json()) as WorkOrderDetailResponse;
  expect(order.workOrder.customerId).toBe(detail.quote.customerId);
  expect(order.workOrder.description).toContain('New condenser');

  // Opened again, the link shows the answer.
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Thank you, Quinn Homeowner! Your quote is approved.' })).toBeVisible();
  await expect(page.getByRole('radio')).toHaveCount(0);
  await page.context().close();
  await admin.dispose();
});

test('a customer declines a quote on a wide screen, with a reason, and the office sees it declined', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const admin = await adminApi(baseURL!);
  const { detail, linkPath } = await sentQuote(admin);

  const page = await customerPage(browser, baseURL!, { width: 1280, height: 900 });
  await page.goto(linkPath);
  // Side by side on a wide screen: the three totals on one row.
  await expect(page.getByTestId('option-total')).toHaveCount(3);
  const boxes = await Promise.all([0, 1, 2].map(async (index) => (await page.getByTestId('option-total').nth(index).boundingBox())!));
  expect(Math.abs(boxes[1]!.y - boxes[0]!.y)).toBeLessThan(2);
  expect(Math.abs(boxes[2]!.y - boxes[0]!.y)).toBeLessThan(2);
  expect(boxes[1]!.x).toBeGreaterThan(boxes[0]!.x);
  expect(boxes[2]!.x).toBeGreaterThan(boxes[1]!.x);

  await page.getByRole('button', { name: 'Decline this quote' }).click();
  const reason = page.getByLabel(/Reason/);
  await expect(reason).toBeFocused();
  await reason.fill('We are selling the house.');
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Decline the quote' }).click();

  const outcome = page.getByRole('heading', { level: 2, name: 'You declined this quote' });
  await expect(outcome).toBeVisible();
  await expect(outcome).toBeFocused();
  await expect(page.getByRole('radio')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Approve/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  expect(await layoutShift(page)).toBeLessThan(0.05);

  const after = await admin.get(`/api/admin/quotes/${detail.quote.id}`);
  const { quote } = (await after.json()) as QuoteDetailResponse;
  expect(quote).toMatchObject({ status: 'declined', declineReason: 'We are selling the house.', approvedOptionId: null, resultingWorkOrderId: null });

  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'You declined this quote' })).toBeVisible();
  await page.context().close();
  await admin.dispose();
});

test("a tampered quote link says the link is not valid, in the invoice page's words", async ({ browser, baseURL }) => {
  const admin = await adminApi(baseURL!);
  const { linkPath } = await sentQuote(admin);
  await admin.dispose();
  const token = linkPath.split('/').at(-1)!;
  const tampered = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;

  const page = await customerPage(browser, baseURL!);
  await page.goto(`/quote/${tampered}`);
  const problem = page.getByRole('alert');
  await expect(problem.getByRole('heading', { level: 1, name: 'Quote link not valid' })).toBeVisible();
  const quoteMessage = await problem.locator('p').first().textContent();
  expect(quoteMessage).toMatch(/not valid/);
  await expect(page.getByRole('radio')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  // The invoice page's invalid link says the same.
  await page.goto(`/invoice/${tampered}`);
  await expect(page.getByRole('alert').getByRole('heading', { level: 1, name: 'Invoice link not valid' })).toBeVisible();
  expect(await page.getByRole('alert').locator('p').first().textContent()).toBe(quoteMessage);
  await page.context().close();
});
