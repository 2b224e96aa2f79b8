import { z } from 'zod';
import { billingDocumentSchema } from './billing-document.ts';
import { invoiceStatuses, messageChannels } from './enums.ts';
import { invoiceDetailResponseSchema, invoiceSchema } from './invoice.ts';

// The customer's side of an invoice and its sending (issue 20, decision 024-h): one zod contract
// per API, used by the routes (server/modules/invoices/invoice.public.routes.ts,
// invoice.sending.routes.ts) and the screens (app/features/invoice-link, app/features/invoices).

// ---------------------------------------------------------------------------- sending (office)

/** What a send did: the channels a message was queued on, and the ones skipped with why. */
export const documentDeliverySchema = z.object({
  queued: z.array(z.enum(messageChannels)),
  skipped: z.array(z.object({ channel: z.enum(messageChannels), reason: z.string() })),
});
export type DocumentDelivery = z.infer<typeof documentDeliverySchema>;

/** POST /api/admin/invoices/:id/issue: the detail, and for an invoice what its first send did. */
export const invoiceIssueResponseSchema = invoiceDetailResponseSchema.extend({
  delivery: documentDeliverySchema.optional(),
});
export type InvoiceIssueResponse = z.infer<typeof invoiceIssueResponseSchema>;

/** POST /api/admin/invoices/:id/send ("Send again"). */
export const invoiceSendResponseSchema = z.object({
  invoice: invoiceSchema,
  delivery: documentDeliverySchema,
});
export type InvoiceSendResponse = z.infer<typeof invoiceSendResponseSchema>;

export const invoiceSendMessages = {
  notSendable: 'Only an issued invoice can be sent; issue the draft first. A void invoice is not sent.',
} as const;

const channelLabels = { email: 'e-mail', sms: 'text' } as const;

/** "Sent by e-mail. Not by text: the customer has not agreed to texts." */
export function describeDelivery(delivery: DocumentDelivery): string {
  const sent = delivery.queued.length > 0 ? `Sent by ${delivery.queued.map((channel) => channelLabels[channel]).join(' and ')}.` : 'Not sent: no channel reaches this customer.';
  const skipped = delivery.skipped.map((skip) => `Not by ${channelLabels[skip.channel]}: ${skip.reason}.`);
  return [sent, ...skipped].join(' ');
}

// ---------------------------------------------------------------------------- customer's page


/** The token from the address: any string; the server answers one 404 for every link that does not open. */
export const invoiceLinkParamsSchema = z.object({ token: z.string().max(200) });

/** `checkout`: the session id Stripe's success URL brings back (`?checkout={CHECKOUT_SESSION_ID}`). */
export const invoiceLinkQuerySchema = z.object({
  checkout: z.string().max(255).optional(),
});

/** GET /api/public/invoices/:token: the document and what the customer can do with it. */
export const publicInvoiceResponseSchema = z.object({
  document: billingDocumentSchema,
  status: z.enum(invoiceStatuses),
  balanceCents: z.number().int(),
  /** Set when the invoice can be paid by card online now (Stripe configured, open, a balance Stripe accepts). */
  payOnline: z.object({ amountCents: z.number().int() }).nullable(),
  /** How to pay otherwise (always shown when there is a balance). */
  howToPay: z.string(),
  /** After coming back from Stripe: the payment is recorded, or still being confirmed (the webhook has not come yet). */
  checkout: z.enum(['recorded', 'confirming']).nullable(),
});
export type PublicInvoiceResponse = z.infer<typeof publicInvoiceResponseSchema>;

/** POST /api/public/invoices/:token/checkout: where the browser goes to pay (Stripe's hosted page). */
export const invoiceCheckoutResponseSchema = z.object({ url: z.string() });
export type InvoiceCheckoutResponse = z.infer<typeof invoiceCheckoutResponseSchema>;

export const invoiceLinkMessages = {
  nothingToPay: 'There is nothing to pay online on this invoice.',
  onlineUnavailable: 'Online payment is unavailable right now. Please try again later, or use one of the other ways to pay below.',
} as const;

/** The page's path for a token (shared/billing-document.ts's customerDocumentPath). */
export const invoiceLinkApiPath = (token: string) => `/api/public/invoices/${encodeURIComponent(token)}`;

/** POST /api/public/payments/stripe/webhook's answer to Stripe (its body is Stripe's raw, signed event). */
export const stripeWebhookResponseSchema = z.object({ received: z.literal(true), outcome: z.string() });
