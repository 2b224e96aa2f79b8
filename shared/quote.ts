import { z } from 'zod';
import { billingDocumentSchema, billingPartySchema, type BillingDocument, type BillingParty } from './billing-document.ts';
import { isValidIsoDate } from './dates.ts';
import { documentLineSchema, documentLinesSchema } from './document-line.ts';
import { quoteStatuses, type QuoteStatus } from './enums.ts';
import { documentDeliverySchema } from './invoice-link.ts';
import { documentTotals } from './money.ts';

// Quotes, good / better / best (issue 20, decision 025-c): one zod contract per API, used by the
// office's routes (server/modules/quotes) and screens (app/features/quotes), and by the customer's
// quote link (app/features/quote-link). Money is integer cents (shared/money.ts).

export const quotePageSize = 50;
export const quoteMaxOptions = 5;

const isoDate = z.string().refine(isValidIsoDate, 'Enter a date as YYYY-MM-DD');
const optionalText = (max: number) => z.string().trim().max(max).default('');
const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);

export const quoteMessages = {
  notFound: 'Quote not found.',
  customerNotFound: 'Customer not found.',
  workOrderNotFound: 'Work order not found.',
  workOrderOtherCustomer: "That work order is another customer's.",
  leadNotFound: 'Lead not found.',
  notDraft: 'Only a draft quote can be edited. Revise it first (the links already sent stop working).',
  notSent: 'Only a sent quote can be approved or declined.',
  notSendable: 'Only a draft or a sent quote can be sent.',
  notRevisable: 'Only a sent or declined quote can be revised.',
  notCancellable: 'An approved or cancelled quote cannot be cancelled.',
  optionEmpty: (name: string) => `Option "${name}" has no lines. Every option needs at least one line before sending.`,
  expired: 'This quote has expired. Please contact us for a new one.',
  optionNotFound: 'Choose one of the options.',
  alreadyAnswered: 'This quote has already been answered.',
  signatureRequired: 'Sign in the box, or type your name and tick the box to sign.',
} as const;

export const quoteStatusLabels: Record<QuoteStatus, string> = {
  draft: 'Draft',
  sent: 'Waiting for the customer',
  approved: 'Approved',
  declined: 'Declined',
  cancelled: 'Cancelled',
};

/** A sent quote whose valid-until date has passed (company today, YYYY-MM-DD) can no longer be approved. */
export function isQuoteExpired(status: QuoteStatus, validUntil: string | null, today: string): boolean {
  return status === 'sent' && validUntil !== null && validUntil < today;
}

/** "Q-000057". */
export function quoteNumberText(number: number): string {
  return `Q-${String(number).padStart(6, '0')}`;
}

// ---------------------------------------------------------------------------- list

export const quoteListStatusFilters = ['all', ...quoteStatuses, 'expired'] as const;
export type QuoteListStatusFilter = (typeof quoteListStatusFilters)[number];

export const quoteListQuerySchema = z.object({
  status: z.preprocess(blankToUndefined, z.enum(quoteListStatusFilters).default('all')),
  customerId: z.preprocess(blankToUndefined, z.uuid().optional()),
  workOrderId: z.preprocess(blankToUndefined, z.uuid().optional()),
  /** Number, title or customer name, matched anywhere. */
  search: z.preprocess(blankToUndefined, z.string().trim().max(100).optional()),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(quotePageSize),
});
export type QuoteListQuery = z.infer<typeof quoteListQuerySchema>;

export const quoteListItemSchema = z.object({
  id: z.string(),
  quoteNumber: z.string().nullable(),
  status: z.enum(quoteStatuses),
  expired: z.boolean(),
  title: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  optionCount: z.number().int(),
  /** The options' lowest and highest totals (equal with one option). */
  lowestTotalCents: z.number().int(),
  highestTotalCents: z.number().int(),
  /** The approved option's total, once approved. */
  approvedTotalCents: z.number().int().nullable(),
  validUntil: z.string().nullable(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
});
export type QuoteListItem = z.infer<typeof quoteListItemSchema>;

export const quoteListResponseSchema = z.object({
  quotes: z.array(quoteListItemSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalCapped: z.boolean(),
});
export type QuoteListResponse = z.infer<typeof quoteListResponseSchema>;

// ---------------------------------------------------------------------------- write bodies

export const quoteOptionInputSchema = z.object({
  name: z.string().trim().min(1, 'Name the option').max(80),
  description: optionalText(1000),
  /** A draft's option may be empty while it is written; sending needs a line in every option. */
  lines: documentLinesSchema,
});
export type QuoteOptionInput = z.input<typeof quoteOptionInputSchema>;
export type QuoteOptionValues = z.output<typeof quoteOptionInputSchema>;

const quoteContentFields = {
  title: z.string().trim().min(1, 'Give the quote a title').max(200),
  notes: optionalText(4000),
  /** Blank: the settings' validity (days) from the day it is sent. */
  validUntil: z.preprocess(blankToUndefined, isoDate.nullable().default(null)),
  options: z.array(quoteOptionInputSchema).min(1, 'Add an option').max(quoteMaxOptions, `At most ${quoteMaxOptions} options`),
};

/** A new draft, from a customer, a work order (its customer) or a lead (its matched customer). */
export const quoteCreateSchema = z.object({
  customerId: z.uuid(),
  workOrderId: z.uuid().nullable().default(null),
  estimateRequestId: z.uuid().nullable().default(null),
  aiLeadId: z.uuid().nullable().default(null),
  ...quoteContentFields,
});
export type QuoteCreate = z.input<typeof quoteCreateSchema>;

export const quoteUpdateSchema = z.object(quoteContentFields);
export type QuoteUpdate = z.input<typeof quoteUpdateSchema>;

export const quoteCancelSchema = z.object({ reason: optionalText(500) });

// ---------------------------------------------------------------------------- detail

export const quoteOptionSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  name: z.string(),
  description: z.string(),
  lines: z.array(documentLineSchema),
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  taxCents: z.number().int(),
  totalCents: z.number().int(),
  taxes: z.array(z.object({ label: z.string(), ratePpm: z.number().int(), taxableCents: z.number().int(), taxCents: z.number().int() })),
});
export type QuoteOption = z.infer<typeof quoteOptionSchema>;

export const quoteSchema = z.object({
  id: z.string(),
  quoteNumber: z.string().nullable(),
  status: z.enum(quoteStatuses),
  expired: z.boolean(),
  title: z.string(),
  notes: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  workOrderId: z.string().nullable(),
  workOrderNumber: z.string().nullable(),
  estimateRequestId: z.string().nullable(),
  aiLeadId: z.string().nullable(),
  validUntil: z.string().nullable(),
  sentAt: z.string().nullable(),
  approvedOptionId: z.string().nullable(),
  approvedAt: z.string().nullable(),
  approvedByName: z.string().nullable(),
  approvalIp: z.string().nullable(),
  /** An on-screen signature was drawn at approval (the office opens it at `quoteSignaturePath`). */
  hasSignature: z.boolean(),
  declinedAt: z.string().nullable(),
  declineReason: z.string().nullable(),
  /** The work order the approval created or updated. */
  resultingWorkOrderId: z.string().nullable(),
  resultingWorkOrderNumber: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Quote = z.infer<typeof quoteSchema>;

export const quoteHistoryEntrySchema = z.object({
  action: z.string(),
  actorName: z.string(),
  occurredAt: z.string(),
  changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])),
});


export const quoteDetailResponseSchema = z.object({
  quote: quoteSchema,
  options: z.array(quoteOptionSchema),
  history: z.array(quoteHistoryEntrySchema),
  company: billingPartySchema.extend({ website: z.string().optional() }),
  customer: billingPartySchema,
  /** Default tax rate (ppm) for new taxable lines. */
  defaultTaxRatePpm: z.number().int(),
  /** The settings' validity in days (a blank valid-until date becomes the send day plus this). */
  quoteValidityDays: z.number().int(),
});
export type QuoteDetailResponse = z.infer<typeof quoteDetailResponseSchema>;

export const quoteSendResponseSchema = quoteDetailResponseSchema.extend({ delivery: documentDeliverySchema });
export type QuoteSendResponse = z.infer<typeof quoteSendResponseSchema>;

export function quoteSignaturePath(quoteId: string): string {
  return `/api/admin/quotes/${quoteId}/signature`;
}

// ---------------------------------------------------------------------------- the customer's link

/** The token from the address (the invoice link's rule: any string; every refusal is one 404). */
export { invoiceLinkParamsSchema as quoteLinkParamsSchema } from './invoice-link.ts';

/** What the customer's page shows: each option as a billing document (the same labels as an invoice's). */
export const publicQuoteResponseSchema = z.object({
  quoteNumber: z.string(),
  title: z.string(),
  status: z.enum(['sent', 'approved', 'declined', 'expired']),
  validUntil: z.string().nullable(),
  notes: z.string(),
  company: billingPartySchema.extend({ website: z.string().optional() }),
  customer: billingPartySchema,
  options: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      document: billingDocumentSchema,
    }),
  ),
  /** Once answered: which option, by whom, when. */
  approvedOptionId: z.string().nullable(),
  approvedByName: z.string().nullable(),
  approvedAt: z.string().nullable(),
  declinedAt: z.string().nullable(),
});
export type PublicQuoteResponse = z.infer<typeof publicQuoteResponseSchema>;

/** PNG data URL from the signature pad; at most about 300 KB (the technician app's rule). */
const signaturePng = z
  .string()
  .max(400_000, 'The signature is too large.')
  .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/, 'The signature must be a PNG image.');

export const quoteApproveSchema = z.object({
  optionId: z.uuid({ message: quoteMessages.optionNotFound }),
  /** The customer types their full name: that is the signature; a drawn one is added when given. */
  name: z.string().trim().min(2, 'Type your full name').max(120),
  accepted: z.literal(true, { message: 'Tick the box to approve' }),
  signature: signaturePng.nullable().default(null),
});
export type QuoteApprove = z.input<typeof quoteApproveSchema>;

export const quoteDeclineSchema = z.object({ reason: optionalText(1000) });

export const publicQuoteAnswerResponseSchema = publicQuoteResponseSchema;

// ---------------------------------------------------------------------------- helpers

/** A quote option as the customer sees it: the same view model as an invoice (web page and PDF). */
export function quoteOptionDocument(input: {
  quoteNumber: string | null;
  statusLabel: string;
  issuedOn?: string;
  validUntil: string | null;
  company: BillingParty & { website?: string };
  customer: BillingParty;
  title: string;
  option: QuoteOption;
  notes: string;
}): BillingDocument {
  const { option } = input;
  return {
    kind: 'quote',
    number: input.quoteNumber ?? 'Draft',
    statusLabel: input.statusLabel,
    issuedOn: input.issuedOn,
    validUntil: input.validUntil ?? undefined,
    company: input.company,
    customer: input.customer,
    references: [input.title, `Option: ${option.name}`],
    lines: option.lines.map((line) => ({
      code: line.code || undefined,
      name: line.name,
      description: line.description || undefined,
      quantityMilli: line.quantityMilli,
      unitPriceCents: line.unitPriceCents,
      discountCents: documentTotals([line]).lines[0]!.discountCents,
      amountCents: line.amountCents,
      taxable: line.taxable,
    })),
    subtotalCents: option.subtotalCents,
    discountCents: option.discountCents,
    taxes: option.taxes,
    totalCents: option.totalCents,
    payments: [],
    notes: input.notes || undefined,
  };
}
