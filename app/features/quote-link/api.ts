import type { PublicQuoteResponse, QuoteApprove } from '#shared/quote.ts';
import { apiFetch } from '#client/lib/api.ts';

// The customer's quote link (issue 20, decision 025-d): the three public routes of
// server/modules/quotes/quote.public.routes.ts, with shared/quote.ts's contracts.

/** GET /api/public/quotes/:token; its answers are POSTed to `/approve` and `/decline` under it. */
export const quoteLinkApiPath = (token: string) => `/api/public/quotes/${encodeURIComponent(token)}`;

export const customerQuoteKey = (token: string) => ['customer-quote', token] as const;

export function fetchQuote(token: string, signal?: AbortSignal): Promise<PublicQuoteResponse> {
  return apiFetch<PublicQuoteResponse>(quoteLinkApiPath(token), { signal });
}

/** Approves one option: the typed name, the ticked box and, when drawn, the signature (PNG data URL). */
export function approveQuote(token: string, body: QuoteApprove): Promise<PublicQuoteResponse> {
  return apiFetch<PublicQuoteResponse>(`${quoteLinkApiPath(token)}/approve`, { method: 'POST', body });
}

export function declineQuote(token: string, reason: string): Promise<PublicQuoteResponse> {
  return apiFetch<PublicQuoteResponse>(`${quoteLinkApiPath(token)}/decline`, { method: 'POST', body: { reason } });
}
