import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentLineInput } from '#shared/document-line.ts';
import { invoiceDetailResponseSchema } from '#shared/invoice.ts';
import { notificationTypes } from '#shared/notifications.ts';
import { addDays, todayIn } from '#shared/dates.ts';
import {
  publicQuoteResponseSchema,
  quoteDetailResponseSchema,
  quoteListResponseSchema,
  quoteMessages,
  quoteSendResponseSchema,
  type QuoteCreate,
  type QuoteDetailResponse,
} from '#shared/quote.ts';
import { invalidLinkMessage } from '#server/modules/document-links/index.ts';
import { customerLinkFromOutbox } from '#tests/support/outbox-links.ts';
import { createStaff, createTechnicianStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// Quotes, good / better / best (issue 20, decision 025-c) through the HTTP API on a real
// database: the office writes and sends a quote, the customer opens it from the e-mail's link and
// approves an option with their name and a drawn signature (a work order made or the linked one
// updated, the office notified), every refused link is the same 404, and the work order's
// invoice starts from the approved option's lines.

let context: TestContext;
let admin: string;
let dispatcher: string;
let technician: string;
let clock = new Date();
const timeZone = 'America/New_York';
let addressCount = 0;
/** A fresh client address per request, so the rate limit counts only where a test means it to. */
const address = () => `10.30.${Math.floor(addressCount / 250)}.${(addressCount++ % 250) + 1}`;

beforeAll(async () => {
  context = await createTestApp({ env: { COMPANY_SITE_URL: 'https://comfort.example', TZ_BUSINESS: timeZone }, now: () => clock });
  await createStaff(context.database);
  await createStaff(context.database, 'dispatch@example.com', undefined, 'dispatcher');
  const [tech] = await context.database.query<{ id: string }>(`insert into technicians (name) values ('Terry Tech') returning id`);
  await createTechnicianStaff(context.database, tech!.id);
  admin = await signIn(context.app);
  dispatcher = await signIn(context.app, 'dispatch@example.com');
  technician = await signIn(context.app, 'tech@example.com');
});
afterAll(() => context?.close());

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, payload?: unknown, cookie = admin) =>
  context.app.inject({ method, url, headers: { cookie }, remoteAddress: address(), ...(payload === undefined ? {} : { payload: payload as object }) });
const publicCall = (method: 'GET' | 'POST', token: string, suffix = '', payload?: unknown, remoteAddress = address()) =>
  context.app.inject({ method, url: `/api/public/quotes/${token}${suffix}`, remoteAddress, ...(payload === undefined ? {} : { payload: payload as object }) });

let customerCount = 0;
async function customer(name = 'Dana Whitfield'): Promise<{ id: string; email: string }> {
  customerCount += 1;
  const email = `quote${customerCount}@example.com`;
  const [row] = await context.database.query<{ id: string }>(
    `insert into customers (name, phone, address, city, state, zip, email) values ($1, $2, $3, 'Bluffton', 'SC', '29910', $4) returning id`,
    [name, `(843) 555-04${String(customerCount).padStart(2, '0')}`, `${customerCount} Okatie Hwy`, email],
  );
  return { id: row!.id, email };
}

async function workOrder(customerId: string, status = 'pending'): Promise<{ id: string; number: string }> {
  const [row] = await context.database.query<{ id: string; work_order_number: string }>(
    `insert into work_orders (customer_id, title, service_date, status, service_type, service_address, service_city, service_state, service_zip)
     values ($1, 'Upstairs unit not cooling', $2, $3, 'repair', '9 Rental Ct', 'Hilton Head Island', 'SC', '29928') returning id, work_order_number`,
    [customerId, todayIn(timeZone, clock), status],
  );
  return { id: row!.id, number: row!.work_order_number };
}

const line = (name: string, unitPriceCents: number, values: Partial<DocumentLineInput> = {}): DocumentLineInput => ({ name, quantityMilli: 1000, unitPriceCents, ...values });

/** Good / better / best: repair, a new condenser, a whole new system. */
const threeOptions = (): QuoteCreate['options'] => [
  { name: 'Repair', description: 'Replace the failed parts', lines: [line('Capacitor 45/5 MFD', 18500, { kind: 'part', taxable: true, taxRatePpm: 60_000 }), line('Labor (hour)', 12500, { kind: 'labor', quantityMilli: 1500 })] },
  { name: 'New condenser', lines: [line('3-ton condenser 16 SEER2', 420000, { kind: 'equipment', taxable: true, taxRatePpm: 60_000 }), line('Installation', 95000, { discountBps: 1000 })] },
  { name: 'New system', lines: [line('3-ton heat pump system 18 SEER2', 1150000, { kind: 'equipment', taxable: true, taxRatePpm: 60_000 }), line('Installation', 180000)] },
];

async function draft(values: Partial<QuoteCreate> & { customerId: string }): Promise<QuoteDetailResponse> {
  const response = await call('POST', '/api/admin/quotes', { title: 'Upstairs AC', options: threeOptions(), ...values }, dispatcher);
  expect(response.statusCode, response.body).toBe(201);
  return quoteDetailResponseSchema.parse(response.json());
}

/** Sends what is due (the messaging runner's step) and reads the quote link from the e-mail handed to the outbox. */
async function linkFromEmail(recipient: string): Promise<string> {
  await context.app.messaging.dispatchDue();
  return customerLinkFromOutbox(context, { recipient, kind: 'message_quote_sent', site: 'https://comfort.example', documentType: 'quote' });
}

async function sentQuote(values: Partial<QuoteCreate> = {}) {
  const person = await customer();
  const created = await draft({ customerId: person.id, ...values });
  const sent = await call('POST', `/api/admin/quotes/${created.quote.id}/send`, undefined, dispatcher);
  expect(sent.statusCode, sent.body).toBe(200);
  const token = await linkFromEmail(person.email);
  return { ...quoteSendResponseSchema.parse(sent.json()), token, person };
}

async function signaturePng(): Promise<string> {
  const bytes = await sharp({ create: { width: 600, height: 200, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 0 } } })
    .composite([{ input: Buffer.from('<svg width="600" height="200"><path d="M20 150 C 120 20, 220 180, 580 40" stroke="black" stroke-width="4" fill="none"/></svg>') }])
    .png()
    .toBuffer();
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

describe('the office writes a quote', () => {
  it('keeps three options with their totals by the money rule; technicians are refused', async () => {
    const person = await customer();
    const created = await draft({ customerId: person.id });
    expect(created.quote).toMatchObject({ status: 'draft', quoteNumber: null, customerName: 'Dana Whitfield' });
    expect(created.options.map((option) => option.name)).toEqual(['Repair', 'New condenser', 'New system']);
    // Repair: 185.00 + 6% tax 11.10 + labor 1.5 h × 125.00 = 187.50 → 383.60.
    expect(created.options[0]).toMatchObject({ subtotalCents: 37250, taxCents: 1110, totalCents: 38360 });
    // New condenser: 4,200.00 + installation 950.00 less 10% (855.00) = 5,055.00, + 252.00 tax → 5,307.00.
    expect(created.options[1]).toMatchObject({ subtotalCents: 505500, discountCents: 9500, taxCents: 25200, totalCents: 530700 });
    expect(created.options[1]!.lines[1]).toMatchObject({ amountCents: 85500, discountBps: 1000 });

    expect((await call('GET', `/api/admin/quotes/${created.quote.id}`, undefined, technician)).statusCode).toBe(403);
    expect((await call('POST', '/api/admin/quotes', { customerId: person.id, title: 'x', options: threeOptions() }, technician)).statusCode).toBe(403);

    const list = quoteListResponseSchema.parse((await call('GET', `/api/admin/quotes?customerId=${person.id}`)).json());
    expect(list.quotes).toHaveLength(1);
    expect(list.quotes[0]).toMatchObject({ optionCount: 3, lowestTotalCents: 38360, highestTotalCents: 1399000 });
  });

  it('refuses bad input with a clear error and keeps nothing', async () => {
    const person = await customer();
    const other = await customer('Someone Else');
    const theirs = await workOrder(other.id);
    const refused = [
      { customerId: person.id, title: '', options: threeOptions() },
      { customerId: person.id, title: 'No options', options: [] },
      { customerId: person.id, title: 'Six', options: [...threeOptions(), ...threeOptions()] },
      { customerId: person.id, title: 'Bad line', options: [{ name: 'A', lines: [line('Part', -5)] }] },
      { customerId: person.id, title: 'Discount past the line', options: [{ name: 'A', lines: [line('Part', 1000, { discountCents: 2000 })] }] },
    ];
    for (const body of refused) {
      const response = await call('POST', '/api/admin/quotes', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const foreign = await call('POST', '/api/admin/quotes', { customerId: person.id, workOrderId: theirs.id, title: 'Theirs', options: threeOptions() });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.message).toBe(quoteMessages.workOrderOtherCustomer);
    const [{ count }] = (await context.database.query<{ count: string }>(`select count(*) from quotes where customer_id = $1`, [person.id])) as [{ count: string }];
    expect(Number(count)).toBe(0);
  });

  it('edits a draft; an option without lines cannot be sent; a sent quote is revised, not edited', async () => {
    const person = await customer();
    const created = await draft({ customerId: person.id, options: [{ name: 'Repair', lines: [] }] });
    const refused = await call('POST', `/api/admin/quotes/${created.quote.id}/send`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(quoteMessages.optionEmpty('Repair'));

    const edited = await call('PUT', `/api/admin/quotes/${created.quote.id}`, { title: 'Upstairs AC repair', notes: 'Parts in stock.', options: threeOptions().slice(0, 2) });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(quoteDetailResponseSchema.parse(edited.json()).options).toHaveLength(2);
    const sent = quoteSendResponseSchema.parse((await call('POST', `/api/admin/quotes/${created.quote.id}/send`)).json());
    expect(sent.quote.quoteNumber).toMatch(/^Q-\d{6}$/);
    expect(sent.quote.validUntil).toBe(addDays(todayIn(timeZone, clock), 30));
    expect(sent.delivery.queued).toEqual(['email']);

    const late = await call('PUT', `/api/admin/quotes/${created.quote.id}`, { title: 'Changed', options: threeOptions() });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(quoteMessages.notDraft);
    const revised = quoteDetailResponseSchema.parse((await call('POST', `/api/admin/quotes/${created.quote.id}/revise`)).json());
    expect(revised.quote.status).toBe('draft');
    expect(revised.quote.quoteNumber).toBe(sent.quote.quoteNumber);
    const history = revised.history.map((entry) => entry.action);
    expect(history).toEqual(expect.arrayContaining(['created', 'edited', 'sent', 'send_queued', 'revised']));
  });

  it('numbers quotes sent at once without gaps or duplicates', async () => {
    const person = await customer();
    const drafts = await Promise.all(Array.from({ length: 12 }, () => draft({ customerId: person.id })));
    const answers = await Promise.all(drafts.map((created) => call('POST', `/api/admin/quotes/${created.quote.id}/send`)));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const numbers = answers.map((answer) => Number(quoteSendResponseSchema.parse(answer.json()).quote.quoteNumber!.slice(2))).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(12);
    expect(numbers.at(-1)! - numbers[0]!).toBe(11);
  });
});

describe("the customer's link", () => {
  it('shows every option; approving one with a name and a signature makes a work order and tells the office', async () => {
    const { quote, options, token } = await sentQuote();
    const view = await publicCall('GET', token);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.headers['cache-control']).toBe('private, no-store');
    expect(view.headers['referrer-policy']).toBe('no-referrer');
    const page = publicQuoteResponseSchema.parse(view.json());
    expect(page).toMatchObject({ status: 'sent', quoteNumber: quote.quoteNumber, title: 'Upstairs AC' });
    expect(page.options.map((option) => option.document.totalCents)).toEqual(options.map((option) => option.totalCents));
    // Nothing of the office's: no history, no other customer's data, no internal ids but the options'.
    expect(view.body).not.toContain(quote.customerId);
    expect(view.body).not.toContain('history');

    const chosen = options[1]!;
    const approved = await publicCall('POST', token, '/approve', { optionId: chosen.id, name: 'Dana Whitfield', accepted: true, signature: await signaturePng() }, '203.0.113.7');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(publicQuoteResponseSchema.parse(approved.json())).toMatchObject({ status: 'approved', approvedOptionId: chosen.id, approvedByName: 'Dana Whitfield' });

    const detail = quoteDetailResponseSchema.parse((await call('GET', `/api/admin/quotes/${quote.id}`)).json());
    expect(detail.quote).toMatchObject({ status: 'approved', approvedOptionId: chosen.id, approvalIp: '203.0.113.7', hasSignature: true });
    expect(detail.quote.resultingWorkOrderNumber).toMatch(/^WO-/);
    const [created] = await context.database.query<{ title: string; service_type: string; status: string; description: string }>(
      `select title, service_type, status, description from work_orders where id = $1`,
      [detail.quote.resultingWorkOrderId],
    );
    expect(created).toMatchObject({ title: 'Upstairs AC', service_type: 'installation', status: 'pending' });
    expect(created!.description).toContain('New condenser');
    const [notification] = await context.database.query<{ title: string; data: { link: string } }>(
      `select title, data from admin_notifications where type = $1 and data->>'quote_id' = $2`,
      [notificationTypes.quoteAnswered, quote.id],
    );
    expect(notification).toMatchObject({ title: `Quote approved: ${quote.quoteNumber}`, data: { link: `/admin/quotes/${quote.id}` } });

    const signature = await call('GET', `/api/admin/quotes/${quote.id}/signature`);
    expect(signature.statusCode).toBe(200);
    expect(signature.headers['content-type']).toBe('image/png');
    expect((await call('GET', `/api/admin/quotes/${quote.id}/signature`, undefined, technician)).statusCode).toBe(403);

    // A double tap answers the page as it is; another answer is refused.
    const again = await publicCall('POST', token, '/approve', { optionId: chosen.id, name: 'Dana Whitfield', accepted: true });
    expect(again.statusCode).toBe(200);
    const other = await publicCall('POST', token, '/approve', { optionId: options[0]!.id, name: 'Dana Whitfield', accepted: true });
    expect(other.statusCode).toBe(409);
    expect((await publicCall('POST', token, '/decline', { reason: 'Too much' })).statusCode).toBe(409);
    const [{ count }] = (await context.database.query<{ count: string }>(`select count(*) from work_orders where customer_id = $1`, [quote.customerId])) as [{ count: string }];
    expect(Number(count)).toBe(1);
  });

  it("approving a quote written on an open work order updates that work order; its invoice starts from the option's lines", async () => {
    const person = await customer();
    const job = await workOrder(person.id);
    const created = await draft({ customerId: person.id, workOrderId: job.id });
    await call('POST', `/api/admin/quotes/${created.quote.id}/send`);
    const token = await linkFromEmail(person.email);
    const chosen = created.options[0]!;
    const approved = await publicCall('POST', token, '/approve', { optionId: chosen.id, name: 'Dana W', accepted: true });
    expect(approved.statusCode, approved.body).toBe(200);
    const detail = quoteDetailResponseSchema.parse((await call('GET', `/api/admin/quotes/${created.quote.id}`)).json());
    expect(detail.quote).toMatchObject({ resultingWorkOrderId: job.id, hasSignature: false });
    const audit = await context.database.query<{ action: string }>(`select action from audit_log where entity_type = 'work_order' and entity_id = $1`, [job.id]);
    expect(audit.map((row) => row.action)).toContain('quote_approved');

    await context.database.query(`update work_orders set status = 'completed', completed_at = now() where id = $1`, [job.id]);
    const invoice = await call('POST', `/api/admin/work-orders/${job.id}/invoice`);
    expect(invoice.statusCode, invoice.body).toBe(201);
    const invoiceDetail = invoiceDetailResponseSchema.parse(invoice.json());
    expect(invoiceDetail.lines.map((entry) => entry.name)).toEqual(chosen.lines.map((entry) => entry.name));
    expect(invoiceDetail.invoice.totalCents).toBe(chosen.totalCents);
    expect(invoiceDetail.invoice.notes).toContain(created.quote.id ? `As quoted in ${detail.quote.quoteNumber}` : '');
  });

  it('declining records the reason and tells the office', async () => {
    const { quote, token } = await sentQuote();
    const declined = await publicCall('POST', token, '/decline', { reason: 'Going with the repair elsewhere' });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(publicQuoteResponseSchema.parse(declined.json()).status).toBe('declined');
    const detail = quoteDetailResponseSchema.parse((await call('GET', `/api/admin/quotes/${quote.id}`)).json());
    expect(detail.quote).toMatchObject({ status: 'declined', declineReason: 'Going with the repair elsewhere' });
    const [notification] = await context.database.query<{ title: string }>(`select title from admin_notifications where data->>'quote_id' = $1`, [quote.id]);
    expect(notification?.title).toBe(`Quote declined: ${quote.quoteNumber}`);
  });

  it('refuses, with one answer, a tampered or unknown token, a revised or cancelled quote, and an expired one cannot be approved', async () => {
    const { quote, options, token } = await sentQuote();
    const refusals = [token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'), 'x'.repeat(43), 'short', `${token}x`];
    for (const bad of refusals) {
      const response = await publicCall('GET', bad);
      expect(response.statusCode, bad).toBe(404);
      expect(response.json().error.message).toBe(invalidLinkMessage);
      expect((await publicCall('POST', bad, '/approve', { optionId: options[0]!.id, name: 'Mallory', accepted: true })).statusCode).toBe(404);
    }
    // Another quote's option through this link: refused, nothing approved.
    const other = await sentQuote();
    const crossed = await publicCall('POST', token, '/approve', { optionId: other.options[0]!.id, name: 'Dana', accepted: true });
    expect(crossed.statusCode).toBe(400);
    expect(quoteDetailResponseSchema.parse((await call('GET', `/api/admin/quotes/${other.quote.id}`)).json()).quote.status).toBe('sent');

    // Expired: the page says so and approval is refused.
    const saved = clock;
    // Noon in the company's time zone the day after valid-until: expired, and the link (kept until the
    // end of the next UTC day) still opens, whatever the hour the test runs.
    clock = new Date(`${addDays(quote.validUntil!, 1)}T12:00:00-05:00`);
    try {
      expect(publicQuoteResponseSchema.parse((await publicCall('GET', token)).json()).status).toBe('expired');
      const late = await publicCall('POST', token, '/approve', { optionId: options[0]!.id, name: 'Dana', accepted: true });
      expect(late.statusCode).toBe(409);
      expect(late.json().error.message).toBe(quoteMessages.expired);
    } finally {
      clock = saved;
    }

    // Revised: the link sent stops working; cancelled likewise.
    expect((await call('POST', `/api/admin/quotes/${quote.id}/revise`)).statusCode).toBe(200);
    expect((await publicCall('GET', token)).statusCode).toBe(404);
    expect((await call('POST', `/api/admin/quotes/${other.quote.id}/cancel`, { reason: 'Customer called' })).statusCode).toBe(200);
    expect((await publicCall('GET', other.token)).statusCode).toBe(404);
  });

  it('refuses an approval without a typed name or the tick, and a signature that is not a PNG', async () => {
    const { options, token } = await sentQuote();
    const jpeg = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).jpeg().toBuffer();
    for (const body of [
      { optionId: options[0]!.id, name: '', accepted: true },
      { optionId: options[0]!.id, name: 'Dana', accepted: false },
      { optionId: options[0]!.id, name: 'Dana', accepted: true, signature: `data:image/png;base64,${jpeg.toString('base64')}` },
      { optionId: 'not-an-id', name: 'Dana', accepted: true },
    ]) {
      const response = await publicCall('POST', token, '/approve', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect(publicQuoteResponseSchema.parse((await publicCall('GET', token)).json()).status).toBe('sent');
  });
});
