import { createHmac, randomBytes } from 'node:crypto';
import { startFakeHttpServer, type FakeAnswer, type RecordedRequest } from './fake-http-server.ts';

/**
 * A local Stripe for tests (issue 20, decision 024-e): a real HTTP server on 127.0.0.1 that speaks
 * Stripe's request, redirect and webhook shapes. It does NOT import the adapter: its signatures are
 * computed here, independently, so a test that the adapter accepts them checks two implementations
 * of Stripe's scheme against each other.
 *
 * API (form-encoded bodies, `Authorization: Bearer <secret key>` or Basic with the key as user):
 * - `POST /v1/checkout/sessions`: checks the form as Stripe does (unknown parameters, missing
 *   required ones, integers, URLs, the $0.50 minimum), answers the Checkout Session object (`cs_test_`
 *   id, `url` = this server's hosted page); honours `Idempotency-Key` (same key and body: the first
 *   answer again, with `Idempotent-Replayed: true`; same key, other body: 400 `idempotency_error`).
 * - `GET /v1/checkout/sessions/:id`, `POST /v1/checkout/sessions/:id/expire`.
 * - `POST /v1/refunds` (`payment_intent` or `charge`, optional `amount` and `metadata[...]`; the
 *   same Idempotency-Key rule): a `re_` Refund, `succeeded`, and `charge.refunded` with the
 *   charge's cumulative `amount_refunded`; 400 `charge_already_refunded` when nothing remains.
 * - Errors in Stripe's shape `{ error: { type, code?, message, param?, doc_url? } }`: 401 for a
 *   missing or wrong key, 400 for a bad parameter, 404 `resource_missing`.
 *
 * Hosted page (a real page a browser can click through):
 * - `GET /pay/:id`: the amount, the invoice's name, a card number field (4242 4242 4242 4242 pays,
 *   4000 0000 0000 0002 is declined, as Stripe's test cards), a "Pay" button (a form POST) and a
 *   "Cancel" link to `cancel_url`.
 * - `POST /pay/:id`: paying completes the session (`complete` / `paid`, a `pi_` payment intent and a
 *   `ch_` charge), sends the webhooks, and redirects (303) to `success_url` with
 *   `{CHECKOUT_SESSION_ID}` replaced, as Stripe does.
 *
 * Webhooks, signed as Stripe signs them (`Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of
 * "t.body" keyed with the whsec_ secret>`; the body pretty-printed JSON like Stripe's), to
 * `setWebhookTarget(url or handler)`: `checkout.session.completed`, `checkout.session.async_payment_succeeded`,
 * `checkout.session.async_payment_failed`, `checkout.session.expired`, `payment_intent.succeeded`,
 * `charge.refunded`. `webhookMode`: `before-redirect` (default: delivered, in order, before the
 * customer is redirected), `after-redirect` (delivered after: the success page may be first; await
 * `idle()`), `manual` (kept in `undelivered()` for the test to deliver in any order). Test controls:
 * `deliver(id, { signature, timestamp, extraSignatures })`, `deliverInOrder(ids)`, `resend(id)`,
 * `refund(paymentIntentId, cents)`, `payAsync` / `settleAsync` (a delayed payment method),
 * `failNext` / `hangNext` for the API.
 */

export type StripeObject = Record<string, unknown>;
export type FakeStripeEvent = {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: StripeObject };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
};

/** A webhook delivery: what was sent and what the endpoint answered. */
export type FakeStripeDelivery = { eventId: string; type: string; body: string; signatureHeader: string; status: number; responseBody: string };

/** How a delivery is signed: `valid`; `wrong-secret` (another whsec_); `tampered-body` (signed, then the body changed); `none` (no header). */
export type SignatureMode = 'valid' | 'wrong-secret' | 'tampered-body' | 'none';

export type DeliverOptions = {
  signature?: SignatureMode;
  /** The header's `t` (Unix seconds): defaults to now. */
  timestamp?: number;
  /** More `v1=` values put BEFORE the valid one (e.g. a rotated-out secret's signature). */
  extraSignatures?: string[];
};

export type WebhookHandler = (request: { body: string; headers: Record<string, string> }) => Promise<{ status: number; body: string }>;
export type WebhookMode = 'before-redirect' | 'after-redirect' | 'manual';

/** A failure the API answers with (after the key and form checks pass). */
export type FakeStripeFailure = { status: number; type?: string; code?: string; message?: string; shouldRetry?: boolean };

const defaultApiVersion = '2026-07-29.dahlia';
const stripeDocs = 'https://stripe.com/docs/error-codes';

function base62(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let text = '';
  for (const byte of randomBytes(length)) text += alphabet[byte % alphabet.length];
  return text;
}

/** Stripe-like ids: a prefix and 24 base62 characters (pi_..., ch_..., evt_...). */
export function stripeId(prefix: string): string {
  return `${prefix}_${base62(24)}`;
}

/** A test-mode Checkout Session id, as long as Stripe's: "cs_test_a1" and 58 base62 characters. */
export function checkoutSessionId(): string {
  return `cs_test_a1${base62(58)}`;
}

/** Stripe's webhook signature, written here from Stripe's documentation (not the adapter's code). */
export function fakeStripeSign(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

function stripeError(status: number, error: { type: string; message: string; code?: string; param?: string }, headers: Record<string, string> = {}): Exclude<FakeAnswer, 'hang'> {
  return {
    status,
    json: { error: { ...error, ...(error.code ? { doc_url: `${stripeDocs}/${error.code.replace(/_/g, '-')}` } : {}), request_log_url: null } },
    headers: { 'request-id': stripeId('req'), ...headers },
  };
}

const invalidRequest = (message: string, code?: string, param?: string): Exclude<FakeAnswer, 'hang'> => stripeError(400, { type: 'invalid_request_error', message, code, param });

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function formatUsd(cents: number): string {
  return `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

function isUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The parameters POST /v1/checkout/sessions accepts here (a subset of Stripe's; anything else is `parameter_unknown`). */
const knownSessionParams = [
  /^mode$/,
  /^success_url$/,
  /^cancel_url$/,
  /^client_reference_id$/,
  /^customer_email$/,
  /^expires_at$/,
  /^locale$/,
  /^metadata\[[^\]]{1,40}\]$/,
  /^payment_intent_data\[metadata\]\[[^\]]{1,40}\]$/,
  /^payment_intent_data\[description\]$/,
  /^payment_method_types\[\d+\]$/,
  /^line_items\[\d+\]\[quantity\]$/,
  /^line_items\[\d+\]\[price_data\]\[(currency|unit_amount)\]$/,
  /^line_items\[\d+\]\[price_data\]\[product_data\]\[(name|description)\]$/,
];

function nestedMap(form: Map<string, string>, prefix: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of form) {
    if (key.startsWith(`${prefix}[`) && key.endsWith(']') && !key.slice(prefix.length + 1, -1).includes('[')) {
      result[key.slice(prefix.length + 1, -1)] = value;
    }
  }
  return result;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Fixed test-mode keys for a fake run as its own process (fake-stripe-main.ts), so a browser
 * journey's server can be started with them. They open nothing but the fake.
 */
export const fakeStripeFixedKeys = {
  secretKey: 'sk_test_FakeStripeForBrowserJourneys0000',
  webhookSecret: 'whsec_FakeStripeForBrowserJourneys0000',
} as const;

export async function startFakeStripeServer(
  options: { secretKey?: string; webhookSecret?: string; webhookMode?: WebhookMode; webhookTarget?: string; port?: number } = {},
) {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(24).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(24).toString('base64').replace(/[^A-Za-z0-9]/g, '')}`;
  const sessions = new Map<string, StripeObject>();
  const paymentIntents = new Map<string, StripeObject>();
  const charges = new Map<string, StripeObject>();
  const refunds = new Map<string, StripeObject>();
  const idempotency = new Map<string, { path: string; body: string; answer: Exclude<FakeAnswer, 'hang'> }>();
  const events: FakeStripeEvent[] = [];
  const deliveries: FakeStripeDelivery[] = [];
  const deliveredIds = new Set<string>();
  const inFlight = new Set<Promise<unknown>>();
  const pending: Array<FakeStripeFailure | 'hang' | 'hang-after-processing'> = [];
  const internal = new Map<string, { lineItems: StripeObject[]; paymentIntentMetadata: Record<string, string> }>();
  const state: { target: string | WebhookHandler | null; mode: WebhookMode; apiVersion: string } = {
    target: options.webhookTarget ?? null,
    mode: options.webhookMode ?? 'before-redirect',
    apiVersion: defaultApiVersion,
  };
  let baseUrl = '';

  const now = () => Math.floor(Date.now() / 1000);

  function createEvent(type: string, object: StripeObject, request: { id: string | null; idempotency_key: string | null } = { id: null, idempotency_key: null }): FakeStripeEvent {
    const event: FakeStripeEvent = {
      id: stripeId('evt'),
      object: 'event',
      api_version: state.apiVersion,
      created: now(),
      data: { object: clone(object) },
      livemode: false,
      pending_webhooks: 1,
      request,
      type,
    };
    events.push(event);
    return event;
  }

  /** Sends one event to the target and records the answer. */
  async function deliver(eventOrId: FakeStripeEvent | string, deliverOptions: DeliverOptions = {}): Promise<FakeStripeDelivery> {
    const event = typeof eventOrId === 'string' ? events.find((candidate) => candidate.id === eventOrId) : eventOrId;
    if (!event) throw new Error(`No event ${String(eventOrId)}`);
    if (!state.target) throw new Error('No webhook target: call setWebhookTarget first');
    // Stripe's payloads are pretty-printed JSON with two spaces.
    const body = JSON.stringify(event, null, 2);
    const timestamp = deliverOptions.timestamp ?? now();
    const mode = deliverOptions.signature ?? 'valid';
    const secret = mode === 'wrong-secret' ? `whsec_${randomBytes(24).toString('hex')}` : webhookSecret;
    const signature = fakeStripeSign(secret, timestamp, body);
    const parts = [`t=${timestamp}`, ...(deliverOptions.extraSignatures ?? []).map((value) => `v1=${value}`), `v1=${signature}`];
    const signatureHeader = parts.join(',');
    const sentBody = mode === 'tampered-body' ? body.replace(/"livemode": false/, '"livemode": true') : body;
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      accept: '*/*; q=0.5, application/xml',
      'cache-control': 'no-cache',
    };
    if (mode !== 'none') headers['stripe-signature'] = signatureHeader;
    let status: number;
    let responseBody: string;
    if (typeof state.target === 'function') {
      ({ status, body: responseBody } = await state.target({ body: sentBody, headers }));
    } else {
      try {
        const response = await fetch(state.target, { method: 'POST', headers, body: sentBody, signal: AbortSignal.timeout(10_000) });
        status = response.status;
        responseBody = await response.text();
      } catch (error) {
        status = 0;
        responseBody = String(error);
      }
    }
    const delivery = { eventId: event.id, type: event.type, body: sentBody, signatureHeader, status, responseBody };
    deliveries.push(delivery);
    deliveredIds.add(event.id);
    return delivery;
  }

  /** Sends new events as the mode says; answers once they are sent (before-redirect) or at once. */
  async function announce(newEvents: FakeStripeEvent[]): Promise<void> {
    if (state.mode === 'manual' || !state.target) return;
    const run = (async () => {
      for (const event of newEvents) await deliver(event);
    })();
    if (state.mode === 'before-redirect') {
      await run;
      return;
    }
    const tracked = run.catch(() => undefined).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  }

  function authorized(request: RecordedRequest): FakeAnswer | null {
    const header = String(request.headers.authorization ?? '');
    if (!header) {
      return stripeError(401, {
        type: 'invalid_request_error',
        message: "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      });
    }
    let key = '';
    if (header.startsWith('Bearer ')) key = header.slice('Bearer '.length);
    if (header.startsWith('Basic ')) key = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8').split(':')[0] ?? '';
    if (key !== secretKey) {
      const masked = key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(Math.min(20, key.length - 12))}${key.slice(-4)}` : '****';
      return stripeError(401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${masked}` });
    }
    return null;
  }

  function sessionUrl(id: string): string {
    return `${baseUrl}/pay/${id}`;
  }

  function createSession(form: Map<string, string>, request: RecordedRequest): Exclude<FakeAnswer, 'hang'> {
    for (const key of form.keys()) {
      if (!knownSessionParams.some((pattern) => pattern.test(key))) return invalidRequest(`Received unknown parameter: ${key}`, 'parameter_unknown', key);
    }
    const mode = form.get('mode');
    if (!mode) return invalidRequest('Missing required param: mode.', 'parameter_missing', 'mode');
    if (mode !== 'payment') return invalidRequest(`Invalid mode: must be one of payment, setup or subscription`, 'parameter_invalid_string', 'mode');
    const successUrl = form.get('success_url');
    if (successUrl !== undefined && !isUrl(successUrl)) return invalidRequest('Not a valid URL', 'url_invalid', 'success_url');
    const cancelUrl = form.get('cancel_url');
    if (cancelUrl !== undefined && !isUrl(cancelUrl)) return invalidRequest('Not a valid URL', 'url_invalid', 'cancel_url');
    const email = form.get('customer_email');
    if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return invalidRequest(`Invalid email address: ${email}`, 'email_invalid', 'customer_email');
    const lineIndexes = [...new Set([...form.keys()].map((key) => /^line_items\[(\d+)\]/.exec(key)?.[1]).filter((index): index is string => index !== undefined))];
    if (lineIndexes.length === 0) return invalidRequest('You must provide at least one recurring price in `subscription` mode or at least one line item in `payment` mode.', 'parameter_missing', 'line_items');
    let total = 0;
    let currency: string | null = null;
    const lineItems: StripeObject[] = [];
    for (const index of lineIndexes) {
      const prefix = `line_items[${index}]`;
      const required = [`${prefix}[price_data][currency]`, `${prefix}[price_data][unit_amount]`, `${prefix}[price_data][product_data][name]`, `${prefix}[quantity]`];
      for (const param of required) {
        if (!form.get(param)) return invalidRequest(`Missing required param: ${param}.`, 'parameter_missing', param);
      }
      const lineCurrency = form.get(`${prefix}[price_data][currency]`)!;
      if (!/^[a-z]{3}$/.test(lineCurrency)) return invalidRequest(`Invalid currency: ${lineCurrency}.`, 'parameter_invalid_string', `${prefix}[price_data][currency]`);
      if (currency !== null && currency !== lineCurrency) return invalidRequest('All line items must have the same currency.', 'parameter_invalid_string', `${prefix}[price_data][currency]`);
      currency = lineCurrency;
      const unitText = form.get(`${prefix}[price_data][unit_amount]`)!;
      const quantityText = form.get(`${prefix}[quantity]`)!;
      if (!/^\d+$/.test(unitText)) return invalidRequest('Invalid integer: ' + unitText, 'parameter_invalid_integer', `${prefix}[price_data][unit_amount]`);
      if (!/^[1-9]\d*$/.test(quantityText)) return invalidRequest('Invalid integer: ' + quantityText, 'parameter_invalid_integer', `${prefix}[quantity]`);
      total += Number(unitText) * Number(quantityText);
      lineItems.push({ name: form.get(`${prefix}[price_data][product_data][name]`), unit_amount: Number(unitText), quantity: Number(quantityText) });
    }
    if (currency === 'usd' && total < 50) {
      return invalidRequest('The Checkout Session\u2019s total amount due must add up to at least $0.50 usd', 'amount_too_small', 'line_items');
    }
    if (total > 99_999_999) return invalidRequest('Amount must be no more than $999,999.99', 'amount_too_large', 'line_items');
    const paymentMethodTypes = [...form.entries()].filter(([key]) => key.startsWith('payment_method_types[')).map(([, value]) => value);
    const id = checkoutSessionId();
    const created = now();
    const version = String(request.headers['stripe-version'] ?? '');
    if (version) state.apiVersion = version;
    const session: StripeObject = {
      id,
      object: 'checkout.session',
      adaptive_pricing: null,
      after_expiration: null,
      allow_promotion_codes: null,
      amount_subtotal: total,
      amount_total: total,
      automatic_tax: { enabled: false, liability: null, status: null },
      billing_address_collection: null,
      cancel_url: cancelUrl ?? null,
      client_reference_id: form.get('client_reference_id') ?? null,
      client_secret: null,
      created,
      currency,
      customer: null,
      customer_creation: 'if_required',
      customer_details: email ? { address: null, email, name: null, phone: null, tax_exempt: 'none', tax_ids: [] } : null,
      customer_email: email ?? null,
      expires_at: Number(form.get('expires_at') ?? created + 24 * 60 * 60),
      invoice: null,
      livemode: false,
      locale: form.get('locale') ?? null,
      metadata: nestedMap(form, 'metadata'),
      mode,
      payment_intent: null,
      payment_link: null,
      payment_method_types: paymentMethodTypes.length > 0 ? paymentMethodTypes : ['card'],
      payment_status: 'unpaid',
      recovered_from: null,
      setup_intent: null,
      shipping_address_collection: null,
      status: 'open',
      submit_type: null,
      subscription: null,
      success_url: successUrl ?? null,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted',
      url: sessionUrl(id),
    };
    sessions.set(id, session);
    internal.set(id, { lineItems, paymentIntentMetadata: nestedMap(form, 'payment_intent_data[metadata]') });
    return { status: 200, json: session, headers: { 'request-id': stripeId('req') } };
  }

  /** Completes a session: a payment intent and a charge, then the session's and the intent's events. */
  function completeSession(session: StripeObject, paid: boolean): FakeStripeEvent[] {
    const amount = Number(session.amount_total);
    const metadata = internal.get(String(session.id))?.paymentIntentMetadata ?? {};
    const paymentIntentId = stripeId('pi');
    const chargeId = stripeId('ch');
    const created = now();
    const paymentIntent: StripeObject = {
      id: paymentIntentId,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: paid ? amount : 0,
      capture_method: 'automatic_async',
      created,
      currency: session.currency,
      customer: null,
      description: null,
      latest_charge: paid ? chargeId : null,
      livemode: false,
      metadata,
      payment_method: stripeId('pm'),
      payment_method_types: session.payment_method_types,
      status: paid ? 'succeeded' : 'processing',
    };
    paymentIntents.set(paymentIntentId, paymentIntent);
    if (paid) charges.set(chargeId, chargeFor(paymentIntent, chargeId));
    session.status = 'complete';
    session.payment_status = paid ? 'paid' : 'unpaid';
    session.payment_intent = paymentIntentId;
    session.url = null;
    const completed = [createEvent('checkout.session.completed', session)];
    if (paid) completed.push(createEvent('payment_intent.succeeded', paymentIntent));
    return completed;
  }

  function chargeFor(paymentIntent: StripeObject, chargeId: string): StripeObject {
    return {
      id: chargeId,
      object: 'charge',
      amount: paymentIntent.amount,
      amount_captured: paymentIntent.amount,
      amount_refunded: 0,
      balance_transaction: stripeId('txn'),
      captured: true,
      created: now(),
      currency: paymentIntent.currency,
      livemode: false,
      // Stripe copies the payment intent's metadata onto the charge it creates.
      metadata: clone(paymentIntent.metadata),
      paid: true,
      payment_intent: paymentIntent.id,
      payment_method_details: { card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 }, type: 'card' },
      refunded: false,
      status: 'succeeded',
    };
  }

  function hostedPage(session: StripeObject, message?: { text: string; isError: boolean }): string {
    const amount = Number(session.amount_total);
    const name = String(internal.get(String(session.id))?.lineItems[0]?.name ?? 'Payment');
    const open = session.status === 'open';
    const cancel = typeof session.cancel_url === 'string' ? `<a href="${escapeHtml(session.cancel_url)}">Cancel</a>` : '';
    const notice = message ? `<p role="${message.isError ? 'alert' : 'status'}">${escapeHtml(message.text)}</p>` : '';
    const body = open
      ? `<form method="post" action="/pay/${escapeHtml(String(session.id))}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="email" value="${escapeHtml(String(session.customer_email ?? ''))}">
  <label for="card_number">Card number</label>
  <input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" value="4242 4242 4242 4242">
  <button type="submit">Pay ${escapeHtml(formatUsd(amount))}</button>
</form>
<p>${cancel}</p>`
      : `<p>This Checkout Session is no longer active.</p>`;
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay ${escapeHtml(formatUsd(amount))} (test mode)</title></head>
<body><main>
<p>TEST MODE</p>
<h1>${escapeHtml(name)}</h1>
<p data-testid="amount">${escapeHtml(formatUsd(amount))}</p>
${notice}
${body}
</main></body></html>`;
  }

  async function answer(request: RecordedRequest): Promise<FakeAnswer> {
    const [path = '', query = ''] = request.url.split('?');
    const pay = /^\/pay\/(cs_test_[A-Za-z0-9]+)$/.exec(path);
    if (pay) return hosted(request, pay[1]!);
    if (path.startsWith('/_fake/')) return control(request, path);
    if (!path.startsWith('/v1/')) return { status: 404, text: 'Not found' };
    const refused = authorized(request);
    if (refused) return refused;
    const body = typeof request.body === 'string' ? request.body : '';
    if (request.method === 'POST' && body !== '' && !String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return invalidRequest('Invalid request: the body must be application/x-www-form-urlencoded');
    }
    const form = new Map(new URLSearchParams(request.method === 'GET' ? query : body));

    const next = pending.shift();
    if (next === 'hang') return 'hang';
    // Processed as usual, then never answered: Stripe did the work but the caller timed out.
    const hangAfter = next === 'hang-after-processing';
    if (next && next !== 'hang-after-processing') {
      return stripeError(
        next.status,
        { type: next.type ?? (next.status >= 500 ? 'api_error' : 'invalid_request_error'), message: next.message ?? 'Refused by the test', code: next.code },
        next.shouldRetry === undefined ? {} : { 'stripe-should-retry': String(next.shouldRetry) },
      );
    }

    if (request.method === 'POST' && (path === '/v1/checkout/sessions' || path === '/v1/refunds')) {
      const key = request.headers['idempotency-key'];
      const idempotencyKey = typeof key === 'string' && key !== '' ? key : null;
      if (idempotencyKey) {
        const first = idempotency.get(idempotencyKey);
        if (first) {
          if (first.path !== path || first.body !== body) {
            return stripeError(400, {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            });
          }
          return { ...first.answer, headers: { ...first.answer.headers, 'idempotent-replayed': 'true', 'idempotency-key': idempotencyKey } };
        }
      }
      const created = path === '/v1/refunds' ? await createRefund(form) : createSession(form, request);
      if (idempotencyKey) {
        // Stripe stores the first answer, errors included (not 5xx or 429, which the fake only sends through failNext).
        idempotency.set(idempotencyKey, { path, body, answer: clone(created) });
        return hangAfter ? 'hang' : { ...created, headers: { ...created.headers, 'idempotency-key': idempotencyKey } };
      }
      return hangAfter ? 'hang' : created;
    }
    const one = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (one) {
      const session = sessions.get(decodeURIComponent(one[1]!));
      // Stripe's answer to an id it does not have under this key (the param is the path's {session}).
      if (!session) return stripeError(404, { type: 'invalid_request_error', message: `No such checkout.session: '${one[1]}'`, code: 'resource_missing', param: 'session' });
      if (hangAfter) return 'hang';
      if (!one[2] && request.method === 'GET') return { status: 200, json: session, headers: { 'request-id': stripeId('req') } };
      if (one[2] && request.method === 'POST') {
        if (session.status !== 'open') {
          return invalidRequest(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`, undefined, 'session');
        }
        session.status = 'expired';
        session.url = null;
        await announce([createEvent('checkout.session.expired', session)]);
        return { status: 200, json: session, headers: { 'request-id': stripeId('req') } };
      }
    }
    return stripeError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.` });
  }

  const html = (status: number, text: string): FakeAnswer => ({ status, text, headers: { 'content-type': 'text/html; charset=utf-8' } });

  async function hosted(request: RecordedRequest, id: string): Promise<FakeAnswer> {
    const session = sessions.get(id);
    if (!session) return html(404, '<!doctype html><title>Not found</title><p>Something went wrong: this page was not found.</p>');
    if (request.method === 'GET') return html(200, hostedPage(session));
    if (request.method !== 'POST') return { status: 405, text: 'Method not allowed' };
    if (session.status !== 'open') return html(400, hostedPage(session));
    const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
    const card = (form.get('card_number') ?? '').replace(/\s+/g, '');
    if (card === '4000000000000002') return html(402, hostedPage(session, { text: 'Your card was declined.', isError: true }));
    if (card !== '4242424242424242') return html(400, hostedPage(session, { text: 'Your card number is invalid.', isError: true }));
    const email = form.get('email');
    if (email) {
      session.customer_details = { address: null, email, name: null, phone: null, tax_exempt: 'none', tax_ids: [] };
    }
    await announce(completeSession(session, true));
    const successUrl = String(session.success_url ?? '').replaceAll('{CHECKOUT_SESSION_ID}', id);
    return { status: 303, text: '', headers: { location: successUrl } };
  }

  /**
   * The test controls over HTTP, for a browser journey whose fake runs in another process (no key:
   * it listens on 127.0.0.1 only, in tests): GET /_fake/health, GET /_fake/events (each with
   * `delivered`), GET /_fake/deliveries, POST /_fake/events/:id/deliver (JSON body: DeliverOptions),
   * POST /_fake/mode ({ mode }), POST /_fake/refund ({ paymentIntentId, amountCents? }).
   */
  async function control(request: RecordedRequest, path: string): Promise<FakeAnswer> {
    const body = (request.body !== null && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    try {
      if (request.method === 'GET' && path === '/_fake/health') return { status: 200, json: { ok: true } };
      if (request.method === 'GET' && path === '/_fake/events') return { status: 200, json: events.map((event) => ({ ...event, delivered: deliveredIds.has(event.id) })) };
      if (request.method === 'GET' && path === '/_fake/deliveries') return { status: 200, json: deliveries };
      const deliverPath = /^\/_fake\/events\/(evt_[A-Za-z0-9]+)\/deliver$/.exec(path);
      if (request.method === 'POST' && deliverPath) return { status: 200, json: await deliver(deliverPath[1]!, body as DeliverOptions) };
      if (request.method === 'POST' && path === '/_fake/mode' && ['before-redirect', 'after-redirect', 'manual'].includes(String(body.mode))) {
        state.mode = body.mode as WebhookMode;
        return { status: 200, json: { mode: state.mode } };
      }
      if (request.method === 'POST' && path === '/_fake/refund') {
        return { status: 200, json: await refund(String(body.paymentIntentId), typeof body.amountCents === 'number' ? body.amountCents : undefined) };
      }
    } catch (error) {
      return { status: 400, json: { error: String(error) } };
    }
    return { status: 404, json: { error: 'Unknown control' } };
  }

  /** POST /v1/refunds: checked as Stripe does, then the refund and its charge.refunded. */
  async function createRefund(form: Map<string, string>): Promise<Exclude<FakeAnswer, 'hang'>> {
    for (const key of form.keys()) {
      if (!/^(payment_intent|charge|amount|reason|metadata\[[^\]]+\])$/.test(key)) return invalidRequest(`Received unknown parameter: ${key}`, 'parameter_unknown', key);
    }
    const paymentIntentId = form.get('payment_intent');
    const chargeParam = form.get('charge');
    if (!paymentIntentId && !chargeParam) return invalidRequest('One of the following params should be provided for this request: payment_intent or charge.', 'parameter_missing');
    const paymentIntent = paymentIntentId ? paymentIntents.get(paymentIntentId) : undefined;
    if (paymentIntentId && !paymentIntent) return stripeError(404, { type: 'invalid_request_error', message: `No such payment_intent: '${paymentIntentId}'`, code: 'resource_missing', param: 'payment_intent' });
    const charge = charges.get(chargeParam ?? String(paymentIntent?.latest_charge));
    if (!charge) {
      if (chargeParam) return stripeError(404, { type: 'invalid_request_error', message: `No such charge: '${chargeParam}'`, code: 'resource_missing', param: 'charge' });
      return invalidRequest(`This PaymentIntent (${paymentIntentId}) does not have a successful charge to refund.`, 'charge_not_refundable', 'payment_intent');
    }
    const remaining = Number(charge.amount) - Number(charge.amount_refunded);
    if (remaining <= 0) return invalidRequest(`Charge ${String(charge.id)} has already been refunded.`, 'charge_already_refunded');
    const amountText = form.get('amount');
    if (amountText !== undefined && !/^\d+$/.test(amountText)) return invalidRequest(`Invalid integer: ${amountText}`, 'parameter_invalid_integer', 'amount');
    const amount = amountText === undefined ? remaining : Number(amountText);
    if (amount <= 0 || amount > remaining) {
      return invalidRequest(`Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(remaining / 100).toFixed(2)})`, 'amount_too_large', 'amount');
    }
    const refundObject: StripeObject = {
      id: stripeId('re'),
      object: 'refund',
      amount,
      balance_transaction: stripeId('txn'),
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      metadata: nestedMap(form, 'metadata'),
      payment_intent: charge.payment_intent,
      reason: form.get('reason') ?? null,
      status: 'succeeded',
    };
    refunds.set(String(refundObject.id), refundObject);
    charge.amount_refunded = Number(charge.amount_refunded) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    await announce([createEvent('charge.refunded', charge)]);
    return { status: 200, json: refundObject, headers: { 'request-id': stripeId('req') } };
  }

  /** Refunds part or all of a payment (as from Stripe's dashboard): charge.refunded with the cumulative amount_refunded. */
  async function refund(paymentIntentId: string, amountCents?: number): Promise<FakeStripeEvent> {
    const paymentIntent = paymentIntents.get(paymentIntentId);
    const charge = paymentIntent ? charges.get(String(paymentIntent.latest_charge)) : undefined;
    if (!charge) throw new Error(`No charge for ${paymentIntentId}`);
    const remaining = Number(charge.amount) - Number(charge.amount_refunded);
    const amount = amountCents ?? remaining;
    if (amount <= 0 || amount > remaining) throw new Error(`Cannot refund ${amount} of ${remaining}`);
    charge.amount_refunded = Number(charge.amount_refunded) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const event = createEvent('charge.refunded', charge);
    await announce([event]);
    return event;
  }

  const server = await startFakeHttpServer(answer, { port: options.port });
  baseUrl = server.url;

  function sessionOf(id: string): StripeObject {
    const session = sessions.get(id);
    if (!session) throw new Error(`No session ${id}`);
    return session;
  }

  return {
    url: server.url,
    secretKey,
    webhookSecret,
    sessions,
    paymentIntents,
    charges,
    refunds,
    events,
    deliveries,
    requests: server.requests,
    /** The environment that points the server at this fake. */
    env(): Record<string, string> {
      return { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: server.url };
    },
    /** Where webhooks go: a URL (a real POST) or a handler (e.g. around `app.inject`). */
    setWebhookTarget(target: string | WebhookHandler | null) {
      state.target = target;
    },
    setWebhookMode(mode: WebhookMode) {
      state.mode = mode;
    },
    /** Events created and never delivered (manual mode), oldest first. */
    undelivered(): FakeStripeEvent[] {
      return events.filter((event) => !deliveredIds.has(event.id));
    },
    deliver,
    /** Delivers the given events one after the other, in the order given (e.g. a refund before the payment). */
    async deliverInOrder(ids: string[], deliverOptions: DeliverOptions = {}): Promise<FakeStripeDelivery[]> {
      const results: FakeStripeDelivery[] = [];
      for (const id of ids) results.push(await deliver(id, deliverOptions));
      return results;
    },
    /** The same event again (same id and body, a fresh signature), as Stripe's retries send it. */
    resend(id: string, deliverOptions: DeliverOptions = {}): Promise<FakeStripeDelivery> {
      return deliver(id, deliverOptions);
    },
    /** A request that is exactly what Stripe would POST for this event (for `app.inject`). */
    signedRequest(event: FakeStripeEvent, signOptions: { timestamp?: number; secret?: string } = {}) {
      const body = JSON.stringify(event, null, 2);
      const timestamp = signOptions.timestamp ?? now();
      return {
        body,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': `t=${timestamp},v1=${fakeStripeSign(signOptions.secret ?? webhookSecret, timestamp, body)}`,
        },
      };
    },
    /** Pays an open session as the hosted page does, without a browser; answers the URL the customer is sent to. */
    async pay(sessionId: string): Promise<string> {
      const session = sessionOf(sessionId);
      if (session.status !== 'open') throw new Error(`Session ${sessionId} is ${String(session.status)}`);
      await announce(completeSession(session, true));
      return String(session.success_url ?? '').replaceAll('{CHECKOUT_SESSION_ID}', sessionId);
    },
    /** A delayed payment method: the session completes unpaid (checkout.session.completed, payment_status "unpaid"). */
    async payAsync(sessionId: string): Promise<void> {
      const session = sessionOf(sessionId);
      await announce(completeSession(session, false));
    },
    /** The delayed payment settles: async_payment_succeeded (and payment_intent.succeeded), or async_payment_failed. */
    async settleAsync(sessionId: string, succeeded = true): Promise<void> {
      const session = sessionOf(sessionId);
      const paymentIntent = paymentIntents.get(String(session.payment_intent));
      if (!paymentIntent) throw new Error(`Session ${sessionId} was not paid asynchronously`);
      if (!succeeded) {
        paymentIntent.status = 'requires_payment_method';
        await announce([createEvent('checkout.session.async_payment_failed', session)]);
        return;
      }
      const chargeId = stripeId('ch');
      paymentIntent.status = 'succeeded';
      paymentIntent.amount_received = paymentIntent.amount;
      paymentIntent.latest_charge = chargeId;
      charges.set(chargeId, chargeFor(paymentIntent, chargeId));
      session.payment_status = 'paid';
      await announce([createEvent('checkout.session.async_payment_succeeded', session), createEvent('payment_intent.succeeded', paymentIntent)]);
    },
    refund,
    /** The next `count` API requests that pass the key check fail this way. */
    failNext(count: number, failure: FakeStripeFailure) {
      for (let index = 0; index < count; index += 1) pending.push(failure);
    },
    /**
     * The next `count` API requests that pass the key check are never answered. `afterProcessing`:
     * a create is carried out (and kept under its Idempotency-Key) before the silence, as when
     * Stripe did the work but the answer was lost.
     */
    hangNext(count = 1, hangOptions: { afterProcessing?: boolean } = {}) {
      for (let index = 0; index < count; index += 1) pending.push(hangOptions.afterProcessing ? 'hang-after-processing' : 'hang');
    },
    /** Resolves once every webhook sent after a redirect has been answered. */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    close: server.close,
  };
}

export type FakeStripeServer = Awaited<ReturnType<typeof startFakeStripeServer>>;
