import { z } from 'zod';
import { isValidIsoDate } from './dates.ts';

/**
 * The CSV downloads of Settings > Export & backup (issue 10; the billing ones issue 20, decision
 * 025-b): admin only, under /api/admin/settings.
 */
export const exportKinds = ['customers', 'work-orders', 'leads', 'invoices', 'payments', 'quickbooks-invoices'] as const;
export type ExportKind = (typeof exportKinds)[number];

/** Everything as it is now, one row per record. */
export const recordExportKinds = ['customers', 'work-orders', 'leads'] as const satisfies readonly ExportKind[];
/** The accountant's files: these take an optional date range (`exportRangeQuerySchema`). */
export const billingExportKinds = ['invoices', 'payments', 'quickbooks-invoices'] as const satisfies readonly ExportKind[];
export type BillingExportKind = (typeof billingExportKinds)[number];

export const exportPath = (kind: ExportKind) => `/api/admin/settings/exports/${kind}.csv`;

export const exportMessages = {
  invalidDate: 'Enter a date as YYYY-MM-DD',
  rangeReversed: 'The end date must be on or after the start date',
} as const;

const blankToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalDate = z.preprocess(blankToUndefined, z.string().refine(isValidIsoDate, exportMessages.invalidDate).optional());

/**
 * A billing export's date range, both ends inclusive and optional (blank is none): the issue date
 * for invoices (so drafts, which have none, are left out once a range is given) and the QuickBooks
 * file, the received date for payments and refunds.
 */
export const exportRangeQuerySchema = z
  .object({ from: optionalDate, to: optionalDate })
  .refine((range) => !range.from || !range.to || range.from <= range.to, { message: exportMessages.rangeReversed, path: ['to'] });
export type ExportRange = z.infer<typeof exportRangeQuerySchema>;

/** The download's address with its range (blank ends left out). */
export function exportUrl(kind: ExportKind, range: ExportRange = {}): string {
  const query = new URLSearchParams();
  if (range.from) query.set('from', range.from);
  if (range.to) query.set('to', range.to);
  const text = query.toString();
  return text ? `${exportPath(kind)}?${text}` : exportPath(kind);
}

/**
 * The download's file name: what it holds and the company-time-zone date it was made; a billing
 * file with a range names the range instead ("invoices-2026-01-01-to-2026-03-31.csv", an open
 * start "beginning", an open end today).
 */
export function exportFileName(kind: ExportKind, today: string, range: ExportRange = {}): string {
  if (!range.from && !range.to) return `${kind}-${today}.csv`;
  return `${kind}-${range.from ?? 'beginning'}-to-${range.to ?? today}.csv`;
}

/** What each file is, and its download link's text. */
export const exportDescriptions: Record<ExportKind, { label: string; description: string; download: string }> = {
  customers: {
    label: 'Customers',
    download: 'Download customers (CSV)',
    description: 'One row per customer: contact details, the unit on file and a summary of every piece of equipment.',
  },
  'work-orders': {
    label: 'Work orders',
    download: 'Download work orders (CSV)',
    description: 'One row per work order with its customer and technician.',
  },
  leads: {
    label: 'Leads',
    download: 'Download leads (CSV)',
    description: 'Estimate requests and chat leads, newest first, as the leads screen lists them.',
  },
  invoices: {
    label: 'Invoices',
    download: 'Download invoices (CSV)',
    description:
      'One row per invoice and credit note: status, customer, dates, subtotal, discount, tax, total, paid and balance in dollars. Drafts are included only without a date range.',
  },
  payments: {
    label: 'Payments',
    download: 'Download payments (CSV)',
    description: 'One row per payment, refund and credit note applied, by the date received: invoice, method, reference, amount and who recorded it.',
  },
  'quickbooks-invoices': {
    label: 'QuickBooks invoices',
    download: 'Download QuickBooks invoices (CSV)',
    description:
      "Issued invoices (not drafts, voids or credit notes) in QuickBooks Online's invoice import layout: one row per invoice line, dates as MM/DD/YYYY.",
  },
};
