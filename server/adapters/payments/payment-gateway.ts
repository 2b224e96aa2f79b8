/**
 * Online card payment (issue 20): the interface the invoices module takes a customer's card
 * payment through. One gateway implements it, Stripe Checkout (stripe-gateway.ts), when
 * STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set; unset, there is no gateway at all
 * (`createPaymentGateway` answers null) and the invoice page says how to pay instead
 * (decision 024-e). Amounts are integer cents.
 */

/**
 * What is paid: an invoice's balance (issue 20), or a maintenance plan sign-up's first payment
 * before any customer or invoice exists (issue 22, decision 027-c). Stripe keeps the id as
 * `client_reference_id` and in the session's and the payment intent's metadata (`invoice_id` or
 * `signup_id`), so every event about the money names what it paid.
 */
export type CheckoutSubject =
  | {
      /** Our invoice's id (`metadata[invoice_id]`). */
      invoiceId: string;
      /** Shown to the customer on Stripe's page ("Invoice INV-1042"). */
      invoiceNumber: string;
    }
  | {
      /** The plan sign-up's id (`metadata[signup_id]`). */
      signupId: string;
      /** Its reference as the visitor knows it ("PS-1A2B3C4D"). */
      signupReference: string;
      /** Shown to the customer on Stripe's page ("Premium maintenance plan, first year"). */
      productName: string;
    };

export type CheckoutRequest = CheckoutSubject & {
  /** What the customer pays now (the invoice's balance): an integer from 50 ($0.50, Stripe's minimum) to 99,999,999. */
  amountCents: number;
  currency: 'usd';
  /** Prefills the e-mail on Stripe's page (and receives Stripe's receipt when the account sends them). */
  customerEmail?: string | undefined;
  /** Where Stripe sends the customer after paying; `{CHECKOUT_SESSION_ID}` in it is replaced by the session's id. */
  successUrl: string;
  /** Where Stripe's "back" link goes (the invoice page). */
  cancelUrl: string;
  /**
   * Stripe's Idempotency-Key: a repeat with the same key and the same request answers the same
   * session (a double click, a retry after a timeout); the same key with a different request is
   * refused (`kind: 'idempotency'`). Up to 255 characters. Decision 024-e says how to build it.
   */
  idempotencyKey: string;
};

export type RefundRequest = {
  /** `pi_...`: the payment to refund, all of what remains of it. */
  paymentIntentId: string;
  /** Kept with the refund (`metadata[...]`), e.g. `{ signup_id }`. */
  metadata: Record<string, string>;
  idempotencyKey: string;
};

/** A Refund as the caller needs it: `succeeded` or `pending` (card refunds settle later); `failed` / `canceled` when the bank refused. */
export type RefundResult = {
  /** `id`: "re_..." */
  refundId: string;
  status: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';
  amountCents: number;
};

export type CheckoutStatus = 'open' | 'complete' | 'expired';
export type CheckoutPaymentStatus = 'paid' | 'unpaid' | 'no_payment_required';

/** A Checkout Session as the invoices module needs it (Stripe's field names in the comments). */
export type CheckoutSession = {
  /** `id`: "cs_test_..." or "cs_live_..." */
  sessionId: string;
  /** `url`: Stripe's hosted payment page, to redirect the customer to (null once the session is complete or expired). */
  url: string | null;
  /** `status` */
  status: CheckoutStatus;
  /** `payment_status`: "paid" means the money is captured. */
  paymentStatus: CheckoutPaymentStatus;
  /** `amount_total`, in cents */
  amountTotalCents: number | null;
  /** `currency` (lower case) */
  currency: string | null;
  /** `payment_intent`: set once the customer has paid (null before, since API version 2022-08-01). */
  paymentIntentId: string | null;
  /** `metadata.invoice_id`, else `client_reference_id` (when the session is not a sign-up's) */
  invoiceId: string | null;
  /** `metadata.signup_id`: a maintenance plan sign-up's payment. */
  signupId: string | null;
  /** `expires_at` */
  expiresAt: Date;
};

/** A Stripe event as delivered to a webhook endpoint (the fields every event has; `data.object` is the resource). */
export type StripeEvent = {
  id: string;
  object: 'event';
  type: string;
  /** Unix seconds */
  created: number;
  livemode: boolean;
  api_version: string | null;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> | undefined };
};

export type PaymentGateway = {
  kind: 'stripe';
  /** Creates a hosted payment page for the amount (POST /v1/checkout/sessions). */
  createCheckout: (request: CheckoutRequest) => Promise<CheckoutSession>;
  /** Reads a session (GET /v1/checkout/sessions/:id), e.g. when the customer comes back on the success URL. */
  retrieveCheckout: (sessionId: string) => Promise<CheckoutSession>;
  /** Closes an open session so it can no longer be paid (the invoice was voided or its balance changed). */
  expireCheckout: (sessionId: string) => Promise<CheckoutSession>;
  /**
   * Refunds a payment in full (POST /v1/refunds with `payment_intent`), e.g. a declined plan
   * sign-up's. The Idempotency-Key makes a repeat (a double click, two staff) the same refund;
   * Stripe announces it as `charge.refunded`, which the webhook records.
   */
  refund: (request: RefundRequest) => Promise<RefundResult>;
  /**
   * Checks the Stripe-Signature header over the raw request body (the exact bytes received, not
   * re-serialised JSON) and answers the event. Throws WebhookSignatureError otherwise.
   */
  verifyWebhook: (rawBody: Buffer, signatureHeader: string | undefined, now?: Date) => StripeEvent;
};

export type PaymentGatewayErrorKind =
  /** 401: the secret key is wrong or revoked (fix STRIPE_SECRET_KEY). */
  | 'authentication'
  /** 403: a restricted key without the permission. */
  | 'permission'
  /** 400/402: the request itself was refused (a bad parameter, an amount too small); sending it again fails the same way. */
  | 'invalid_request'
  /** The Idempotency-Key was used before with a different request. */
  | 'idempotency'
  /** 404: no such session or payment. */
  | 'not_found'
  /** 429 */
  | 'rate_limited'
  /** 409 or 5xx: Stripe's own trouble. */
  | 'provider_error'
  /** No answer within STRIPE_TIMEOUT_MS. Stripe may still have created the session: retry with the same key. */
  | 'timeout'
  /** The connection failed (DNS, refused, reset). */
  | 'unreachable'
  /** A 2xx answer that is not the expected object. */
  | 'bad_response';

/**
 * Stripe refused the request or could not be reached. The message is for logs and staff (it never
 * contains the secret key); the customer is shown a plain "online payment is unavailable" instead.
 * `retryable`: the same request (same Idempotency-Key) may succeed later.
 */
export class PaymentGatewayError extends Error {
  constructor(
    message: string,
    readonly details: {
      kind: PaymentGatewayErrorKind;
      retryable: boolean;
      httpStatus?: number | undefined;
      /** Stripe's `error.type` (invalid_request_error, idempotency_error, api_error, ...). */
      stripeType?: string | undefined;
      /** Stripe's `error.code` (parameter_missing, amount_too_small, resource_missing, ...). */
      stripeCode?: string | undefined;
      /** Stripe's `error.param`: the parameter at fault. */
      param?: string | undefined;
      /** Stripe's Request-Id header, for Stripe's support. */
      requestId?: string | undefined;
    },
  ) {
    super(message);
    this.name = 'PaymentGatewayError';
  }
}

export type WebhookSignatureFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'no_v1_signature'
  | 'signature_mismatch'
  | 'timestamp_outside_tolerance'
  | 'invalid_payload';

/** A webhook request that is not Stripe's (or is too old to trust): the route answers 400 and records nothing. */
export class WebhookSignatureError extends Error {
  constructor(
    message: string,
    readonly reason: WebhookSignatureFailure,
  ) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}
