import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, monthStart, todayIn } from '#shared/dates.ts';
import {
  billingDocumentFromDetail,
  invoiceDetailResponseSchema,
  invoiceListResponseSchema,
  invoiceMessages,
  paymentResponseSchema,
  receivablesSummarySchema,
  type InvoiceDetailResponse,
} from '#shared/invoice.ts';
import type { DocumentLineInput } from '#shared/document-line.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// Invoices, credit notes and payments through the HTTP API on a real database (PGlite, or
// PostgreSQL with TEST_DATABASE_URL): the state rules, the refusals (which store nothing) and the
// money on the stored rows.

let context: TestContext;
let admin: string;
let dispatcher: string;
let today: string;

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  await createStaff(context.database, 'dispatch@example.com', undefined, 'dispatcher');
  admin = await signIn(context.app);
  dispatcher = await signIn(context.app, 'dispatch@example.com');
  today = todayIn(context.config.businessTimeZone);
});
afterAll(() => context?.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown, cookie = admin) =>
  context.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });

let customerCount = 0;
async function customer(name = 'Dana Whitfield'): Promise<string> {
  customerCount += 1;
  const [row] = await context.database.query<{ id: string }>(
    `insert into customers (name, phone, address, city, state, zip, email) values ($1, $2, $3, 'Bluffton', 'SC', '29910', 'dana@example.com') returning id`,
    [name, `(843) 555-02${String(customerCount).padStart(2, '0')}`, `${customerCount} May River Rd`],
  );
  return row!.id;
}

const line = (values: Partial<DocumentLineInput> = {}): DocumentLineInput => ({ name: 'Diagnostic visit', quantityMilli: 1000, unitPriceCents: 8900, ...values });

async function draft(lines: DocumentLineInput[], customerId?: string): Promise<InvoiceDetailResponse> {
  const response = await call('POST', '/api/admin/invoices', { customerId: customerId ?? (await customer()), lines });
  expect(response.statusCode, response.body).toBe(201);
  return invoiceDetailResponseSchema.parse(response.json());
}

async function issued(lines: DocumentLineInput[]): Promise<InvoiceDetailResponse> {
  const created = await draft(lines);
  const response = await call('POST', `/api/admin/invoices/${created.invoice.id}/issue`);
  expect(response.statusCode, response.body).toBe(200);
  return invoiceDetailResponseSchema.parse(response.json());
}

const pay = (id: string, amountCents: number, extra: Record<string, unknown> = {}, cookie = admin) =>
  call('POST', `/api/admin/invoices/${id}/payments`, { method: 'cash', amountCents, receivedOn: today, ...extra }, cookie);

async function stored(id: string) {
  const [row] = await context.database.query<{ status: string; paid_cents: string; balance_cents: string; total_cents: string; invoice_number: string | null }>(
    'select status, paid_cents, balance_cents, total_cents, invoice_number from invoices where id = $1',
    [id],
  );
  return { status: row!.status, paid: Number(row!.paid_cents), balance: Number(row!.balance_cents), total: Number(row!.total_cents), number: row!.invoice_number };
}

async function count(table: string, where = 'true', params: unknown[] = []): Promise<number> {
  const [row] = await context.database.query<{ n: string }>(`select count(*) as n from ${table} where ${where}`, params);
  return Number(row!.n);
}

describe('drafts', () => {
  it('stores the totals the server computes by the money rule, not the client', async () => {
    const created = await draft([
      line({ unitPriceCents: 12_345, quantityMilli: 1500, taxable: true, taxRatePpm: 60_000, discountBps: 1000 }),
      line({ name: 'Filter', unitPriceCents: 1999, quantityMilli: 3000, taxable: true, taxRatePpm: 60_000, discountCents: 100 }),
      line({ name: 'Labor', unitPriceCents: 9500, quantityMilli: 2000 }),
    ]);
    // 1.5 x 123.45 = 185.175 -> 18518; 10 % = 1852 -> 16666. 3 x 19.99 = 5997 - 100 = 5897. 19000 untaxed.
    expect(created.lines.map((entry) => entry.amountCents)).toEqual([16_666, 5897, 19_000]);
    expect(created.invoice.subtotalCents).toBe(41_563);
    // Tax once on the rate's taxable sum: 6 % of 22563 = 1353.78 -> 1354.
    expect(created.invoice.taxes).toEqual([{ label: 'Sales tax 6%', ratePpm: 60_000, taxableCents: 22_563, taxCents: 1354 }]);
    expect(created.invoice.totalCents).toBe(42_917);
    expect(created.invoice.status).toBe('draft');
    expect(created.invoice.invoiceNumber).toBeNull();
    expect((await stored(created.invoice.id)).total).toBe(42_917);
  });

  it('refuses a discount past its line and a negative total, storing nothing', async () => {
    const before = await count('invoices');
    const customerId = await customer();
    const tooMuch = await call('POST', '/api/admin/invoices', { customerId, lines: [line({ discountCents: 9000 })] });
    expect(tooMuch.statusCode).toBe(400);
    const negative = await call('POST', '/api/admin/invoices', { customerId, lines: [line({ unitPriceCents: -500 })] });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().error.message).toMatch(/cannot be negative/);
    expect(await count('invoices')).toBe(before);
  });

  it('edits a draft, and refuses to edit it once issued (409), leaving its lines as they were', async () => {
    const created = await draft([line()]);
    const edited = await call('PUT', `/api/admin/invoices/${created.invoice.id}`, { lines: [line({ unitPriceCents: 12_900 }), line({ name: 'Capacitor', unitPriceCents: 4500 })], notes: 'Thanks' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().invoice.totalCents).toBe(17_400);
    await call('POST', `/api/admin/invoices/${created.invoice.id}/issue`);
    const refused = await call('PUT', `/api/admin/invoices/${created.invoice.id}`, { lines: [line({ unitPriceCents: 1 })] }, dispatcher);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(invoiceMessages.notDraft);
    expect(await count('invoice_lines', 'invoice_id = $1', [created.invoice.id])).toBe(2);
    expect((await stored(created.invoice.id)).total).toBe(17_400);
  });

  it('will not issue a draft without lines', async () => {
    const created = await draft([]);
    const response = await call('POST', `/api/admin/invoices/${created.invoice.id}/issue`);
    expect(response.statusCode).toBe(409);
    expect((await stored(created.invoice.id)).status).toBe('draft');
  });
});

describe('from a completed work order', () => {
  async function workOrder(status: string) {
    const customerId = await customer('Marsh Family');
    const [row] = await context.database.query<{ id: string }>(
      `insert into work_orders (customer_id, title, service_date, status, service_type, completed_at) values ($1, 'AC not cooling', $2, $3, 'repair', now()) returning id`,
      [customerId, today, status],
    );
    return { id: row!.id, customerId };
  }

  it("starts from the work order's service and the technician's materials, priced from the price book by name", async () => {
    const { id, customerId } = await workOrder('completed');
    await context.database.query(
      `insert into visit_completions (work_order_id, summary, materials, completed_by_name, completed_at)
       values ($1, 'Replaced the run capacitor', $2::jsonb, 'Terry Tech', now())`,
      [id, JSON.stringify([{ description: 'Capacitor 45/5 MFD', quantity: 1 }, { description: 'Refrigerant R-410A (lb)', quantity: 2.5 }])],
    );
    await context.database.query(`insert into price_book_items (kind, code, name, price_cents, taxable) values ('part', 'CAP-45-5', 'Capacitor 45/5 MFD', 18500, true)`);
    const response = await call('POST', `/api/admin/work-orders/${id}/invoice`, undefined, dispatcher);
    expect(response.statusCode, response.body).toBe(201);
    const detail = invoiceDetailResponseSchema.parse(response.json());
    expect(detail.invoice.customerId).toBe(customerId);
    expect(detail.invoice.workOrderId).toBe(id);
    expect(detail.invoice.notes).toContain('Replaced the run capacitor');
    expect(detail.lines.map((entry) => [entry.kind, entry.name, entry.quantityMilli, entry.unitPriceCents])).toEqual([
      ['service', 'Repair service', 1000, 0],
      ['part', 'Capacitor 45/5 MFD', 1000, 18_500],
      ['part', 'Refrigerant R-410A (lb)', 2500, 0],
    ]);
    expect(detail.lines[1]!.code).toBe('CAP-45-5');
    expect(detail.invoice.totalCents).toBe(18_500);
  });

  it("refuses a draft for one customer that names another customer's work order", async () => {
    const { id } = await workOrder('completed');
    const response = await call('POST', '/api/admin/invoices', { customerId: await customer(), workOrderId: id, lines: [line()] });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(invoiceMessages.workOrderOtherCustomer);
  });

  it('refuses a work order that is not completed', async () => {
    const { id } = await workOrder('in-progress');
    const response = await call('POST', `/api/admin/work-orders/${id}/invoice`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe(invoiceMessages.workOrderNotCompleted);
    expect(await count('invoices', 'work_order_id = $1', [id])).toBe(0);
  });
});

describe('issuing', () => {
  it('gives the next number, today in the company zone, due after the default 30 days, and the bill-to of the customer', async () => {
    const created = await draft([line()]);
    await context.database.query(`update customers set name = 'Dana W. Whitfield', address = '9 Calhoun St' where id = $1`, [created.invoice.customerId]);
    const response = await call('POST', `/api/admin/invoices/${created.invoice.id}/issue`);
    const detail = invoiceDetailResponseSchema.parse(response.json());
    expect(detail.invoice.invoiceNumber).toMatch(/^INV-\d{6}$/);
    expect(detail.invoice.issuedOn).toBe(today);
    expect(detail.invoice.dueOn).toBe(addDays(today, 30));
    expect(detail.invoice.billingName).toBe('Dana W. Whitfield');
    expect(detail.invoice.billingAddressLines).toEqual(['9 Calhoun St', 'Bluffton, SC 29910']);
    expect(detail.history.map((entry) => entry.action)).toEqual(['send_queued', 'issued', 'created']);
    const again = await call('POST', `/api/admin/invoices/${created.invoice.id}/issue`);
    expect(again.statusCode).toBe(409);
  });

  it('takes the terms from billing settings when they exist', async () => {
    await context.database.query('insert into billing_settings (id, payment_terms_days) values (1, 15)');
    try {
      const detail = await issued([line()]);
      expect(detail.invoice.dueOn).toBe(addDays(today, 15));
    } finally {
      await context.database.query('delete from billing_settings');
    }
  });
});

describe('payments and refunds', () => {
  it('moves the status by the balance: partial cash, then the rest by check; an overpayment is refused and stores nothing', async () => {
    const detail = await issued([line({ unitPriceCents: 25_000 })]);
    const id = detail.invoice.id;
    const first = await pay(id, 10_000, {}, dispatcher);
    expect(first.statusCode, first.body).toBe(201);
    expect(paymentResponseSchema.parse(first.json()).invoice.status).toBe('partially_paid');
    expect(await stored(id)).toMatchObject({ status: 'partially_paid', paid: 10_000, balance: 15_000 });

    const over = await pay(id, 15_001, { method: 'check', reference: '1043' });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.message).toBe(invoiceMessages.overpayment('$150.00'));
    expect(await count('payments', 'invoice_id = $1', [id])).toBe(1);

    const noCheckNumber = await pay(id, 15_000, { method: 'check' });
    expect(noCheckNumber.statusCode).toBe(400);

    const rest = await pay(id, 15_000, { method: 'check', reference: '1043' });
    expect(rest.statusCode).toBe(201);
    expect(await stored(id)).toMatchObject({ status: 'paid', paid: 25_000, balance: 0 });
    const nothingOwed = await pay(id, 1);
    expect(nothingOwed.statusCode).toBe(409);

    const after = invoiceDetailResponseSchema.parse((await call('GET', `/api/admin/invoices/${id}`)).json());
    const document = billingDocumentFromDetail(after);
    expect(document.payments.map((entry) => [entry.label, entry.amountCents])).toEqual([
      ['Cash', 10_000],
      ['Check #1043', 15_000],
    ]);
    expect(document.balanceCents).toBe(0);
    expect(document.statusLabel).toBe('Paid');
  });

  it('refuses payments on a draft and on a void invoice', async () => {
    const created = await draft([line()]);
    expect((await pay(created.invoice.id, 100)).statusCode).toBe(409);
    const sent = await issued([line()]);
    await call('POST', `/api/admin/invoices/${sent.invoice.id}/void`, { reason: 'Entered twice' });
    expect((await pay(sent.invoice.id, 100)).statusCode).toBe(409);
    expect(await count('payments', 'invoice_id in ($1, $2)', [created.invoice.id, sent.invoice.id])).toBe(0);
  });

  it('records one payment for a repeated idempotency key', async () => {
    const detail = await issued([line({ unitPriceCents: 20_000 })]);
    const key = `retry-${detail.invoice.id}`;
    const [a, b] = await Promise.all([pay(detail.invoice.id, 5000, { idempotencyKey: key }), pay(detail.invoice.id, 5000, { idempotencyKey: key })]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().payment.id).toBe(b.json().payment.id);
    expect(await stored(detail.invoice.id)).toMatchObject({ paid: 5000, status: 'partially_paid' });
  });

  it('refunds never more than what is left of a payment; a refund moves the status back', async () => {
    const detail = await issued([line({ unitPriceCents: 10_000 })]);
    const id = detail.invoice.id;
    const paid = paymentResponseSchema.parse((await pay(id, 10_000, { method: 'card', reference: '4242' })).json());
    const refund = (amountCents: number, cookie = admin) =>
      call('POST', `/api/admin/invoices/${id}/payments/${paid.payment.id}/refunds`, { amountCents, receivedOn: today }, cookie);
    expect((await refund(3000, dispatcher)).statusCode).toBe(403);
    const partial = await refund(3000);
    expect(partial.statusCode, partial.body).toBe(201);
    expect(await stored(id)).toMatchObject({ status: 'partially_paid', paid: 7000, balance: 3000 });
    const tooMuch = await refund(7001);
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.message).toBe(invoiceMessages.refundTooMuch('$70.00'));
    expect((await refund(7000)).statusCode).toBe(201);
    expect(await stored(id)).toMatchObject({ status: 'sent', paid: 0, balance: 10_000 });
    expect(await count('payments', 'invoice_id = $1', [id])).toBe(3);
  });

  it('keeps payments append-only: the database refuses nothing here, but the API has no route to change or delete one', async () => {
    const detail = await issued([line()]);
    const paid = paymentResponseSchema.parse((await pay(detail.invoice.id, 100)).json());
    for (const method of ['PUT', 'DELETE'] as const) {
      const response = await call(method, `/api/admin/invoices/${detail.invoice.id}/payments/${paid.payment.id}`, method === 'PUT' ? { amountCents: 1 } : undefined);
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('void', () => {
  it('needs a reason, an admin, and no net payment', async () => {
    const detail = await issued([line()]);
    const id = detail.invoice.id;
    expect((await call('POST', `/api/admin/invoices/${id}/void`, { reason: '' })).statusCode).toBe(400);
    expect((await call('POST', `/api/admin/invoices/${id}/void`, { reason: 'Wrong customer' }, dispatcher)).statusCode).toBe(403);
    const paid = paymentResponseSchema.parse((await pay(id, 500)).json());
    const refused = await call('POST', `/api/admin/invoices/${id}/void`, { reason: 'Wrong customer' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(invoiceMessages.voidHasPayments);
    await call('POST', `/api/admin/invoices/${id}/payments/${paid.payment.id}/refunds`, { amountCents: 500, receivedOn: today });
    const voided = await call('POST', `/api/admin/invoices/${id}/void`, { reason: 'Wrong customer' });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json().invoice).toMatchObject({ status: 'void', voidReason: 'Wrong customer' });
    const [audit] = await context.database.query<{ n: string }>(`select count(*) as n from audit_log where entity_type = 'invoice' and entity_id = $1 and action = 'voided'`, [id]);
    expect(Number(audit!.n)).toBe(1);
  });

  it('refuses to void a draft', async () => {
    const created = await draft([line()]);
    expect((await call('POST', `/api/admin/invoices/${created.invoice.id}/void`, { reason: 'Not needed' })).statusCode).toBe(409);
  });
});

describe('credit notes', () => {
  it('issues a CN- numbered credit note, applies it as a payment of method credit_note, never crediting more than the total', async () => {
    const detail = await issued([line({ unitPriceCents: 20_000 })]);
    const id = detail.invoice.id;
    const credit = await call('POST', `/api/admin/invoices/${id}/credit-notes`, { lines: [line({ name: 'Goodwill credit', unitPriceCents: 5000 })], notes: 'Late arrival' });
    expect(credit.statusCode, credit.body).toBe(201);
    const note = invoiceDetailResponseSchema.parse(credit.json());
    expect(note.invoice).toMatchObject({ kind: 'credit_note', status: 'sent', totalCents: 5000, creditedInvoiceId: id, creditedInvoiceNumber: detail.invoice.invoiceNumber });
    expect(note.invoice.invoiceNumber).toMatch(/^CN-\d{6}$/);
    expect(billingDocumentFromDetail(note).references).toContain(`Credit for ${detail.invoice.invoiceNumber}`);

    const tooMuch = await call('POST', `/api/admin/invoices/${id}/credit-notes`, { fullCredit: true });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.message).toBe(invoiceMessages.creditTooMuch('$150.00'));

    const applied = await call('POST', `/api/admin/invoices/${id}/apply-credit`, { creditNoteId: note.invoice.id });
    expect(applied.statusCode, applied.body).toBe(200);
    const after = invoiceDetailResponseSchema.parse(applied.json());
    expect(after.invoice).toMatchObject({ status: 'partially_paid', paidCents: 5000, balanceCents: 15_000 });
    expect(after.payments).toMatchObject([{ method: 'credit_note', amountCents: 5000, creditNoteNumber: note.invoice.invoiceNumber }]);
    expect(after.creditNotes).toMatchObject([{ id: note.invoice.id, remainingCents: 0, status: 'paid' }]);
    expect((await call('POST', `/api/admin/invoices/${id}/apply-credit`, { creditNoteId: note.invoice.id })).statusCode).toBe(409);
    const refund = await call('POST', `/api/admin/invoices/${id}/payments/${after.payments[0]!.id}/refunds`, { amountCents: 100, receivedOn: today });
    expect(refund.statusCode).toBe(409);
  });

  it('a full credit of an unpaid invoice pays it off', async () => {
    const detail = await issued([line({ unitPriceCents: 7500, taxable: true, taxRatePpm: 80_000 })]);
    const credit = invoiceDetailResponseSchema.parse((await call('POST', `/api/admin/invoices/${detail.invoice.id}/credit-notes`, { fullCredit: true })).json());
    expect(credit.invoice.totalCents).toBe(detail.invoice.totalCents);
    await call('POST', `/api/admin/invoices/${detail.invoice.id}/apply-credit`, { creditNoteId: credit.invoice.id });
    expect(await stored(detail.invoice.id)).toMatchObject({ status: 'paid', balance: 0 });
  });
});

describe('the list and the A/R figures', () => {
  it('filters by status, overdue, customer and search, and pages on the server', async () => {
    const customerId = await customer('Zebulon Quarterman');
    const mine = await draft([line()], customerId);
    await call('POST', `/api/admin/invoices/${mine.invoice.id}/issue`);
    await context.database.query(`update invoices set due_on = $2 where id = $1`, [mine.invoice.id, addDays(today, -40)]);
    const list = (query: string) => call('GET', `/api/admin/invoices?${query}`).then((response) => invoiceListResponseSchema.parse(response.json()));

    const search = await list('search=quarterman');
    expect(search.invoices.map((row) => row.id)).toEqual([mine.invoice.id]);
    expect(search.invoices[0]).toMatchObject({ overdue: true, status: 'sent' });
    const overdue = await list('status=overdue');
    expect(overdue.invoices.every((row) => row.overdue)).toBe(true);
    expect(overdue.invoices.map((row) => row.id)).toContain(mine.invoice.id);
    expect((await list(`customerId=${customerId}`)).total).toBe(1);
    expect((await list('status=paid')).invoices.every((row) => row.status === 'paid')).toBe(true);

    const other = await customer('Ottoline Pagewright');
    for (let made = 0; made < 4; made++) await draft([line()], other);
    const all = await list('pageSize=2');
    expect(all.invoices).toHaveLength(2);
    const second = await list('pageSize=2&page=2');
    expect(second.invoices[0]!.id).not.toBe(all.invoices[0]!.id);
    expect(all.total).toBe(await count('invoices'));
    // Newest first, the order of the page's index (the page arrives as one JSON text, decision 026-a).
    const newest = (await list('pageSize=4')).invoices.map((row) => row.createdAt);
    expect(newest).toHaveLength(4);
    expect([...newest].sort().reverse()).toEqual(newest);
    // The totals are kept per snapshot: the next read after a commit counts the new invoice.
    await draft([line()], customerId);
    expect((await list('pageSize=2')).total).toBe(all.total + 1);
    expect((await list(`customerId=${customerId}`)).total).toBe(2);
    expect((await call('GET', '/api/admin/invoices?status=nope')).statusCode).toBe(400);
  });

  it('adds up unpaid, overdue, the aging buckets and this month’s money from the stored rows', async () => {
    const summary = () => call('GET', '/api/admin/invoices/summary').then((response) => receivablesSummarySchema.parse(response.json()));
    const before = await summary();
    const a = await issued([line({ unitPriceCents: 10_000 })]);
    const b = await issued([line({ unitPriceCents: 20_000 })]);
    const c = await issued([line({ unitPriceCents: 40_000 })]);
    await context.database.query(`update invoices set due_on = $2 where id = $1`, [a.invoice.id, addDays(today, -10)]);
    await context.database.query(`update invoices set due_on = $2 where id = $1`, [b.invoice.id, addDays(today, -75)]);
    await context.database.query(`update invoices set due_on = $2 where id = $1`, [c.invoice.id, addDays(today, -91)]);
    await pay(c.invoice.id, 1000);
    const after = await summary();
    expect(after.unpaidCents - before.unpaidCents).toBe(10_000 + 20_000 + 39_000);
    expect(after.overdueCents - before.overdueCents).toBe(69_000);
    expect(after.aging.days0to30 - before.aging.days0to30).toBe(10_000);
    expect(after.aging.days61to90 - before.aging.days61to90).toBe(20_000);
    expect(after.aging.days90plus - before.aging.days90plus).toBe(39_000);
    expect(after.paidThisMonthCents - before.paidThisMonthCents).toBe(1000);
    expect(after.aging.current + after.aging.days0to30 + after.aging.days31to60 + after.aging.days61to90 + after.aging.days90plus).toBe(after.unpaidCents);
    // A payment received last month is not this month's.
    await pay(b.invoice.id, 500, { receivedOn: addDays(monthStart(today), -1) });
    expect((await summary()).paidThisMonthCents).toBe(after.paidThisMonthCents);
  });
});

describe('customers with invoices', () => {
  it('refuses to delete a customer who has invoices with a clear 409, keeping both', async () => {
    const detail = await draft([line()]);
    const response = await call('DELETE', `/api/admin/customers/${detail.invoice.customerId}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toMatch(/invoices/i);
    expect(await count('customers', 'id = $1', [detail.invoice.customerId])).toBe(1);
  });
});
