import { z } from 'zod';
import { billingPartySchema, type BillingDocument, type BillingParty } from './billing-document.ts';
import { isValidIsoDate } from './dates.ts';
import { invoiceKinds, invoiceStatuses, paymentKinds, paymentMethods, type InvoiceStatus, type PaymentMethod } from './enums.ts';
import { documentLineSchema, documentLinesSchema } from './document-line.ts';
import { documentTotals, formatTaxRate } from './money.ts';

// Invoices, credit notes and payments for the office (issue 20, decision 024-g): one zod contract
// per API, used by the routes (server/modules/invoices) and the screens (app/features/invoices).
// Money is integer cents, quantities thousandths, tax rates ppm (shared/money.ts, decision 024-c).

export const invoicePageSize = 50;

const isoDate = z.string().refine(isValidIsoDate, 'Enter a date as YYYY-MM-DD');
const optionalText = (max: number) => z.string().trim().max(max).default('');

export const invoiceMessages = {
  notFound: 'Invoice not found.',
  customerNotFound: 'Customer not found.',
  workOrderNotFound: 'Work order not found.',
  workOrderNotCompleted: 'Only a completed work order can be invoiced.',
  workOrderOtherCustomer: "That work order is another customer's.",
  notDraft: 'This invoice has been issued and can no longer be edited. Correct it with a credit note, or void it and create a new one.',
  notIssued: 'Only an issued invoice can take payments.',
  alreadyIssued: 'This invoice has already been issued.',
  noLines: 'Add at least one line before issuing.',
  voidHasPayments: 'This invoice has payments. Refund them (or apply nothing) before voiding it.',
  voidNotIssued: 'Only an issued invoice can be voided; delete a draft instead.',
  alreadyVoid: 'This invoice is already void.',
  overpayment: (balance: string) => `That is more than the balance due (${balance}). Record at most the balance.`,
  zeroBalance: 'Nothing is owed on this invoice.',
  paymentNotFound: 'Payment not found on this invoice.',
  refundTooMuch: (left: string) => `A refund cannot exceed what is left of the payment (${left}).`,
  refundOfCredit: 'A credit note applied to an invoice cannot be refunded as money.',
  creditTooMuch: (left: string) => `The credit notes of this invoice cannot exceed its total; at most ${left} can still be credited.`,
  creditNotCreditNote: 'That is not an issued credit note for this invoice.',
  creditNoRemaining: 'Nothing is left of this credit note to apply.',
  creditNotInvoice: 'Credit notes are issued against invoices, not other credit notes.',
  idempotencyReused: 'This idempotency key was already used for another payment.',
  creditApplyTooMuch: (max: string) => `At most ${max} of this credit can be applied (its remaining credit or the balance due, whichever is less).`,
} as const;

export const invoiceStatusLabels: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  partially_paid: 'Partially paid',
  paid: 'Paid',
  void: 'Void',
};

export const paymentMethodLabels: Record<PaymentMethod, string> = {
  cash: 'Cash',
  check: 'Check',
  card: 'Card',
  bank_transfer: 'Bank transfer',
  online_card: 'Card (online)',
  credit_note: 'Credit note',
  other: 'Other',
};

/** The methods the office records by hand (online card comes from the payment provider, credit notes by applying one). */
export const officePaymentMethods = ['cash', 'check', 'card', 'bank_transfer', 'other'] as const;

// ---------------------------------------------------------------------------- list

export const invoiceListStatusFilters = ['all', ...invoiceStatuses, 'overdue'] as const;
export type InvoiceListStatusFilter = (typeof invoiceListStatusFilters)[number];

const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);

export const invoiceListQuerySchema = z.object({
  status: z.preprocess(blankToUndefined, z.enum(invoiceListStatusFilters).default('all')),
  kind: z.preprocess(blankToUndefined, z.enum(invoiceKinds).optional()),
  customerId: z.preprocess(blankToUndefined, z.uuid().optional()),
  /** Number or billing name, matched anywhere. */
  search: z.preprocess(blankToUndefined, z.string().trim().max(100).optional()),
  /** Issue date range (inclusive). */
  issuedFrom: z.preprocess(blankToUndefined, isoDate.optional()),
  issuedTo: z.preprocess(blankToUndefined, isoDate.optional()),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(invoicePageSize),
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuerySchema>;

export const invoiceListItemSchema = z.object({
  id: z.string(),
  kind: z.enum(invoiceKinds),
  invoiceNumber: z.string().nullable(),
  status: z.enum(invoiceStatuses),
  /** Open (sent or partially paid) and past its due date in the company's time zone. */
  overdue: z.boolean(),
  customerId: z.string(),
  billingName: z.string(),
  issuedOn: z.string().nullable(),
  dueOn: z.string().nullable(),
  totalCents: z.number().int(),
  paidCents: z.number().int(),
  balanceCents: z.number().int(),
  createdAt: z.string(),
});
export type InvoiceListItem = z.infer<typeof invoiceListItemSchema>;

export const invoiceListResponseSchema = z.object({
  invoices: z.array(invoiceListItemSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Matches counted up to the cap (server/db/count-cap.ts); past it `totalCapped`. */
  total: z.number().int(),
  totalCapped: z.boolean(),
});
export type InvoiceListResponse = z.infer<typeof invoiceListResponseSchema>;

// ---------------------------------------------------------------------------- A/R figures

export const receivablesSummarySchema = z.object({
  /** The company's today the figures were computed for. */
  today: z.string(),
  /** Balance of every open invoice (sent or partially paid). */
  unpaidCents: z.number().int(),
  openCount: z.number().int(),
  /** Balance of the open invoices past their due date. */
  overdueCents: z.number().int(),
  overdueCount: z.number().int(),
  aging: z.object({
    /** Not yet due. */
    current: z.number().int(),
    days0to30: z.number().int(),
    days31to60: z.number().int(),
    days61to90: z.number().int(),
    days90plus: z.number().int(),
  }),
  /** Money received this calendar month (company time zone), refunds taken off; credit notes not counted. */
  paidThisMonthCents: z.number().int(),
});
export type ReceivablesSummary = z.infer<typeof receivablesSummarySchema>;

export const agingBucketLabels: Record<keyof ReceivablesSummary['aging'], string> = {
  current: 'Not yet due',
  days0to30: '1-30 days overdue',
  days31to60: '31-60 days',
  days61to90: '61-90 days',
  days90plus: 'Over 90 days',
};

// ---------------------------------------------------------------------------- draft body

export const invoiceDraftUpdateSchema = z.object({
  lines: documentLinesSchema,
  notes: optionalText(4000),
});
export type InvoiceDraftUpdate = z.input<typeof invoiceDraftUpdateSchema>;

export const invoiceCreateSchema = z.object({
  customerId: z.uuid(),
  workOrderId: z.uuid().nullable().default(null),
  lines: documentLinesSchema.default([]),
  notes: optionalText(4000),
});
export type InvoiceCreate = z.input<typeof invoiceCreateSchema>;

// ---------------------------------------------------------------------------- actions

export const invoiceVoidSchema = z.object({
  reason: z.string().trim().min(3, 'Say why the invoice is voided').max(500),
});

export const creditNoteCreateSchema = z.union([
  z.object({ fullCredit: z.literal(true), notes: optionalText(4000) }),
  z.object({ fullCredit: z.literal(false).default(false), lines: documentLinesSchema.refine((lines) => lines.length > 0, 'Add at least one line'), notes: optionalText(4000) }),
]);
export type CreditNoteCreate = z.input<typeof creditNoteCreateSchema>;

export const applyCreditSchema = z.object({
  creditNoteId: z.uuid(),
  /** Defaults to the lesser of the credit left and the balance due. */
  amountCents: z.number().int().min(1).max(100_000_000_00).optional(),
});

export const paymentCreateSchema = z
  .object({
    method: z.enum(officePaymentMethods),
    amountCents: z.number().int().min(1, 'Enter an amount above zero').max(100_000_000_00),
    receivedOn: isoDate,
    /** Check number, transfer reference, card's last four. */
    reference: optionalText(100),
    note: optionalText(1000),
    /** A retry with the same key records one payment. */
    idempotencyKey: z
      .string()
      .regex(/^[\w-]{8,128}$/, 'An idempotency key is 8 to 128 letters, digits, dashes or underscores')
      .optional(),
  })
  .refine((payment) => payment.method !== 'check' || payment.reference.length > 0, { message: 'Enter the check number', path: ['reference'] });
export type PaymentCreate = z.input<typeof paymentCreateSchema>;

export const refundCreateSchema = z.object({
  amountCents: z.number().int().min(1, 'Enter an amount above zero').max(100_000_000_00),
  receivedOn: isoDate,
  note: optionalText(1000),
});
export type RefundCreate = z.input<typeof refundCreateSchema>;

export const invoicePaymentParamsSchema = z.object({ id: z.string(), paymentId: z.string() });

// ---------------------------------------------------------------------------- detail


export const paymentSchema = z.object({
  id: z.string(),
  kind: z.enum(paymentKinds),
  method: z.enum(paymentMethods),
  amountCents: z.number().int(),
  receivedOn: z.string(),
  reference: z.string(),
  note: z.string(),
  refundOfPaymentId: z.string().nullable(),
  creditNoteId: z.string().nullable(),
  creditNoteNumber: z.string().nullable(),
  /** Payments: refunded so far (refunds: 0). */
  refundedCents: z.number().int(),
  recordedByName: z.string(),
  createdAt: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;


export const invoiceSchema = z.object({
  id: z.string(),
  kind: z.enum(invoiceKinds),
  invoiceNumber: z.string().nullable(),
  status: z.enum(invoiceStatuses),
  overdue: z.boolean(),
  customerId: z.string(),
  workOrderId: z.string().nullable(),
  workOrderNumber: z.string().nullable(),
  workOrderCompleted: z.boolean(),
  creditedInvoiceId: z.string().nullable(),
  creditedInvoiceNumber: z.string().nullable(),
  issuedOn: z.string().nullable(),
  dueOn: z.string().nullable(),
  billingName: z.string(),
  billingAddressLines: z.array(z.string()),
  billingEmail: z.string().nullable(),
  billingPhone: z.string().nullable(),
  notes: z.string(),
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  taxCents: z.number().int(),
  totalCents: z.number().int(),
  taxes: z.array(z.object({ label: z.string(), ratePpm: z.number().int(), taxableCents: z.number().int(), taxCents: z.number().int() })),
  paidCents: z.number().int(),
  balanceCents: z.number().int(),
  sentAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  voidedAt: z.string().nullable(),
  voidReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const creditNoteSummarySchema = z.object({
  id: z.string(),
  invoiceNumber: z.string().nullable(),
  status: z.enum(invoiceStatuses),
  totalCents: z.number().int(),
  /** Credit not yet applied to an invoice. */
  remainingCents: z.number().int(),
  issuedOn: z.string().nullable(),
});

export const invoiceHistoryEntrySchema = z.object({
  action: z.string(),
  actorName: z.string(),
  occurredAt: z.string(),
  changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])),
});

export const invoiceDetailResponseSchema = z.object({
  invoice: invoiceSchema,
  lines: z.array(documentLineSchema),
  payments: z.array(paymentSchema),
  /** Invoices: the credit notes issued against it. */
  creditNotes: z.array(creditNoteSummarySchema),
  history: z.array(invoiceHistoryEntrySchema),
  company: billingPartySchema.extend({ website: z.string().optional() }),
  /** Payment terms and how to pay, printed at the bottom. */
  footer: z.string(),
  /** Default tax rate (ppm) for new taxable lines: the default tax rate, or 0 when none exists. */
  defaultTaxRatePpm: z.number().int(),
});
export type InvoiceDetailResponse = z.infer<typeof invoiceDetailResponseSchema>;

export const paymentResponseSchema = z.object({ payment: paymentSchema, invoice: invoiceSchema });

// ---------------------------------------------------------------------------- helpers

/** Open and past due (company today as YYYY-MM-DD). */
export function isOverdue(status: InvoiceStatus, dueOn: string | null, today: string): boolean {
  return (status === 'sent' || status === 'partially_paid') && dueOn !== null && dueOn < today;
}

/** The status an issued (not void) invoice has for what has been paid of it. */
export function statusForPaid(totalCents: number, paidCents: number): InvoiceStatus {
  if (paidCents >= totalCents) return 'paid';
  if (paidCents > 0) return 'partially_paid';
  return 'sent';
}

/** "INV-000001", "CN-000004". */
export function documentNumber(kind: 'invoice' | 'credit_note', number: number): string {
  return `${kind === 'invoice' ? 'INV' : 'CN'}-${String(number).padStart(6, '0')}`;
}

export function taxLabel(ratePpm: number): string {
  return `Sales tax ${formatTaxRate(ratePpm)}`;
}

function paymentLabel(payment: Payment): string {
  const method = paymentMethodLabels[payment.method];
  const base = payment.method === 'check' && payment.reference ? `Check #${payment.reference}` : payment.method === 'credit_note' && payment.creditNoteNumber ? `Credit note ${payment.creditNoteNumber}` : method;
  return payment.kind === 'refund' ? `Refund (${base.toLowerCase()})` : base;
}

const withoutEmpty = (value: string | null | undefined) => (value ? value : undefined);

/** What the customer sees of an invoice or credit note: the web view and the PDF render this (shared/billing-document.ts). */
export function billingDocumentFromDetail(detail: InvoiceDetailResponse): BillingDocument {
  const { invoice } = detail;
  const references: string[] = [];
  if (invoice.workOrderNumber) references.push(`Work order ${invoice.workOrderNumber}`);
  if (invoice.creditedInvoiceNumber) references.push(`Credit for ${invoice.creditedInvoiceNumber}`);
  const customer: BillingParty = {
    name: invoice.billingName,
    addressLines: invoice.billingAddressLines.filter((line) => line.trim() !== ''),
    phone: withoutEmpty(invoice.billingPhone),
    email: withoutEmpty(invoice.billingEmail),
  };
  return {
    kind: invoice.kind,
    number: invoice.invoiceNumber ?? 'Draft',
    statusLabel: invoiceStatusLabels[invoice.status],
    issuedOn: invoice.issuedOn ?? undefined,
    dueOn: invoice.kind === 'invoice' ? (invoice.dueOn ?? undefined) : undefined,
    company: detail.company,
    customer,
    references,
    lines: detail.lines.map((line) => ({
      code: withoutEmpty(line.code),
      name: line.name,
      description: withoutEmpty(line.description),
      quantityMilli: line.quantityMilli,
      unitPriceCents: line.unitPriceCents,
      discountCents: documentTotals([line]).lines[0]!.discountCents,
      amountCents: line.amountCents,
      taxable: line.taxable,
    })),
    subtotalCents: invoice.subtotalCents,
    discountCents: invoice.discountCents,
    taxes: invoice.taxes,
    totalCents: invoice.totalCents,
    payments: detail.payments
      .slice()
      .sort((a, b) => (a.receivedOn === b.receivedOn ? a.createdAt.localeCompare(b.createdAt) : a.receivedOn.localeCompare(b.receivedOn)))
      .map((payment) => ({ receivedOn: payment.receivedOn, label: paymentLabel(payment), amountCents: payment.kind === 'refund' ? -payment.amountCents : payment.amountCents })),
    balanceCents: invoice.kind === 'invoice' ? invoice.balanceCents : undefined,
    notes: withoutEmpty(invoice.notes),
    footer: withoutEmpty(detail.footer),
  };
}

