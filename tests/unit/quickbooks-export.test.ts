import { describe, expect, it } from 'vitest';
import { csvRecord } from '#server/lib/csv.ts';
import type { QuickBooksInvoiceRow, QuickBooksLine } from '#server/modules/exports/export.repository.ts';
import { csvDollars, quickBooksDate, quickBooksInvoiceColumns, quickBooksMemo, quickBooksMemoLimit, quickBooksRecords, quickBooksTerms } from '#server/modules/exports/quickbooks.ts';

// The QuickBooks Online invoice file's mapping (decision 025-b, docs/quickbooks-export.md), value by value.

const line = (values: Partial<QuickBooksLine> = {}): QuickBooksLine => ({
  name: 'Service call',
  description: '',
  quantityMilli: 1000,
  unitPriceCents: 8900,
  discountBps: 0,
  discountCents: 0,
  taxable: false,
  taxRatePpm: 0,
  amountCents: 8900,
  ...values,
});

const invoice = (lines: QuickBooksLine[], values: Partial<QuickBooksInvoiceRow> = {}): QuickBooksInvoiceRow => ({
  id: '00000000-0000-4000-8000-000000000001',
  cursor: '2026-03-01 12:00:00+00',
  number: 'INV-000042',
  customer: 'Dana Whitfield',
  issuedOn: '2026-03-01',
  dueOn: '2026-03-31',
  notes: '',
  workOrderNumber: null,
  serviceDate: null,
  subtotalCents: '0',
  lines,
  ...values,
});

describe('QuickBooks values', () => {
  it('writes dates month first', () => {
    expect(quickBooksDate('2026-03-07')).toBe('03/07/2026');
    expect(quickBooksDate('2027-12-31')).toBe('12/31/2027');
    expect(quickBooksDate(null)).toBe('');
  });

  it("names QuickBooks' built-in terms from the days between issue and due, else leaves Terms blank", () => {
    expect(quickBooksTerms('2026-03-01', '2026-03-01')).toBe('Due on receipt');
    expect(quickBooksTerms('2026-03-01', '2026-03-16')).toBe('Net 15');
    expect(quickBooksTerms('2026-03-01', '2026-03-31')).toBe('Net 30');
    // Across the spring clock change and a leap day: whole days all the same.
    expect(quickBooksTerms('2028-02-01', '2028-04-01')).toBe('Net 60');
    expect(quickBooksTerms('2026-03-01', '2026-03-15')).toBe('');
  });

  it('puts the work order before the notes and keeps the memo within what QuickBooks stores', () => {
    expect(quickBooksMemo('WO-10001', ' Gate code 12 ')).toBe('Work order WO-10001 - Gate code 12');
    expect(quickBooksMemo(null, '')).toBe('');
    const long = quickBooksMemo(null, 'x'.repeat(4000));
    expect(long).toHaveLength(quickBooksMemoLimit);
    expect(long.endsWith('…')).toBe(true);
  });

  it('writes dollars with two decimals as numbers, negatives without an apostrophe', () => {
    expect(csvRecord([csvDollars(-2500), csvDollars('5'), csvDollars(123_456)])).toBe('-25.00,0.05,1234.56\r\n');
  });
});

describe('QuickBooks records', () => {
  it('repeats the invoice on each line, with quantity, rate, amount, taxable flag and rate', () => {
    const records = quickBooksRecords(
      invoice(
        [
          line({ name: 'Diagnostic', description: 'Find the fault', taxable: true, taxRatePpm: 70_000 }),
          line({ name: 'Labor', quantityMilli: 1250, unitPriceCents: 9500, amountCents: 11_875 }),
          line({ name: 'Coupon', unitPriceCents: -2500, amountCents: -2500 }),
        ],
        { workOrderNumber: 'WO-10001', serviceDate: '2026-02-27' },
      ),
    ).map((record) => csvRecord(record));
    expect(quickBooksInvoiceColumns).toHaveLength(15);
    expect(records).toEqual([
      'INV-000042,Dana Whitfield,03/01/2026,03/31/2026,Net 30,,Work order WO-10001,Diagnostic,Find the fault,1,89.00,89.00,Y,7%,02/27/2026\r\n',
      'INV-000042,Dana Whitfield,03/01/2026,03/31/2026,Net 30,,Work order WO-10001,Labor,Labor,1.25,95.00,118.75,N,,02/27/2026\r\n',
      'INV-000042,Dana Whitfield,03/01/2026,03/31/2026,Net 30,,Work order WO-10001,Coupon,Coupon,1,-25.00,-25.00,N,,02/27/2026\r\n',
    ]);
  });

  it('writes a discounted line as its amount after the discount, without a rate, and says what was taken off', () => {
    const [record] = quickBooksRecords(invoice([line({ name: 'Filter', quantityMilli: 3000, unitPriceCents: 1999, discountBps: 1000, discountCents: 100, amountCents: 5297 })]));
    // 3 x 19.99 = 59.97; 10 % = 6.00 (5.997 rounded); 1.00 more: 52.97.
    expect(csvRecord(record!)).toBe('INV-000042,Dana Whitfield,03/01/2026,03/31/2026,Net 30,,,Filter,"Filter (3 x $19.99, less a $7.00 discount)",3,,52.97,N,,\r\n');
  });
});
