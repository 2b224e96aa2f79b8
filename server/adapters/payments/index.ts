/**
 * Online card payment through Stripe Checkout (issue 20, decision 024-e).
 *
 * How to wire it (the invoices module):
 *
 * 1. In server/app.ts: `const paymentGateway = createPaymentGateway(config.payments);` and pass it
 *    to the invoices service. It is `null` when STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET are
 *    unset: the invoice page shows no "Pay online" button and says how to pay instead, and the
 *    webhook route answers 404.
 * 2. "Pay online" on the customer's invoice page (its document link): the service calls
 *    `createCheckout({ invoiceId, invoiceNumber, amountCents: balance, currency: 'usd',
 *    customerEmail, successUrl: <invoice link>?paid={CHECKOUT_SESSION_ID}, cancelUrl: <invoice link>,
 *    idempotencyKey: `checkout:${invoiceId}:${n}` })` (n: the invoice's payment_checkouts rows),
 *    keeps the session in `payment_checkouts` and redirects (303) to `session.url`. It reuses an
 *    open session of the same amount (`retrieveCheckout`), `expireCheckout`s one when the invoice
 *    is voided or its balance changes. A PaymentGatewayError is shown to the customer as "Online
 *    payment is unavailable right now" (logged with its message).
 * 3. Back on the success URL: `retrieveCheckout(sessionId)` (check its `invoiceId` is this invoice)
 *    tells "paid" or "processing"; recording the payment is the webhook's job (it may also record
 *    it from here, idempotently by payment intent: the same rule as below).
 * 4. `POST /api/public/payments/stripe/webhook`: the route needs the RAW body (a Buffer: a
 *    content-type parser for application/json with `parseAs: 'buffer'` in the route's own plugin
 *    scope), calls `verifyWebhook(rawBody, request.headers['stripe-signature'])` (a
 *    WebhookSignatureError is 400), then `interpretStripeEvent(event)`, then, in ONE transaction:
 *    insert into `payment_events` ON CONFLICT (event_id) DO NOTHING (a repeat: answer 200 at once);
 *    a payment: one `payments` row per payment intent (`provider_payment_id`, on conflict do
 *    nothing); a refund: the charge's cumulative `amount_refunded` (lock the payment, record only
 *    the increase, `provider_payment_id` = `<charge>:<total>`); a refund before its payment records
 *    the payment first from the charge. Decision 024-e has the whole rule. Answer 2xx quickly; a
 *    5xx makes Stripe retry for up to three days.
 *
 * Tests: tests/support/fake-stripe-server.ts is a local Stripe (API, hosted page, signed webhooks).
 */
import type { PaymentGateway } from './payment-gateway.ts';
import { createStripeGateway } from './stripe-gateway.ts';

export {
  PaymentGatewayError,
  WebhookSignatureError,
  type CheckoutPaymentStatus,
  type CheckoutRequest,
  type CheckoutSubject,
  type RefundRequest,
  type RefundResult,
  type CheckoutSession,
  type CheckoutStatus,
  type PaymentGateway,
  type PaymentGatewayErrorKind,
  type StripeEvent,
  type WebhookSignatureFailure,
} from './payment-gateway.ts';
export { createStripeGateway, checkoutSessionForm, stripeApiVersion, stripeMinimumAmountCents, stripeMaximumAmountCents, type StripeGatewayOptions } from './stripe-gateway.ts';
export { stripeSignature, stripeSignatureHeader, stripeSignatureToleranceSeconds, verifyStripeSignature } from './stripe-signature.ts';
export { interpretStripeEvent, stripeWebhookEvents, type StripePaymentFact } from './stripe-events.ts';

/** `config.payments` (server/config.ts). */
export type PaymentGatewayConfig = {
  /** Set when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are (both or neither). */
  stripe: { apiUrl: string; secretKey: string; webhookSecret: string } | undefined;
  /** STRIPE_TIMEOUT_MS */
  timeoutMs: number;
};

export const defaultStripeTimeoutMs = 10_000;

/** The configured gateway, or null: no online payment (the invoice page says how to pay). */
export function createPaymentGateway(config: PaymentGatewayConfig): PaymentGateway | null {
  if (!config.stripe) return null;
  return createStripeGateway({ ...config.stripe, timeoutMs: config.timeoutMs });
}
