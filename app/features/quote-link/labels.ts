import type { PublicQuoteResponse } from '#shared/quote.ts';
import { company } from '#client/lib/company.ts';

export type PublicQuoteOption = PublicQuoteResponse['options'][number];

/** Good / better / best: the tiers' names by position when a quote has two or three options (more are just named). */
export function tierLabel(index: number, count: number): string | undefined {
  if (count < 2 || count > 3) return undefined;
  return ['Good', 'Better', 'Best'][index];
}

const momentFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: company.timeZone });

/** "Nov 27, 2026, 4:05 PM", in the company's time zone (the customer and the office read the same time). */
export function formatMoment(iso: string): string {
  return momentFormat.format(new Date(iso));
}
