import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { Customer } from '#shared/customer.ts';
import type { QuoteDetailResponse } from '#shared/quote.ts';
import { png } from '#tests/support/images.ts';
import { expectNoSeriousA11yViolations, outboxMailsMentioning, signIn } from './fixtures.ts';

// The office's quotes (issue 20) against the real server: a quote is started from a customer's
// profile, given three options (good, better, best) from the price book picker and typed lines with
// live totals, saved, sent (the messaging runner e-mails the link into the outbox), revised (the
// link stops opening), sent again, approved by the customer through the link's API, and the
// office sees the approval from the bell: the option, who, when, from where, the signature and the
// work order, which lists the approved lines.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The quote link's path in an .eml file (its text part may be quoted-printable). */
function quotePathsIn(mail: string): string[] {
  const decoded = mail.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return [...decoded.matchAll(/https?:\/\/[^/\s]+(\/quote\/[A-Za-z0-9_-]{43})/g)].map((match) => match[1]!);
}

function quoteLinks(email: string): string[] {
  return [...new Set(outboxMailsMentioning(email).flatMap(quotePathsIn))];
}

async function priceBookItem(request: APIRequestContext, fields: { code: string; name: string; kind: string; priceCents: number }) {
  const created = await request.post('/api/admin/price-book', { data: { ...fields, unit: 'each', taxable: false } });
  expect(created.status(), await created.text()).toBe(201);
}

/** Picks the one price-book item whose code is typed, with the keyboard (Down, Enter) or the mouse. */
async function pick(option: Locator, code: string, by: 'keyboard' | 'mouse') {
  const picker = option.getByRole('combobox', { name: /^Add from the price book/ });
  await picker.fill(code);
  const result = option.getByRole('option', { name: new RegExp(code, 'i') });
  await expect(result).toBeVisible();
  if (by === 'keyboard') {
    await picker.press('ArrowDown');
    await expect(result).toHaveAttribute('aria-selected', 'true');
    await picker.press('Enter');
  } else {
    await result.click();
  }
  await expect(picker).toHaveValue('');
}

async function typeLine(page: Page, option: Locator, number: number, line: { name: string; quantity?: string; price: string; discountPercent?: string; taxRate?: string }) {
  await option.getByRole('button', { name: 'Add line' }).click();
  // The new line's name takes the focus: the keyboard goes on typing.
  await expect(option.getByLabel(`Name, line ${number}`)).toBeFocused();
  await page.keyboard.type(line.name);
  if (line.quantity) await option.getByLabel(`Quantity, line ${number}`).fill(line.quantity);
  await option.getByLabel(`Unit price ($), line ${number}`).fill(line.price);
  if (line.discountPercent) await option.getByLabel(`Discount %, line ${number}`).fill(line.discountPercent);
  if (line.taxRate) {
    await option.getByLabel(`Taxable, line ${number}`).check();
    await option.getByLabel(`Tax rate %, line ${number}`).fill(line.taxRate);
  }
}

const optionGroup = (page: Page, number: number) => page.getByRole('group', { name: new RegExp(`^Option ${number}`) });

test('a quote with three options from a customer: price book and typed lines, totals, send, revise, send again, approval seen by the office', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const id = unique();
  const email = `quote.${id}@example.com`;
  const customerName = `Quote Customer ${id}`;
  const customerResponse = await page.request.post('/api/admin/customers', {
    data: { name: customerName, phone: '(843) 555-0181', email, address: '8 Marsh Hen Way', city: 'Bluffton', state: 'SC', type: 'residential' },
  });
  expect(customerResponse.status(), await customerResponse.text()).toBe(201);
  const customer = ((await customerResponse.json()) as { customer: Customer }).customer;
  const diagnostic = `QJ-${id}-DIAG`;
  const condenser = `QJ-${id}-COND`;
  await priceBookItem(page.request, { code: diagnostic, name: `Diagnostic visit ${id}`, kind: 'service', priceCents: 8900 });
  await priceBookItem(page.request, { code: condenser, name: `Condenser 3 ton ${id}`, kind: 'equipment', priceCents: 240_000 });

  // From the customer's profile: New quote asks for the title, then opens the draft's editor.
  await page.goto(`/admin/customers/${customer.id}`);
  const quotesPanel = page.getByRole('region', { name: 'Quotes' });
  await expect(quotesPanel.getByText('No quotes yet.')).toBeVisible();
  await quotesPanel.getByRole('button', { name: 'New quote' }).click();
  const newQuote = page.getByRole('dialog', { name: 'New quote' });
  await expect(newQuote.getByLabel('Title')).toBeFocused();
  await expect(newQuote.getByLabel('Title')).toHaveValue(`Quote for ${customerName}`);
  await newQuote.getByLabel('Title').fill('');
  await newQuote.getByRole('button', { name: 'Create quote' }).click();
  await expect(newQuote.getByText('Give the quote a title')).toBeVisible();
  await expect(newQuote.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
  await newQuote.getByLabel('Title').fill(`New AC system ${id}`);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/quotes\/[0-9a-f-]{36}$/);
  const quoteId = page.url().split('/').at(-1)!;
  await expect(page.getByRole('heading', { level: 1, name: `Draft quote for ${customerName}` })).toBeVisible();

  // Good: the diagnostic from the price book (keyboard), and typed labor: 89 + 2 × 95.
  const good = optionGroup(page, 1);
  await expect(good.getByLabel('Option name')).toHaveValue('Good');
  await pick(good, diagnostic, 'keyboard');
  await expect(good.getByLabel('Name, line 1')).toHaveValue(`Diagnostic visit ${id}`);
  await expect(good.getByLabel('Unit price ($), line 1')).toHaveValue('89.00');
  await typeLine(page, good, 2, { name: 'Labor', quantity: '2', price: '95' });
  await expect(good.getByTestId('editor-total')).toHaveText('$279.00');

  // Better: the condenser (mouse), and a taxable thermostat at 6 %: 2,400 + 150 + 9.
  await page.getByRole('button', { name: 'Add option' }).click();
  const better = optionGroup(page, 2);
  await expect(better.getByLabel('Option name')).toHaveValue('Better');
  await pick(better, condenser, 'mouse');
  await typeLine(page, better, 2, { name: 'Smart thermostat', price: '150', taxRate: '6' });
  await expect(better.getByTestId('editor-total')).toHaveText('$2,559.00');

  // Best: the condenser and a warranty at 10 % off: 2,400 + 540.
  await page.getByRole('button', { name: 'Add option' }).click();
  const best = optionGroup(page, 3);
  await expect(best.getByLabel('Option name')).toHaveValue('Best');
  await best.getByLabel('Description').fill('Everything in Better, and ten years of labor.');
  await pick(best, condenser, 'keyboard');
  await typeLine(page, best, 2, { name: '10-year labor warranty', price: '600', discountPercent: '10' });
  await expect(best.getByTestId('editor-total')).toHaveText('$2,940.00');

  // A line that does not add up is refused on the spot, and announced.
  await best.getByLabel('Discount ($), line 2').fill('700');
  await expect(best.getByTestId('editor-total')).toHaveText('—');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Option 3 (Best)' })).toHaveText('Option 3 (Best): A discount cannot exceed the line amount.');
  await best.getByLabel('Discount ($), line 2').fill('');
  await expect(best.getByTestId('editor-total')).toHaveText('$2,940.00');
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('Draft saved.')).toBeVisible();
  await expect(page.getByText('All changes saved')).toBeVisible();

  // Saved as typed: after a reload the totals are the server's.
  await page.reload();
  await expect(optionGroup(page, 1).getByTestId('editor-total')).toHaveText('$279.00');
  await expect(optionGroup(page, 2).getByTestId('editor-total')).toHaveText('$2,559.00');
  await expect(optionGroup(page, 3).getByTestId('editor-total')).toHaveText('$2,940.00');
  await expect(optionGroup(page, 3).getByLabel('Name, line 1')).toHaveValue(`Condenser 3 ton ${id}`);

  // Send: confirmed, numbered, and the notice says how it went.
  await page.getByRole('button', { name: 'Send to customer' }).click();
  const sendDialog = page.getByRole('dialog', { name: 'Send this quote?' });
  await expect(sendDialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await sendDialog.getByRole('button', { name: 'Send quote' }).click();
  await expect(page.getByText(/^Quote Q-\d{6} sent\. Sent by e-mail\. Not by text: the customer has not agreed to texts\.$/)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: /^Quote Q-\d{6}$/ })).toBeVisible();
  const number = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').replace('Quote ', '');
  await expect(page.getByText('Waiting for the customer', { exact: true })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Edit quote' })).toHaveCount(0);
  const options = page.getByRole('region', { name: 'Options' });
  await expect(options.getByRole('region', { name: 'Better' }).getByTestId('option-total')).toHaveText('$2,559.00');

  // The messaging runner e-mails the link.
  await expect.poll(() => quoteLinks(email).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const firstLink = quoteLinks(email)[0]!;
  const token = (path: string) => path.replace('/quote/', '');
  expect((await page.request.get(`/api/public/quotes/${token(firstLink)}`)).status()).toBe(200);

  // Send again: another message with a new link; both links open the quote.
  await page.getByRole('button', { name: 'Send again' }).click();
  await expect(page.getByText('Sent again with a new link. Sent by e-mail.', { exact: false })).toBeVisible();
  await expect.poll(() => quoteLinks(email).length, { timeout: 30_000 }).toBe(2);
  const sentLinks = quoteLinks(email);
  for (const link of sentLinks) expect((await page.request.get(`/api/public/quotes/${token(link)}`)).status()).toBe(200);

  // Revise: a warning that the links stop working, back to draft, and the link no longer opens.
  await page.getByRole('button', { name: 'Revise' }).click();
  const reviseDialog = page.getByRole('dialog', { name: 'Revise this quote?' });
  await expect(reviseDialog).toContainText('The links already sent to the customer stop working');
  await reviseDialog.getByRole('button', { name: 'Revise quote' }).click();
  await expect(page.getByText('Quote back to draft. The links sent earlier no longer open it.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: `Quote ${number}` })).toBeVisible();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  for (const link of sentLinks) expect((await page.request.get(`/api/public/quotes/${token(link)}`)).status()).toBe(404);

  // A change, then sent again (saved first): it keeps its number, and a new link goes out.
  await optionGroup(page, 3).getByLabel('Option name').fill('Best value');
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.getByRole('button', { name: 'Send to customer' }).click();
  await expect(page.getByRole('dialog', { name: 'Send this quote?' })).toContainText('Your changes are saved first.');
  await expect(page.getByRole('dialog', { name: 'Send this quote?' })).toContainText(`It keeps its number ${number}`);
  await page.getByRole('dialog', { name: 'Send this quote?' }).getByRole('button', { name: 'Send quote' }).click();
  await expect(page.getByText(`Quote ${number} sent.`, { exact: false })).toBeVisible();
  await expect(options.getByRole('heading', { name: 'Best value' })).toBeVisible();
  await expect.poll(() => quoteLinks(email).length, { timeout: 30_000 }).toBe(3);
  const newLink = quoteLinks(email).find((link) => !sentLinks.includes(link))!;

  // The customer approves "Better" through the link (their page is app/features/quote-link), with a drawn signature.
  const detail = (await (await page.request.get(`/api/admin/quotes/${quoteId}`)).json()) as QuoteDetailResponse;
  const betterOption = detail.options.find((option) => option.name === 'Better')!;
  const signature = `data:image/png;base64,${(await png(480, 160)).toString('base64')}`;
  const approved = await page.request.post(`/api/public/quotes/${token(newLink)}/approve`, {
    headers: { origin: baseURL! },
    data: { optionId: betterOption.id, name: 'Pat Homeowner', accepted: true, signature },
  });
  expect(approved.status(), await approved.text()).toBe(200);

  // The bell's notification opens the quote, which shows the approval.
  await page.goto('/admin/quotes');
  await page.getByRole('button', { name: /^Notifications/ }).click();
  await page.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: new RegExp(`Quote approved: ${number}`) }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/quotes/${quoteId}$`));
  const approval = page.getByRole('region', { name: 'Approved by the customer' });
  await expect(approval.getByTestId('approved-option')).toHaveText('Better');
  await expect(approval.getByText('Pat Homeowner')).toBeVisible();
  await expect(approval.getByText(/127\.0\.0\.1/)).toBeVisible();
  const signatureImage = approval.getByRole('img', { name: 'Signature drawn by Pat Homeowner' });
  await expect(signatureImage).toBeVisible();
  await expect.poll(() => signatureImage.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(480);
  await expect(page.getByRole('group', { name: 'Quote actions' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  // The work order the approval made lists the approved option's lines and total.
  await approval.getByRole('link', { name: /^WO-/ }).click();
  await expect(page).toHaveURL(/\/admin\/workorders\/[0-9a-f-]{36}$/);
  const workOrderQuotes = page.getByRole('region', { name: 'Quotes' });
  await expect(workOrderQuotes.getByText('Approved option: Better')).toBeVisible();
  await expect(workOrderQuotes.getByText('Smart thermostat')).toBeVisible();
  await expect(workOrderQuotes.getByTestId('option-total')).toHaveText('$2,559.00');

  // The Quotes screen finds it by number and filters by status.
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Quotes' }).click();
  await page.getByLabel('Search quotes').fill(number);
  const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: `Quote ${number}: New AC system ${id}, for ${customerName}` }) });
  await expect(card).toBeVisible();
  await expect(card.getByText('Approved $2,559.00')).toBeVisible();
  // The search is in the address (its debounced navigation done) before the status changes it too.
  await expect(page).toHaveURL(new RegExp(`[?&]search=${number}`));
  await page.getByLabel('Status').selectOption('draft');
  await expect(page).toHaveURL(/[?&]status=draft/);
  await expect(page.getByText('No quotes match these filters.')).toBeVisible();
  await page.getByLabel('Status').selectOption('approved');
  await expect(card).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('on a phone the quotes list and a draft fit the screen, and a cancelled quote says why', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  const id = unique();
  const customerResponse = await page.request.post('/api/admin/customers', {
    data: { name: `Phone Quote ${id}`, phone: '(843) 555-0182', address: '2 Oyster Shell Rd', city: 'Bluffton', state: 'SC', type: 'residential' },
  });
  expect(customerResponse.status(), await customerResponse.text()).toBe(201);
  const customer = ((await customerResponse.json()) as { customer: Customer }).customer;
  const created = await page.request.post('/api/admin/quotes', {
    data: { customerId: customer.id, title: `Duct cleaning ${id}`, options: [{ name: 'Good', lines: [{ name: 'Duct cleaning', quantityMilli: 1000, unitPriceCents: 39_900 }] }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const quoteId = ((await created.json()) as QuoteDetailResponse).quote.id;
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  await page.goto(`/admin/quotes?search=${encodeURIComponent(id)}`);
  await expect(page.getByRole('link', { name: new RegExp(`Duct cleaning ${id}`) })).toBeVisible();
  expect(await fits()).toBe(true);
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('link', { name: new RegExp(`Duct cleaning ${id}`) }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Draft quote for Phone Quote ${id}` })).toBeVisible();
  await expect(optionGroup(page, 1).getByTestId('editor-total')).toHaveText('$399.00');
  expect(await fits()).toBe(true);
  await expectNoSeriousA11yViolations(page);

  // Cancel: the reason is required, the dialog keeps the focus and Escape leaves it.
  await page.getByRole('button', { name: 'Cancel quote' }).click();
  let dialog = page.getByRole('dialog', { name: 'Cancel this quote?' });
  await expect(dialog.getByLabel('Reason')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancel quote' })).toBeFocused();
  await page.keyboard.press('Enter');
  dialog = page.getByRole('dialog', { name: 'Cancel this quote?' });
  await dialog.getByRole('button', { name: 'Cancel quote' }).click();
  await expect(dialog.getByText('Say why the quote is cancelled.')).toBeVisible();
  await dialog.getByLabel('Reason').fill('The customer chose to wait until spring.');
  await dialog.getByRole('button', { name: 'Cancel quote' }).click();
  await expect(page.getByText('Quote cancelled. Its links no longer open it.')).toBeVisible();
  await expect(page.getByText('Cancelled', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Reason: The customer chose to wait until spring.')).toBeVisible();
  expect(await fits()).toBe(true);
  const reloaded = (await (await page.request.get(`/api/admin/quotes/${quoteId}`)).json()) as QuoteDetailResponse;
  expect(reloaded.quote.status).toBe('cancelled');
});

test('New quote from a lead (once it has a customer) and from a work order links the quote to where it started', async ({ page }) => {
  await signIn(page);
  const id = unique();
  const customerResponse = await page.request.post('/api/admin/customers', {
    data: { name: `Lead Quote ${id}`, phone: '(843) 555-0183', address: '5 Heron Pt', city: 'Bluffton', state: 'SC', type: 'residential' },
  });
  expect(customerResponse.status(), await customerResponse.text()).toBe(201);
  const customer = ((await customerResponse.json()) as { customer: Customer }).customer;
  const leadName = `Lead Visitor ${id}`;
  const submitted = await page.request.post('/api/public/estimate-requests', {
    data: { name: leadName, email: `lead.${id}@example.com`, phone: '843-555-0184', address: '5 Heron Pt, Bluffton, SC 29910', serviceType: 'ac-repair', description: 'Warm air upstairs.' },
  });
  expect(submitted.status(), await submitted.text()).toBe(201);
  const leads = (await (await page.request.get(`/api/admin/leads?${new URLSearchParams({ filter: 'all', search: leadName })}`)).json()) as { leads: { id: string }[] };
  const leadId = leads.leads[0]!.id;

  // Without a customer the lead says what to do instead of offering a quote.
  await page.goto(`/admin/estimates?filter=all&lead=estimate:${leadId}`);
  await expect(page.getByText(/^To quote this lead, link it to a customer first/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'New quote' })).toHaveCount(0);

  const converted = await page.request.post(`/api/admin/leads/estimate/${leadId}/convert`, {
    data: { customer: { mode: 'existing', customerId: customer.id }, workOrder: { title: `Upstairs AC ${id}`, description: 'Warm air upstairs.', serviceType: 'repair' } },
  });
  expect(converted.status(), await converted.text()).toBe(201);
  const workOrderId = ((await converted.json()) as { workOrder: { id: string } }).workOrder.id;

  await page.reload();
  await page.getByRole('button', { name: 'New quote' }).click();
  let dialog = page.getByRole('dialog', { name: 'New quote' });
  await expect(dialog.getByLabel('Title')).toHaveValue(`AC Repair for Lead Quote ${id}`);
  await dialog.getByRole('button', { name: 'Create quote' }).click();
  await expect(page).toHaveURL(/\/admin\/quotes\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('link', { name: 'From an estimate request' })).toBeVisible();

  // From the work order: the title is the work order's, and the quote is listed on it.
  await page.goto(`/admin/workorders/${workOrderId}`);
  const panel = page.getByRole('region', { name: 'Quotes' });
  await expect(panel.getByText('No quotes yet.')).toBeVisible();
  await panel.getByRole('button', { name: 'New quote' }).click();
  dialog = page.getByRole('dialog', { name: 'New quote' });
  await expect(dialog.getByLabel('Title')).toHaveValue(`Upstairs AC ${id}`);
  await dialog.getByRole('button', { name: 'Create quote' }).click();
  await expect(page).toHaveURL(/\/admin\/quotes\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('link', { name: /^For work order WO-\d+$/ })).toBeVisible();
  await page.getByRole('link', { name: /^For work order WO-\d+$/ }).click();
  await expect(page.getByRole('region', { name: 'Quotes' }).getByRole('link', { name: `Upstairs AC ${id} (quote Draft)` })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
