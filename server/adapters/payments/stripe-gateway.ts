import { z } from 'zod';
import {
  PaymentGatewayError,
  WebhookSignatureError,
  type CheckoutRequest,
  type CheckoutSession,
  type PaymentGateway,
  type PaymentGatewayErrorKind,
  type RefundResult,
  type StripeEvent,
} from './payment-gateway.ts';
import { verifyStripeSignature } from './stripe-signature.ts';

/**
 * The API version every request names (Stripe-Version): the one stripe-node's src/apiVersion.ts
 * named when this adapter was written. Pinned, so an account's default version changing does not
 * change the answers; the adapter reads only fields that are the same across versions since
 * 2022-08-01 (decision 024-e).
 */
export const stripeApiVersion = '2026-07-29.dahlia';

/** Stripe's amount limits for USD: at least $0.50, at most $999,999.99 (8 digits). */
export const stripeMinimumAmountCents = 50;
export const stripeMaximumAmountCents = 99_999_999;

export type StripeGatewayOptions = {
  /** STRIPE_API_URL: https://api.stripe.com, or a test's fake (a trailing slash is ignored). */
  apiUrl: string;
  /** STRIPE_SECRET_KEY: sk_live_..., sk_test_... or a restricted key rk_... */
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET: the endpoint's signing secret, whsec_... */
  webhookSecret: string;
  /** STRIPE_TIMEOUT_MS: the longest wait for one answer. */
  timeoutMs: number;
};

const sessionIdPattern = /^cs_[A-Za-z0-9_]{1,250}$/;

/** What the adapter reads of a Checkout Session; Stripe's other fields are ignored. */
const sessionSchema = z.object({
  id: z.string().regex(sessionIdPattern),
  object: z.literal('checkout.session'),
  url: z.string().nullish(),
  status: z.enum(['open', 'complete', 'expired']),
  payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  // An id, or the object when expanded.
  payment_intent: z.union([z.string(), z.object({ id: z.string() }).loose()]).nullish(),
  client_reference_id: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  expires_at: z.number().int(),
});

const refundSchema = z.object({
  id: z.string().regex(/^re_[A-Za-z0-9_]+$/),
  object: z.literal('refund'),
  amount: z.number().int(),
  status: z.enum(['pending', 'requires_action', 'succeeded', 'failed', 'canceled']),
});

const paymentIntentIdPattern = /^pi_[A-Za-z0-9_]{1,250}$/;

const eventSchema = z.object({
  id: z.string().regex(/^evt_[A-Za-z0-9_]+$/),
  object: z.literal('event'),
  type: z.string().min(1),
  created: z.number().int(),
  livemode: z.boolean(),
  api_version: z.string().nullish(),
  data: z.object({ object: z.record(z.string(), z.unknown()), previous_attributes: z.record(z.string(), z.unknown()).optional() }).loose(),
  // Stripe's other fields (pending_webhooks, request, ...) are kept: the event is stored as received.
}).loose();

const stripeErrorSchema = z.object({
  error: z.object({ type: z.string().optional(), code: z.string().optional(), message: z.string().optional(), param: z.string().optional() }).loose(),
});

function toSession(raw: z.infer<typeof sessionSchema>): CheckoutSession {
  const paymentIntent = raw.payment_intent;
  return {
    sessionId: raw.id,
    url: raw.url ?? null,
    status: raw.status,
    paymentStatus: raw.payment_status,
    amountTotalCents: raw.amount_total ?? null,
    currency: raw.currency ?? null,
    paymentIntentId: typeof paymentIntent === 'string' ? paymentIntent : (paymentIntent?.id ?? null),
    invoiceId: raw.metadata?.invoice_id ?? (raw.metadata?.signup_id ? null : (raw.client_reference_id ?? null)),
    signupId: raw.metadata?.signup_id ?? null,
    expiresAt: new Date(raw.expires_at * 1000),
  };
}

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The request's own faults, refused before anything is sent (the same mistakes Stripe would answer 400 to). */
function checkRequest(request: CheckoutRequest): void {
  const refuse = (message: string, param: string) => {
    throw new PaymentGatewayError(message, { kind: 'invalid_request', retryable: false, param });
  };
  if (!Number.isSafeInteger(request.amountCents) || request.amountCents < stripeMinimumAmountCents || request.amountCents > stripeMaximumAmountCents) {
    refuse(`The amount must be a whole number of cents from ${stripeMinimumAmountCents} to ${stripeMaximumAmountCents}`, 'amountCents');
  }
  if (request.currency !== 'usd') refuse('Only USD is supported', 'currency');
  if ('invoiceId' in request) {
    if (!request.invoiceId || request.invoiceId.length > 200) refuse('The invoice id must be 1 to 200 characters', 'invoiceId');
    if (!request.invoiceNumber || request.invoiceNumber.length > 100) refuse('The invoice number must be 1 to 100 characters', 'invoiceNumber');
  } else {
    if (!request.signupId || request.signupId.length > 200) refuse('The sign-up id must be 1 to 200 characters', 'signupId');
    if (!request.signupReference || request.signupReference.length > 100) refuse('The sign-up reference must be 1 to 100 characters', 'signupReference');
    if (!request.productName || request.productName.length > 250) refuse('The product name must be 1 to 250 characters', 'productName');
  }
  if (!isAbsoluteHttpUrl(request.successUrl)) refuse('The success URL must be an absolute http(s) URL', 'successUrl');
  if (!isAbsoluteHttpUrl(request.cancelUrl)) refuse('The cancel URL must be an absolute http(s) URL', 'cancelUrl');
  if (!request.idempotencyKey || request.idempotencyKey.length > 255) refuse('The idempotency key must be 1 to 255 characters', 'idempotencyKey');
}

/** The form body of POST /v1/checkout/sessions, in the bracket notation Stripe's SDKs send. */
export function checkoutSessionForm(request: CheckoutRequest): URLSearchParams {
  const form = new URLSearchParams();
  form.set('mode', 'payment');
  form.set('line_items[0][price_data][currency]', request.currency);
  form.set('line_items[0][price_data][unit_amount]', String(request.amountCents));
  const isInvoice = 'invoiceId' in request;
  form.set('line_items[0][price_data][product_data][name]', isInvoice ? `Invoice ${request.invoiceNumber}` : request.productName);
  form.set('line_items[0][quantity]', '1');
  // Cards only: the issue asks for card payment, and a card is paid (or refused) while the customer waits.
  form.set('payment_method_types[0]', 'card');
  form.set('success_url', request.successUrl);
  form.set('cancel_url', request.cancelUrl);
  const metadata: [string, string][] = isInvoice
    ? [
        ['invoice_id', request.invoiceId],
        ['invoice_number', request.invoiceNumber],
      ]
    : [
        ['signup_id', request.signupId],
        ['signup_reference', request.signupReference],
      ];
  form.set('client_reference_id', metadata[0]![1]);
  for (const [key, value] of metadata) form.set(`metadata[${key}]`, value);
  // Copied to the payment intent, so payment_intent.succeeded (and the charge) name the invoice or sign-up too.
  for (const [key, value] of metadata) form.set(`payment_intent_data[metadata][${key}]`, value);
  if (request.customerEmail) form.set('customer_email', request.customerEmail);
  return form;
}

function networkCode(error: unknown): string | null {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : null;
}

function kindOf(status: number, stripeType: string | undefined): PaymentGatewayErrorKind {
  if (stripeType === 'idempotency_error') return 'idempotency';
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 409 || status >= 500) return 'provider_error';
  return 'invalid_request';
}

const kindSummary: Record<PaymentGatewayErrorKind, string> = {
  authentication: 'Stripe refused the secret key (check STRIPE_SECRET_KEY)',
  permission: 'The Stripe key may not do this (a restricted key needs Checkout Sessions: write)',
  invalid_request: 'Stripe refused the request',
  idempotency: 'Stripe refused the request: its Idempotency-Key was used before with a different request',
  not_found: 'Stripe has no such Checkout Session or payment',
  rate_limited: 'Stripe asked to slow down',
  provider_error: 'Stripe failed to answer the request',
  timeout: 'Stripe did not answer in time',
  unreachable: 'Stripe could not be reached',
  bad_response: 'Stripe answered something that is not the expected object',
};

/**
 * Stripe Checkout over Stripe's REST API with plain fetch (decision 024-e): form-encoded bodies,
 * `Authorization: Bearer <secret key>`, a pinned Stripe-Version, the caller's Idempotency-Key,
 * and a timeout on every call. No retries here: a create is retried by the caller with the same
 * Idempotency-Key. Error messages never contain the secret key.
 */
export function createStripeGateway(options: StripeGatewayOptions): PaymentGateway {
  const base = options.apiUrl.replace(/\/+$/, '');
  const scrub = (text: string) => (options.secretKey ? text.split(options.secretKey).join('[redacted]') : text);

  async function call(method: 'GET' | 'POST', path: string, body?: URLSearchParams, idempotencyKey?: string): Promise<unknown> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.secretKey}`,
      accept: 'application/json',
      'stripe-version': stripeApiVersion,
      'user-agent': 'lowcountry-hvac-office/1.0 (payments adapter; fetch)',
    };
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${base}${path}`, { method, headers, body: body?.toString(), signal: timeout });
      text = await response.text();
    } catch (error) {
      if (timeout.aborted) {
        throw new PaymentGatewayError(`${kindSummary.timeout}: no answer within ${options.timeoutMs} ms`, { kind: 'timeout', retryable: true });
      }
      const code = networkCode(error);
      throw new PaymentGatewayError(`${kindSummary.unreachable}${code ? ` (${code})` : ''}`, { kind: 'unreachable', retryable: true });
    }
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's error page): judged on the status alone.
    }
    const requestId = response.headers.get('request-id') ?? undefined;
    if (response.ok) return json;
    const parsed = stripeErrorSchema.safeParse(json);
    const stripeError = parsed.success ? parsed.data.error : undefined;
    const kind = kindOf(response.status, stripeError?.type);
    const shouldRetry = response.headers.get('stripe-should-retry');
    const retryable = shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : kind === 'rate_limited' || kind === 'provider_error';
    const explanation = stripeError?.message ? `: ${scrub(stripeError.message.trim().slice(0, 300))}` : '';
    throw new PaymentGatewayError(`${kindSummary[kind]} (HTTP ${response.status}${stripeError?.code ? `, ${stripeError.code}` : ''})${explanation}`, {
      kind,
      retryable,
      httpStatus: response.status,
      stripeType: stripeError?.type,
      stripeCode: stripeError?.code,
      param: stripeError?.param,
      requestId,
    });
  }

  function sessionFrom(json: unknown): CheckoutSession {
    const parsed = sessionSchema.safeParse(json);
    if (!parsed.success) throw new PaymentGatewayError(kindSummary.bad_response, { kind: 'bad_response', retryable: false });
    return toSession(parsed.data);
  }

  function checkSessionId(sessionId: string): void {
    if (!sessionIdPattern.test(sessionId)) {
      throw new PaymentGatewayError('Not a Checkout Session id', { kind: 'not_found', retryable: false, param: 'sessionId' });
    }
  }

  return {
    kind: 'stripe',
    createCheckout: async (request) => {
      checkRequest(request);
      const session = sessionFrom(await call('POST', '/v1/checkout/sessions', checkoutSessionForm(request), request.idempotencyKey));
      if (!session.url) throw new PaymentGatewayError(`${kindSummary.bad_response}: the new session has no URL`, { kind: 'bad_response', retryable: false });
      return session;
    },
    retrieveCheckout: async (sessionId) => {
      checkSessionId(sessionId);
      return sessionFrom(await call('GET', `/v1/checkout/sessions/${sessionId}`));
    },
    expireCheckout: async (sessionId) => {
      checkSessionId(sessionId);
      return sessionFrom(await call('POST', `/v1/checkout/sessions/${sessionId}/expire`, new URLSearchParams()));
    },
    refund: async (request): Promise<RefundResult> => {
      if (!paymentIntentIdPattern.test(request.paymentIntentId)) {
        throw new PaymentGatewayError('Not a payment intent id', { kind: 'not_found', retryable: false, param: 'paymentIntentId' });
      }
      if (!request.idempotencyKey || request.idempotencyKey.length > 255) {
        throw new PaymentGatewayError('The idempotency key must be 1 to 255 characters', { kind: 'invalid_request', retryable: false, param: 'idempotencyKey' });
      }
      const form = new URLSearchParams();
      form.set('payment_intent', request.paymentIntentId);
      for (const [key, value] of Object.entries(request.metadata)) form.set(`metadata[${key}]`, value);
      const parsed = refundSchema.safeParse(await call('POST', '/v1/refunds', form, request.idempotencyKey));
      if (!parsed.success) throw new PaymentGatewayError(kindSummary.bad_response, { kind: 'bad_response', retryable: false });
      return { refundId: parsed.data.id, status: parsed.data.status, amountCents: parsed.data.amount };
    },
    verifyWebhook: (rawBody, signatureHeader, now) => {
      verifyStripeSignature({ rawBody, header: signatureHeader, secret: options.webhookSecret, now });
      let json: unknown;
      try {
        json = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new WebhookSignatureError('The signed body is not JSON', 'invalid_payload');
      }
      const parsed = eventSchema.safeParse(json);
      if (!parsed.success) throw new WebhookSignatureError('The signed body is not a Stripe event', 'invalid_payload');
      const event = parsed.data;
      return { ...event, api_version: event.api_version ?? null } satisfies StripeEvent;
    },
  };
}
