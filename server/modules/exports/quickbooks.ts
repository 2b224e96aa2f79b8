import { formatCents, formatQuantity, formatTaxRate, lineAmounts } from '#shared/money.ts';
import { centsToCsvDollars } from '#shared/price-book.ts';
import { CsvNumberText, type CsvValue } from '#server/lib/csv.ts';
import type { QuickBooksInvoiceRow, QuickBooksLine } from './export.repository.ts';

/**
 * QuickBooks Online's invoice import (Settings > Import data > Invoices), decision 025-b and
 * docs/quickbooks-export.md: the column headers of Intuit's sample file for US companies, so the
 * import maps them without help (a star marks what QuickBooks requires). One record per invoice
 * line; the invoice's fields are repeated on each, and QuickBooks groups the records by InvoiceNo.
 */
export const quickBooksInvoiceColumns = [
  '*InvoiceNo',
  '*Customer',
  '*InvoiceDate',
  '*DueDate',
  'Terms',
  'Location',
  'Memo',
  'Item(Product/Service)',
  'ItemDescription',
  'ItemQuantity',
  'ItemRate',
  '*ItemAmount',
  'Taxable',
  'TaxRate',
  'Service Date',
] as const;

/** QuickBooks keeps at most this much of an invoice's message to the customer. */
export const quickBooksMemoLimit = 1000;

/** Dollars with two decimals ("-25.00"), written as a number. */
export const csvDollars = (cents: number | string) => new CsvNumberText(centsToCsvDollars(Number(cents)));

/** '2026-03-07' → '03/07/2026' (the US date order the import is told to read). */
export function quickBooksDate(isoDate: string | null): string {
  if (!isoDate) return '';
  const [year, month, day] = isoDate.split('-');
  return `${month}/${day}/${year}`;
}

/** The days from issue to due as one of QuickBooks' built-in terms, or blank (the due date alone says it). */
export function quickBooksTerms(issuedOn: string, dueOn: string): string {
  const days = Math.round((Date.parse(`${dueOn}T00:00:00Z`) - Date.parse(`${issuedOn}T00:00:00Z`)) / 86_400_000);
  if (days === 0) return 'Due on receipt';
  return [15, 30, 60].includes(days) ? `Net ${days}` : '';
}

/** "Work order WO-000123 - notes", cut to QuickBooks' limit. */
export function quickBooksMemo(workOrderNumber: string | null, notes: string): string {
  const memo = [workOrderNumber ? `Work order ${workOrderNumber}` : '', notes.trim()].filter(Boolean).join(' - ');
  return memo.length > quickBooksMemoLimit ? `${memo.slice(0, quickBooksMemoLimit - 1)}…` : memo;
}

/**
 * A line's description, and whether it was discounted. A discounted line goes to QuickBooks as its
 * amount after the discount, without a rate (QuickBooks works the rate out from amount and
 * quantity), and its description says what was taken off, so the invoice adds up exactly as ours.
 */
function lineDescription(line: QuickBooksLine): { text: string; isDiscounted: boolean } {
  const base = line.description.trim() || line.name;
  const { grossCents } = lineAmounts(line);
  const discount = grossCents - line.amountCents;
  if (discount === 0) return { text: base, isDiscounted: false };
  return { text: `${base} (${formatQuantity(line.quantityMilli)} x ${formatCents(line.unitPriceCents)}, less a ${formatCents(discount)} discount)`, isDiscounted: true };
}

/** The records of one issued invoice, one per line, in the columns' order. */
export function quickBooksRecords(invoice: QuickBooksInvoiceRow): CsvValue[][] {
  const head = [
    invoice.number,
    invoice.customer,
    quickBooksDate(invoice.issuedOn),
    quickBooksDate(invoice.dueOn),
    quickBooksTerms(invoice.issuedOn, invoice.dueOn),
    '',
    quickBooksMemo(invoice.workOrderNumber, invoice.notes),
  ];
  return invoice.lines.map((line) => {
    const { text, isDiscounted } = lineDescription(line);
    return [
      ...head,
      line.name,
      text,
      new CsvNumberText(formatQuantity(line.quantityMilli)),
      isDiscounted ? '' : csvDollars(line.unitPriceCents),
      csvDollars(line.amountCents),
      line.taxable ? 'Y' : 'N',
      line.taxable ? formatTaxRate(line.taxRatePpm) : '',
      quickBooksDate(invoice.serviceDate),
    ];
  });
}
