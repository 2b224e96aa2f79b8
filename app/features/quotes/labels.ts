import { isoDatePattern, isValidIsoDate, todayIn } from '#shared/dates.ts';
import type { QuoteStatus } from '#shared/enums.ts';
import { quoteStatusLabels } from '#shared/quote.ts';
import type { BadgeTone } from '#client/components/ui/badge.tsx';
import { company } from '#client/lib/company.ts';
import { formatDay } from '#client/features/invoices/index.ts';

export const quoteListPath = '/admin/quotes';
export const quoteDetailPath = (id: string) => `/admin/quotes/${encodeURIComponent(id)}`;
/** The work order screen (written here: work-orders imports this feature, not the other way round). */
export const workOrderPath = (id: string) => `/admin/workorders/${encodeURIComponent(id)}`;
export const customerPath = (id: string) => `/admin/customers/${encodeURIComponent(id)}`;

const statusTones: Record<QuoteStatus, BadgeTone> = {
  draft: 'neutral',
  sent: 'info',
  approved: 'success',
  declined: 'warning',
  cancelled: 'danger',
};

/** The badge of a quote's status (text, never colour alone); "Expired" is a second badge beside "sent". */
export function quoteStatusBadge(status: QuoteStatus): { label: string; tone: BadgeTone } {
  return { label: quoteStatusLabels[status], tone: statusTones[status] };
}

/** The heading of a quote: its number once sent, else "Draft quote". */
export function quoteName(quote: { quoteNumber: string | null }): string {
  return quote.quoteNumber ? `Quote ${quote.quoteNumber}` : 'Draft quote';
}

/** Good, better, best: the names new options start with (the office renames them freely). */
export function defaultOptionName(index: number): string {
  return ['Good', 'Better', 'Best'][index] ?? `Option ${index + 1}`;
}

/** The quote's history as the office reads it (the actions the quotes module records). */
const historyActionLabels: Record<string, string> = {
  created: 'Created',
  edited: 'Edited',
  sent: 'Sent',
  resent_after_revision: 'Sent again after revision',
  send_queued: 'Message queued',
  revised: 'Revised (back to draft, earlier links stopped)',
  cancelled: 'Cancelled',
  approved: 'Approved by the customer',
  declined: 'Declined by the customer',
};

export function historyActionLabel(action: string): string {
  return historyActionLabels[action] ?? action.replaceAll('_', ' ');
}

const historyFieldLabels: Record<string, string> = {
  quoteNumber: 'Number',
  validUntil: 'Valid until',
  status: 'Status',
  options: 'Options',
  title: 'Title',
  notes: 'Notes',
  channels: 'Channels',
  skipped: 'Not sent',
  reason: 'Reason',
  option: 'Option',
  signedBy: 'Signed by',
  signature: 'Signature',
  clientAddress: 'From address',
  workOrder: 'Work order',
};

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value !== 'string') return JSON.stringify(value);
  return isoDatePattern.test(value) && isValidIsoDate(value) ? formatDay(value) : value;
}

/** "Status: draft → sent" lines of a history entry's changes. */
export function historyChangeLines(changes: Record<string, [unknown, unknown]>): string[] {
  return Object.entries(changes).map(([field, [before, after]]) => {
    const label = historyFieldLabels[field] ?? field;
    return before === null || before === undefined ? `${label}: ${shown(after)}` : `${label}: ${shown(before)} → ${shown(after)}`;
  });
}

const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: company.timeZone });

/** "Nov 27, 2026, 9:30 AM" in the company's time zone. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
}

/** "Nov 27, 2026": the company's day of a moment. */
export function formatDayOf(iso: string): string {
  return formatDay(todayIn(company.timeZone, new Date(iso)));
}
