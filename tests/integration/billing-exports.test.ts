import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '#shared/dates.ts';
import { exportMessages, exportUrl, type ExportKind, type ExportRange } from '#shared/exports.ts';
import type { DocumentLineInput } from '#shared/document-line.ts';
import { invoiceDetailResponseSchema, paymentResponseSchema, type InvoiceDetailResponse } from '#shared/invoice.ts';
import { parseCsv } from '#server/lib/csv.ts';
import { createStaff, signIn, createTestApp, type TestContext } from '#tests/support/test-app.ts';

// The billing CSVs of Settings > Export & backup (issue 20, decision 025-b) on a real database:
// invoices, payments and refunds made through the invoices API (its service and rules), then
// downloaded and read back as a spreadsheet would: headers, rows, dollars, quoting, formula
// neutralisation, the date ranges, QuickBooks Online's one-record-per-line layout, admins only,
// and paging across several pages.
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

const call = (method: 'GET' | 'POST', url: string, payload?: object, cookie = admin) =>
  context.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload }) });

async function customer(name: string): Promise<string> {
  const [row] = await context.database.query<{ id: string }>(
    `insert into customers (name, phone, address, city, state, zip, email) values ($1, '(843) 555-0199', '1 May River Rd', 'Bluffton', 'SC', '29910', 'billing@example.com') returning id`,
    [name],
  );
  return row!.id;
}

async function draft(customerId: string, lines: DocumentLineInput[], extra: { workOrderId?: string; notes?: string } = {}): Promise<InvoiceDetailResponse> {
  const response = await call('POST', '/api/admin/invoices', { customerId, lines, ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return invoiceDetailResponseSchema.parse(response.json());
}

async function issue(id: string): Promise<string> {
  const response = await call('POST', `/api/admin/invoices/${id}/issue`);
  expect(response.statusCode, response.body).toBe(200);
  const [row] = await context.database.query<{ invoice_number: string }>('select invoice_number from invoices where id = $1', [id]);
  return row!.invoice_number;
}

async function pay(id: string, body: object): Promise<string> {
  const response = await call('POST', `/api/admin/invoices/${id}/payments`, body);
  expect(response.statusCode, response.body).toBe(201);
  return paymentResponseSchema.parse(response.json()).payment.id;
}

/** The file as a spreadsheet reads it: the byte-order mark, then records keyed by the header. */
function tableOf(body: string): { header: string[]; rows: Record<string, string>[] } {
  expect(body.startsWith('\uFEFF')).toBe(true);
  // Every record ends with CRLF (a bare LF only inside a quoted field).
  expect(body.endsWith('\r\n')).toBe(true);
  const [header, ...records] = parseCsv(body).map((record) => record.fields);
  return {
    header: header!,
    rows: records.map((fields) => {
      expect(fields).toHaveLength(header!.length);
      return Object.fromEntries(header!.map((name, index) => [name, fields[index]!]));
    }),
  };
}

async function download(kind: ExportKind, range: ExportRange = {}, cookie = admin) {
  const response = await call('GET', exportUrl(kind, range), undefined, cookie);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(response.headers['cache-control']).toBe('no-store');
  return response;
}

/** MM/DD/YYYY, as the QuickBooks file writes dates. */
const us = (isoDate: string) => `${isoDate.slice(5, 7)}/${isoDate.slice(8, 10)}/${isoDate.slice(0, 4)}`;

const acmeName = '=Acme "Heating", LLC';
const acmeNotes = 'Thanks, "neighbor"\nSee you in spring';
const capacitorDescription = 'Dual run capacitor, 45/5 µF\n"OEM" part';
const firstPaymentOn = '2026-01-15';
const secondPaymentOn = '2026-02-20';

describe('billing exports', () => {
  let acmeNumber: string;
  let voidNumber: string;
  let dNumber: string;
  let creditNumber: string;
  let workOrderNumber: string;
  let secondPaymentId: string;

  beforeAll(async () => {
    const acme = await customer(acmeName);
    const dana = await customer('Dana Whitfield');
    const [workOrder] = await context.database.query<{ id: string; work_order_number: string }>(
      `insert into work_orders (customer_id, title, service_date, status, completed_at)
       values ($1, 'Spring tune-up', '2026-03-04', 'completed', '2026-03-05T15:00:00Z') returning id, work_order_number`,
      [acme],
    );
    workOrderNumber = workOrder!.work_order_number;

    // A: three lines (one discounted, one untaxed), partly paid, one payment partly refunded.
    // 89.00 + (2 x 24.50 - 10 %) 44.10 + 1.5 x 95.00 142.50 = 275.60; 6 % of 133.10 = 7.986 -> 7.99; total 283.59.
    const a = await draft(
      acme,
      [
        { name: 'Diagnostic visit', quantityMilli: 1000, unitPriceCents: 8900, taxable: true, taxRatePpm: 60_000 },
        { name: 'Capacitor 45/5', description: capacitorDescription, quantityMilli: 2000, unitPriceCents: 2450, discountBps: 1000, taxable: true, taxRatePpm: 60_000 },
        { name: 'Labor', quantityMilli: 1500, unitPriceCents: 9500 },
      ],
      { workOrderId: workOrder!.id, notes: acmeNotes },
    );
    expect(a.invoice.totalCents).toBe(28_359);
    acmeNumber = await issue(a.invoice.id);
    await pay(a.invoice.id, { method: 'check', amountCents: 10_000, receivedOn: firstPaymentOn, reference: '-1234', note: 'First, "partial"' });
    secondPaymentId = await pay(a.invoice.id, { method: 'cash', amountCents: 5000, receivedOn: secondPaymentOn });
    const refund = await call('POST', `/api/admin/invoices/${a.invoice.id}/payments/${secondPaymentId}/refunds`, { amountCents: 2000, receivedOn: secondPaymentOn, note: 'Overcharge' });
    expect(refund.statusCode, refund.body).toBe(201);

    // B: a draft. C: issued, then voided. D: paid in part by a credit note.
    await draft(dana, [{ name: 'Filter', quantityMilli: 1000, unitPriceCents: 1999 }]);
    const c = await draft(dana, [{ name: 'Duct cleaning', quantityMilli: 1000, unitPriceCents: 30_000 }]);
    voidNumber = await issue(c.invoice.id);
    const voided = await call('POST', `/api/admin/invoices/${c.invoice.id}/void`, { reason: `Entered twice, see ${acmeNumber}` });
    expect(voided.statusCode, voided.body).toBe(200);
    // 150.00 + 2 x 19.99 = 189.98; 8.875 % of 39.98 = 3.548 -> 3.55; total 193.53.
    const d = await draft(dana, [
      { name: 'Tune-up', quantityMilli: 1000, unitPriceCents: 15_000 },
      { name: 'Filter', quantityMilli: 2000, unitPriceCents: 1999, taxable: true, taxRatePpm: 88_750 },
    ]);
    dNumber = await issue(d.invoice.id);
    const credit = await call('POST', `/api/admin/invoices/${d.invoice.id}/credit-notes`, { fullCredit: false, lines: [{ name: 'Goodwill', quantityMilli: 1000, unitPriceCents: 2500 }] });
    expect(credit.statusCode, credit.body).toBe(201);
    const creditNote = invoiceDetailResponseSchema.parse(credit.json());
    creditNumber = creditNote.invoice.invoiceNumber!;
    const applied = await call('POST', `/api/admin/invoices/${d.invoice.id}/apply-credit`, { creditNoteId: creditNote.invoice.id });
    expect(applied.statusCode, applied.body).toBe(200);
  });

  it('invoices: one row per invoice and credit note, drafts included, money in dollars, text neutralised and quoted', async () => {
    const response = await download('invoices');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="invoices-${today}.csv"`);
    const { header, rows } = tableOf(response.body);
    expect(header).toEqual([
      'Number',
      'Kind',
      'Status',
      'Customer',
      'Issued on',
      'Due on',
      'Subtotal',
      'Discounts (in subtotal)',
      'Tax',
      'Total',
      'Paid',
      'Balance',
      'Work order',
      'Credits invoice',
      'Replaces invoice',
      'Void reason',
      'Created (America/New_York)',
      'Customer ID',
      'Invoice ID',
    ]);
    expect(rows.map((row) => [row.Number, row.Kind, row.Status])).toEqual([
      [acmeNumber, 'invoice', 'partially_paid'],
      ['', 'invoice', 'draft'],
      [voidNumber, 'invoice', 'void'],
      [dNumber, 'invoice', 'partially_paid'],
      [creditNumber, 'credit note', 'paid'],
    ]);
    expect(rows[0]).toMatchObject({
      Customer: `'${acmeName}`,
      'Issued on': today,
      'Due on': addDays(today, 30),
      Subtotal: '275.60',
      'Discounts (in subtotal)': '4.90',
      Tax: '7.99',
      Total: '283.59',
      Paid: '130.00',
      Balance: '153.59',
      'Work order': workOrderNumber,
      'Void reason': '',
    });
    expect(rows[1]).toMatchObject({ Customer: 'Dana Whitfield', 'Issued on': '', 'Due on': '', Total: '19.99', Paid: '0.00', Balance: '19.99' });
    expect(rows[2]).toMatchObject({ 'Void reason': `Entered twice, see ${acmeNumber}`, Total: '300.00', Paid: '0.00' });
    expect(rows[3]).toMatchObject({ Subtotal: '189.98', Tax: '3.55', Total: '193.53', Paid: '25.00', Balance: '168.53' });
    expect(rows[4]).toMatchObject({ 'Credits invoice': dNumber, Total: '25.00', Paid: '25.00', Balance: '0.00' });
    // The raw text: the neutralised name quoted with its quotes doubled, amounts bare.
    expect(response.body).toContain(`,"'=Acme ""Heating"", LLC",${today},${addDays(today, 30)},275.60,4.90,7.99,283.59,130.00,153.59,${workOrderNumber},`);
    expect(response.body).toContain(`,"Entered twice, see ${acmeNumber}",`);
  });

  it('invoices: a range keeps those issued in it, so drafts are left out; the file is named by its range', async () => {
    const inRange = await download('invoices', { from: today, to: today });
    expect(inRange.headers['content-disposition']).toBe(`attachment; filename="invoices-${today}-to-${today}.csv"`);
    expect(tableOf(inRange.body).rows.map((row) => row.Number)).toEqual([acmeNumber, voidNumber, dNumber, creditNumber]);
    const before = await download('invoices', { to: addDays(today, -1) });
    expect(before.headers['content-disposition']).toBe(`attachment; filename="invoices-beginning-to-${addDays(today, -1)}.csv"`);
    expect(tableOf(before.body).rows).toEqual([]);
    expect(tableOf((await download('invoices', { from: addDays(today, 1) })).body).rows).toEqual([]);
  });

  it('refuses a reversed or malformed range with 400 before reading anything', async () => {
    for (const kind of ['invoices', 'payments', 'quickbooks-invoices'] as const) {
      const reversed = await call('GET', exportUrl(kind, { from: today, to: addDays(today, -1) }));
      expect(reversed.statusCode, kind).toBe(400);
      expect(reversed.body).toContain(exportMessages.rangeReversed);
      const malformed = await call('GET', `${exportUrl(kind)}?from=2026-02-30`);
      expect(malformed.statusCode, kind).toBe(400);
      expect(malformed.body).toContain(exportMessages.invalidDate);
    }
    // Blank ends are no range (a form that sends from=&to=).
    expect(tableOf((await call('GET', `${exportUrl('invoices')}?from=&to=`)).body).rows).toHaveLength(5);
  });

  it('payments: payments, refunds and credit applied by the date received, with a signed net amount', async () => {
    const response = await download('payments');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="payments-${today}.csv"`);
    const { header, rows } = tableOf(response.body);
    expect(header).toEqual([
      'Received on',
      'Invoice',
      'Customer',
      'Kind',
      'Method',
      'Reference',
      'Amount',
      'Net amount',
      'Credit note',
      'Note',
      'Recorded by',
      'Recorded (America/New_York)',
      'Payment ID',
      'Refund of payment ID',
    ]);
    expect(rows.map((row) => row['Received on'])).toEqual([firstPaymentOn, secondPaymentOn, secondPaymentOn, today]);
    expect(rows[0]).toMatchObject({
      Invoice: acmeNumber,
      Customer: `'${acmeName}`,
      Kind: 'payment',
      Method: 'check',
      Reference: "'-1234",
      Amount: '100.00',
      'Net amount': '100.00',
      Note: 'First, "partial"',
      'Recorded by': 'Pat Staff',
    });
    const sameDay = rows.slice(1, 3);
    const refund = sameDay.find((row) => row.Kind === 'refund')!;
    expect(refund).toMatchObject({ Method: 'cash', Amount: '20.00', 'Net amount': '-20.00', Note: 'Overcharge', 'Refund of payment ID': secondPaymentId });
    expect(sameDay.find((row) => row.Kind === 'payment')).toMatchObject({ Amount: '50.00', 'Net amount': '50.00', 'Payment ID': secondPaymentId });
    expect(rows[3]).toMatchObject({ Invoice: dNumber, Kind: 'payment', Method: 'credit_note', 'Credit note': creditNumber, Amount: '25.00' });
    // A negative amount is a number, not a formula: no apostrophe.
    expect(response.body).toMatch(/,cash,,20\.00,-20\.00,,Overcharge,Pat Staff,/);
    // The net column adds up to what the invoices were paid.
    const net = rows.reduce((sum, row) => sum + Math.round(Number(row['Net amount']) * 100), 0);
    expect(net).toBe(13_000 + 2500);
  });

  it('payments: a range keeps those received in it, both days included', async () => {
    const rows = tableOf((await download('payments', { from: secondPaymentOn, to: secondPaymentOn })).body).rows;
    expect(rows.map((row) => row.Kind).sort()).toEqual(['payment', 'refund']);
    expect(tableOf((await download('payments', { from: '2026-01-16', to: '2026-02-19' })).body).rows).toEqual([]);
    expect(tableOf((await download('payments', { from: firstPaymentOn, to: secondPaymentOn })).body).rows).toHaveLength(3);
  });

  it("quickbooks: QuickBooks Online's import layout, issued invoices only, one record per line with the invoice repeated", async () => {
    const response = await download('quickbooks-invoices');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="quickbooks-invoices-${today}.csv"`);
    expect(response.body.split('\r\n')[0]).toBe(
      '\uFEFF*InvoiceNo,*Customer,*InvoiceDate,*DueDate,Terms,Location,Memo,Item(Product/Service),ItemDescription,ItemQuantity,ItemRate,*ItemAmount,Taxable,TaxRate,Service Date',
    );
    const { rows } = tableOf(response.body);
    // Not the draft, the void invoice or the credit note.
    expect(rows.map((row) => row['*InvoiceNo'])).toEqual([acmeNumber, acmeNumber, acmeNumber, dNumber, dNumber]);
    const invoiceFields = {
      '*Customer': `'${acmeName}`,
      '*InvoiceDate': us(today),
      '*DueDate': us(addDays(today, 30)),
      Terms: 'Net 30',
      Location: '',
      Memo: `Work order ${workOrderNumber} - ${acmeNotes}`,
      'Service Date': '03/05/2026',
    };
    expect(rows.slice(0, 3).map((row) => ({ ...row }))).toEqual([
      { '*InvoiceNo': acmeNumber, ...invoiceFields, 'Item(Product/Service)': 'Diagnostic visit', ItemDescription: 'Diagnostic visit', ItemQuantity: '1', ItemRate: '89.00', '*ItemAmount': '89.00', Taxable: 'Y', TaxRate: '6%' },
      {
        '*InvoiceNo': acmeNumber,
        ...invoiceFields,
        'Item(Product/Service)': 'Capacitor 45/5',
        ItemDescription: `${capacitorDescription} (2 x $24.50, less a $4.90 discount)`,
        ItemQuantity: '2',
        ItemRate: '',
        '*ItemAmount': '44.10',
        Taxable: 'Y',
        TaxRate: '6%',
      },
      { '*InvoiceNo': acmeNumber, ...invoiceFields, 'Item(Product/Service)': 'Labor', ItemDescription: 'Labor', ItemQuantity: '1.5', ItemRate: '95.00', '*ItemAmount': '142.50', Taxable: 'N', TaxRate: '' },
    ]);
    expect(rows[4]).toMatchObject({ '*Customer': 'Dana Whitfield', Memo: '', 'Service Date': '', ItemQuantity: '2', ItemRate: '19.99', '*ItemAmount': '39.98', Taxable: 'Y', TaxRate: '8.875%' });
    // Each invoice's line amounts add up to its subtotal, as QuickBooks will add them.
    const sum = (number: string) => rows.filter((row) => row['*InvoiceNo'] === number).reduce((total, row) => total + Math.round(Number(row['*ItemAmount']) * 100), 0);
    expect(sum(acmeNumber)).toBe(27_560);
    expect(sum(dNumber)).toBe(18_998);
    // The line break inside a description stays inside its quoted field.
    expect(response.body).toContain(`,"Dual run capacitor, 45/5 µF\n""OEM"" part (2 x $24.50, less a $4.90 discount)",2,,44.10,Y,6%,03/05/2026\r\n`);
  });

  it('quickbooks: a range keeps the invoices issued in it', async () => {
    expect(tableOf((await download('quickbooks-invoices', { from: today })).body).rows).toHaveLength(5);
    expect(tableOf((await download('quickbooks-invoices', { to: addDays(today, -1) })).body).rows).toEqual([]);
  });

  it('is for admins only: a dispatcher is refused (403) and nobody signed out gets in (401)', async () => {
    for (const kind of ['invoices', 'payments', 'quickbooks-invoices'] as const) {
      const refused = await call('GET', exportUrl(kind), undefined, dispatcher);
      expect(refused.statusCode, kind).toBe(403);
      expect(refused.body).not.toContain(acmeNumber);
      const anonymous = await context.app.inject({ method: 'GET', url: exportUrl(kind) });
      expect(anonymous.statusCode, kind).toBe(401);
    }
  });
});

describe('billing exports over several pages', () => {
  it('reads every invoice once across pages, even when they share one creation time', { timeout: 120_000 }, async () => {
    const customerId = await customer('Bulk Customer');
    // 1,200 issued invoices of two lines each, all created in the same microsecond: the pages
    // (1,000 rows; 250 invoices for QuickBooks) go on by id.
    await context.database.query(
      `insert into invoices (kind, invoice_number, customer_id, status, issued_on, due_on, billing_name, subtotal_cents, total_cents, created_at)
       select 'invoice', 'BULK-' || lpad(n::text, 5, '0'), $1, 'sent', $2::date, $2::date + 30, 'Bulk Customer', 300, 300, timestamptz '2025-06-01 12:00:00+00'
         from generate_series(1, 1200) as n`,
      [customerId, today],
    );
    await context.database.query(
      `insert into invoice_lines (invoice_id, position, name, quantity_milli, unit_price_cents, amount_cents)
       select i.id, p, 'Part ' || p, 1000, p * 100, p * 100 from invoices i cross join generate_series(1, 2) as p where i.invoice_number like 'BULK-%'`,
    );
    const invoices = tableOf((await download('invoices')).body).rows.filter((row) => row.Number!.startsWith('BULK-'));
    expect(invoices).toHaveLength(1200);
    expect(new Set(invoices.map((row) => row.Number)).size).toBe(1200);
    const lines = tableOf((await download('quickbooks-invoices')).body).rows.filter((row) => row['*InvoiceNo']!.startsWith('BULK-'));
    expect(lines).toHaveLength(2400);
    expect(new Set(lines.map((row) => `${row['*InvoiceNo']}/${row['Item(Product/Service)']}`)).size).toBe(2400);
    // An invoice's lines stay together and in order.
    expect(lines.slice(0, 2).map((row) => [row['*InvoiceNo'], row['Item(Product/Service)']])).toEqual([
      [lines[0]!['*InvoiceNo'], 'Part 1'],
      [lines[0]!['*InvoiceNo'], 'Part 2'],
    ]);
  });
});
