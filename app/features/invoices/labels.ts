import type { InvoiceStatus } from '#shared/enums.ts';
import { invoiceStatusLabels } from '#shared/invoice.ts';
import type { BadgeTone } from '#client/components/ui/badge.tsx';

export const invoiceDetailPath = (id: string) => `/admin/invoices/${id}`;

const statusTones: Record<InvoiceStatus, BadgeTone> = {
  draft: 'neutral',
  sent: 'info',
  partially_paid: 'warning',
  paid: 'success',
  void: 'danger',
};

/** The badge of an invoice: its status, or "Overdue" beside it when an open one is past due (text, never colour alone). */
export function invoiceStatusBadge(status: InvoiceStatus): { label: string; tone: BadgeTone } {
  return { label: invoiceStatusLabels[status], tone: statusTones[status] };
}

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** "Nov 27, 2026" from a calendar date (YYYY-MM-DD), the same in every browser time zone. */
export function formatDay(isoDate: string): string {
  return dayFormat.format(new Date(`${isoDate}T00:00:00Z`));
}
