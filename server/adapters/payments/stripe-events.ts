import { z } from 'zod';
import type { StripeEvent } from './payment-gateway.ts';

/**
 * What a verified Stripe event means for an invoice (decision 024-e). The invoices service records
 * these idempotently:
 * - `payment_succeeded`: money received. The same payment is announced by up to three events
 *   (checkout.session.completed, checkout.session.async_payment_succeeded, payment_intent.succeeded),
 *   in any order and any number of times: record ONE payment per `paymentIntentId`.
 * - `refund_updated`: `refundedTotalCents` is the charge's cumulative `amount_refunded`, so an old
 *   or repeated event never lowers or doubles it: keep the largest seen per charge.
 * - `payment_pending` / `payment_failed` / `checkout_expired`: nothing to record as money.
 * - `ignored`: any other event type.
 */
export type StripePaymentFact =
  | {
      kind: 'payment_succeeded';
      invoiceId: string | null;
      signupId: string | null;
      paymentIntentId: string;
      sessionId: string | null;
      amountCents: number;
      currency: string;
    }
  | { kind: 'payment_pending'; invoiceId: string | null; signupId: string | null; sessionId: string }
  | { kind: 'payment_failed'; invoiceId: string | null; signupId: string | null; sessionId: string | null; paymentIntentId: string | null }
  | { kind: 'checkout_expired'; invoiceId: string | null; signupId: string | null; sessionId: string }
  | {
      kind: 'refund_updated';
      invoiceId: string | null;
      signupId: string | null;
      paymentIntentId: string | null;
      chargeId: string;
      /** The charge's `amount_refunded`: every refund so far, not this event's. */
      refundedTotalCents: number;
      /** The charge's `amount`. */
      chargeAmountCents: number;
      currency: string;
    }
  | { kind: 'ignored'; eventType: string };

/**
 * The events the webhook endpoint is to be subscribed to in Stripe's dashboard (README, decision
 * 024-e): the ones that record a payment or a refund or close a Checkout Session, and
 * `checkout.session.async_payment_failed`, kept as an outcome. Settings → Integrations shows them.
 */
export const stripeWebhookEvents = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'payment_intent.succeeded',
  'charge.refunded',
] as const;

const metadata = z.record(z.string(), z.string()).nullish();
const idOrObject = z.union([z.string(), z.object({ id: z.string() }).loose()]).nullish();
const idOf = (value: z.infer<typeof idOrObject>) => (typeof value === 'string' ? value : (value?.id ?? null));

const session = z.object({
  id: z.string(),
  object: z.literal('checkout.session'),
  mode: z.string().nullish(),
  payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  payment_intent: idOrObject,
  client_reference_id: z.string().nullish(),
  metadata,
});

const paymentIntent = z.object({
  id: z.string(),
  object: z.literal('payment_intent'),
  amount_received: z.number().int(),
  currency: z.string(),
  status: z.string(),
  metadata,
});

const charge = z.object({
  id: z.string(),
  object: z.literal('charge'),
  amount: z.number().int(),
  amount_refunded: z.number().int(),
  currency: z.string(),
  payment_intent: idOrObject,
  metadata,
});

/** The invoice the money is for: `metadata.invoice_id`, else `client_reference_id` unless the metadata names a plan sign-up. */
function invoiceIdOf(meta: z.infer<typeof metadata>, clientReference?: string | null): string | null {
  return meta?.invoice_id ?? (meta?.signup_id ? null : (clientReference ?? null));
}

/** The maintenance plan sign-up the money is for (decision 027-c): `metadata.signup_id`. */
function signupIdOf(meta: z.infer<typeof metadata>): string | null {
  return meta?.signup_id ?? null;
}

/**
 * Reads a verified event. A known type whose object does not have the expected shape is an error
 * (the webhook answers 400 and Stripe retries), not a silent "ignored".
 */
export function interpretStripeEvent(event: StripeEvent): StripePaymentFact {
  const object = event.data.object;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const s = session.parse(object);
      const invoiceId = invoiceIdOf(s.metadata, s.client_reference_id);
      const signupId = signupIdOf(s.metadata);
      const paymentIntentId = idOf(s.payment_intent);
      if (s.payment_status !== 'paid' || !paymentIntentId || s.amount_total == null || !s.currency) {
        // Completed but not yet paid (an asynchronous method): async_payment_succeeded follows.
        return { kind: 'payment_pending', invoiceId, signupId, sessionId: s.id };
      }
      return { kind: 'payment_succeeded', invoiceId, signupId, paymentIntentId, sessionId: s.id, amountCents: s.amount_total, currency: s.currency };
    }
    case 'checkout.session.async_payment_failed': {
      const s = session.parse(object);
      return { kind: 'payment_failed', invoiceId: invoiceIdOf(s.metadata, s.client_reference_id), signupId: signupIdOf(s.metadata), sessionId: s.id, paymentIntentId: idOf(s.payment_intent) };
    }
    case 'checkout.session.expired': {
      const s = session.parse(object);
      return { kind: 'checkout_expired', invoiceId: invoiceIdOf(s.metadata, s.client_reference_id), signupId: signupIdOf(s.metadata), sessionId: s.id };
    }
    case 'payment_intent.succeeded': {
      const p = paymentIntent.parse(object);
      return { kind: 'payment_succeeded', invoiceId: invoiceIdOf(p.metadata), signupId: signupIdOf(p.metadata), paymentIntentId: p.id, sessionId: null, amountCents: p.amount_received, currency: p.currency };
    }
    case 'payment_intent.payment_failed': {
      const p = paymentIntent.parse(object);
      return { kind: 'payment_failed', invoiceId: invoiceIdOf(p.metadata), signupId: signupIdOf(p.metadata), sessionId: null, paymentIntentId: p.id };
    }
    case 'charge.refunded': {
      const c = charge.parse(object);
      return {
        kind: 'refund_updated',
        invoiceId: invoiceIdOf(c.metadata),
        signupId: signupIdOf(c.metadata),
        paymentIntentId: idOf(c.payment_intent),
        chargeId: c.id,
        refundedTotalCents: c.amount_refunded,
        chargeAmountCents: c.amount,
        currency: c.currency,
      };
    }
    default:
      return { kind: 'ignored', eventType: event.type };
  }
}
