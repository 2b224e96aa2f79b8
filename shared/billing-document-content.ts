import type { BillingDocument, BillingDocumentKind } from './billing-document.ts';
import { formatCents, formatQuantity, formatTaxRate } from './money.ts';

// The printed words and figures of a billing document (issue 20): every label and formatted
// value, in reading order, without layout. The PDF (server/lib/billing-pdf) prints exactly these
// strings, and the web page can render the same, so the two say the same thing; the PDF tests
// read the PDF's text back and look for them (decision 024-d).

export const billingDocumentTitles: Record<BillingDocumentKind, string> = {
  invoice: 'Invoice',
  credit_note: 'Credit note',
  quote: 'Quote',
};

const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "Nov 27, 2026" for "2026-11-27" (a calendar date: formatted in UTC, so no zone shifts the day). */
export function formatDocumentDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : dateFormat.format(date);
}

export type LabelledValue = { label: string; value: string };

export type BillingContentLine = {
  code: string;
  name: string;
  description: string;
  quantity: string;
  unitPrice: string;
  /** Empty when the line has no discount. */
  discount: string;
  amount: string;
  taxable: boolean;
};

export type BillingContentTotal = LabelledValue & {
  /** `total` and `balance` are the emphasised rows; `note` is explanatory (the discounts inside the subtotal). */
  kind: 'amount' | 'note' | 'total' | 'payment' | 'balance';
};

export type BillingDocumentContent = {
  title: string;
  number: string;
  status: string;
  /** Issued / Due / Valid until, the ones the document has. */
  dates: LabelledValue[];
  company: { name: string; lines: string[] };
  billTo: { label: string; name: string; lines: string[] };
  serviceAddress?: { label: string; lines: string[] };
  references: string[];
  lineHeadings: { code: string; item: string; quantity: string; unitPrice: string; discount: string; amount: string };
  lines: BillingContentLine[];
  /** Subtotal, the discounts note, each tax, the total, then each payment and the balance. */
  totals: BillingContentTotal[];
  notes?: string;
  footer?: string;
};

function partyLines(party: { addressLines: string[]; phone?: string; email?: string }, extra: (string | undefined)[] = []): string[] {
  return [...party.addressLines, party.phone, party.email, ...extra].filter((line): line is string => line !== undefined && line.trim() !== '');
}

/** A negative amount as the money rule formats it ("-$12.00"), for discounts and payments taken off. */
function minus(cents: number): string {
  return formatCents(-cents);
}

function balanceLabel(kind: BillingDocumentKind, balanceCents: number): string {
  if (kind === 'credit_note') return 'Credit balance';
  return balanceCents < 0 ? 'Credit due to you' : 'Balance due';
}

/** What a billing document prints, as strings (see the file comment). */
export function billingDocumentContent(document: BillingDocument): BillingDocumentContent {
  const dates: LabelledValue[] = [];
  if (document.issuedOn) dates.push({ label: document.kind === 'quote' ? 'Date' : 'Issued', value: formatDocumentDate(document.issuedOn) });
  if (document.dueOn) dates.push({ label: 'Due', value: formatDocumentDate(document.dueOn) });
  if (document.validUntil) dates.push({ label: 'Valid until', value: formatDocumentDate(document.validUntil) });

  const totals: BillingContentTotal[] = [{ kind: 'amount', label: 'Subtotal', value: formatCents(document.subtotalCents) }];
  if (document.discountCents !== 0) totals.push({ kind: 'note', label: 'Discounts included', value: minus(document.discountCents) });
  for (const tax of document.taxes) {
    totals.push({ kind: 'amount', label: `${tax.label} (${formatTaxRate(tax.ratePpm)} on ${formatCents(tax.taxableCents)})`, value: formatCents(tax.taxCents) });
  }
  totals.push({ kind: 'total', label: document.kind === 'credit_note' ? 'Total credit' : 'Total', value: formatCents(document.totalCents) });
  for (const payment of document.payments) {
    totals.push({ kind: 'payment', label: `${payment.amountCents < 0 ? 'Refund' : 'Paid'} ${formatDocumentDate(payment.receivedOn)} · ${payment.label}`, value: minus(payment.amountCents) });
  }
  if (document.balanceCents !== undefined && document.kind !== 'quote') {
    totals.push({ kind: 'balance', label: balanceLabel(document.kind, document.balanceCents), value: formatCents(Math.abs(document.balanceCents)) });
  }

  return {
    title: billingDocumentTitles[document.kind],
    number: document.number,
    status: document.statusLabel,
    dates,
    company: { name: document.company.name, lines: partyLines(document.company, [document.company.website]) },
    billTo: { label: document.kind === 'quote' ? 'Prepared for' : 'Bill to', name: document.customer.name, lines: partyLines(document.customer) },
    ...(document.serviceAddressLines?.length ? { serviceAddress: { label: 'Service address', lines: document.serviceAddressLines.filter((line) => line.trim() !== '') } } : {}),
    references: document.references.filter((reference) => reference.trim() !== ''),
    lineHeadings: { code: 'Code', item: 'Item', quantity: 'Qty', unitPrice: 'Unit price', discount: 'Discount', amount: 'Amount' },
    lines: document.lines.map((line) => ({
      code: line.code ?? '',
      name: line.name,
      description: line.description ?? '',
      quantity: formatQuantity(line.quantityMilli),
      unitPrice: formatCents(line.unitPriceCents),
      discount: line.discountCents === 0 ? '' : minus(line.discountCents),
      amount: formatCents(line.amountCents),
      taxable: line.taxable,
    })),
    totals,
    ...(document.notes?.trim() ? { notes: document.notes.trim() } : {}),
    ...(document.footer?.trim() ? { footer: document.footer.trim() } : {}),
  };
}
