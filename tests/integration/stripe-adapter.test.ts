import { createHmac } from 'node:crypto';
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createPaymentGateway,
  createStripeGateway,
  interpretStripeEvent,
  PaymentGatewayError,
  stripeApiVersion,
  stripeSignature,
  WebhookSignatureError,
  type CheckoutRequest,
  type PaymentGateway,
  type StripeEvent,
  type WebhookSignatureFailure,
} from '#server/adapters/payments/index.ts';
import { startFakeHttpServer } from '#tests/support/fake-http-server.ts';
import { startFakeStripeServer, type FakeStripeEvent, type FakeStripeServer } from '#tests/support/fake-stripe-server.ts';
import { closedPort } from '#tests/support/smtp-server.ts';

// The Stripe payment adapter (issue 20, decision 024-e) against the local fake Stripe on 127.0.0.1:
// the REST calls, their errors and timeouts, the hosted page's redirect, and the webhooks' signatures
// received over real HTTP.

let fake: FakeStripeServer;
let gateway: PaymentGateway;

/** A webhook endpoint as the invoices module will have it: the raw body, the adapter's check, 200 or 400. */
let receiver: { url: string; received: StripeEvent[]; refusals: WebhookSignatureFailure[]; close: () => Promise<void> };

async function startReceiver(check: () => PaymentGateway) {
  const received: StripeEvent[] = [];
  const refusals: WebhookSignatureFailure[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const header = request.headers['stripe-signature'];
      try {
        received.push(check().verifyWebhook(Buffer.concat(chunks), Array.isArray(header) ? header.join(',') : header));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      } catch (error) {
        if (!(error instanceof WebhookSignatureError)) throw error;
        refusals.push(error.reason);
        response.writeHead(400, { 'content-type': 'text/plain' }).end(error.reason);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/api/public/payments/stripe/webhook`,
    received,
    refusals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function gatewayFor(server: FakeStripeServer, overrides: { secretKey?: string; webhookSecret?: string; timeoutMs?: number; apiUrl?: string } = {}): PaymentGateway {
  return createStripeGateway({
    apiUrl: overrides.apiUrl ?? server.url,
    secretKey: overrides.secretKey ?? server.secretKey,
    webhookSecret: overrides.webhookSecret ?? server.webhookSecret,
    timeoutMs: overrides.timeoutMs ?? 5_000,
  });
}

let keyCounter = 0;
type InvoiceCheckoutRequest = Extract<CheckoutRequest, { invoiceId: string }>;
function checkoutRequest(overrides: Partial<InvoiceCheckoutRequest> = {}): InvoiceCheckoutRequest {
  keyCounter += 1;
  return {
    invoiceId: '0b6f3c2e-8f4a-4a57-9d36-5f0a3c1e2d4b',
    invoiceNumber: 'INV-1042',
    amountCents: 18_950,
    currency: 'usd',
    customerEmail: 'dana.whitfield@example.com',
    successUrl: 'https://www.example.com/invoice/tok123?paid={CHECKOUT_SESSION_ID}',
    cancelUrl: 'https://www.example.com/invoice/tok123',
    idempotencyKey: `checkout:0b6f3c2e:${keyCounter}`,
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<PaymentGatewayError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PaymentGatewayError);
  return error as PaymentGatewayError;
}

beforeAll(async () => {
  fake = await startFakeStripeServer();
  gateway = gatewayFor(fake);
  receiver = await startReceiver(() => gateway);
  fake.setWebhookTarget(receiver.url);
});
afterAll(async () => {
  await fake?.close();
  await receiver?.close();
});
afterEach(() => {
  fake.requests.length = 0;
  fake.setWebhookMode('before-redirect');
  receiver.received.length = 0;
  receiver.refusals.length = 0;
});

describe('createPaymentGateway', () => {
  it('is null without Stripe (no online payment) and the Stripe gateway with it', () => {
    expect(createPaymentGateway({ stripe: undefined, timeoutMs: 10_000 })).toBeNull();
    const configured = createPaymentGateway({ stripe: { apiUrl: fake.url, secretKey: fake.secretKey, webhookSecret: fake.webhookSecret }, timeoutMs: 10_000 });
    expect(configured?.kind).toBe('stripe');
  });
});

describe('creating a Checkout Session', () => {
  it("sends Stripe's form with the secret key, the pinned version and the idempotency key, and answers the hosted page", async () => {
    const request = checkoutRequest();
    const session = await gateway.createCheckout(request);

    expect(session).toEqual({
      sessionId: expect.stringMatching(/^cs_test_[A-Za-z0-9]+$/),
      url: `${fake.url}/pay/${session.sessionId}`,
      status: 'open',
      paymentStatus: 'unpaid',
      amountTotalCents: 18_950,
      currency: 'usd',
      paymentIntentId: null,
      invoiceId: request.invoiceId,
      signupId: null,
      expiresAt: expect.any(Date),
    });
    expect(session.expiresAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);

    const [sent] = fake.requests;
    expect(sent).toMatchObject({ method: 'POST', url: '/v1/checkout/sessions' });
    expect(sent!.headers.authorization).toBe(`Bearer ${fake.secretKey}`);
    expect(sent!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent!.headers['stripe-version']).toBe(stripeApiVersion);
    expect(sent!.headers['idempotency-key']).toBe(request.idempotencyKey);
    expect(Object.fromEntries(new URLSearchParams(sent!.body as string))).toEqual({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '18950',
      'line_items[0][price_data][product_data][name]': 'Invoice INV-1042',
      'line_items[0][quantity]': '1',
      'payment_method_types[0]': 'card',
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      client_reference_id: request.invoiceId,
      'metadata[invoice_id]': request.invoiceId,
      'metadata[invoice_number]': 'INV-1042',
      'payment_intent_data[metadata][invoice_id]': request.invoiceId,
      'payment_intent_data[metadata][invoice_number]': 'INV-1042',
      customer_email: 'dana.whitfield@example.com',
    });
    // Stripe's own object, as the fake stores it.
    expect(fake.sessions.get(session.sessionId)).toMatchObject({ object: 'checkout.session', mode: 'payment', metadata: { invoice_id: request.invoiceId } });
  });

  it('leaves out customer_email when there is none', async () => {
    await gateway.createCheckout(checkoutRequest({ customerEmail: undefined }));
    expect(new URLSearchParams(fake.requests[0]!.body as string).has('customer_email')).toBe(false);
  });

  it('answers the same session for the same Idempotency-Key, and refuses the key with another request', async () => {
    const request = checkoutRequest();
    const before = fake.sessions.size;
    const first = await gateway.createCheckout(request);
    const again = await gateway.createCheckout(request);
    expect(again).toEqual(first);
    expect(fake.sessions.size).toBe(before + 1);

    const error = await failure(gateway.createCheckout({ ...request, amountCents: 9_900 }));
    expect(error.details).toMatchObject({ kind: 'idempotency', retryable: false, httpStatus: 400, stripeType: 'idempotency_error' });
    expect(error.message).toMatch(/Idempotency-Key was used before with a different request/);

    const other = await gateway.createCheckout(checkoutRequest());
    expect(other.sessionId).not.toBe(first.sessionId);
  });

  it('after a timeout where Stripe did create the session, a retry with the same key gets that session, not a second one', async () => {
    const quick = gatewayFor(fake, { timeoutMs: 300 });
    const request = checkoutRequest();
    const before = fake.sessions.size;
    fake.hangNext(1, { afterProcessing: true });
    const error = await failure(quick.createCheckout(request));
    expect(error.details).toMatchObject({ kind: 'timeout', retryable: true });
    expect(fake.sessions.size).toBe(before + 1);

    const retried = await quick.createCheckout(request);
    expect(fake.sessions.size).toBe(before + 1);
    expect(fake.sessions.has(retried.sessionId)).toBe(true);
  });

  it('maps a wrong secret key to a clear authentication error that does not contain the key', async () => {
    const wrongKey = 'sk_test_51WrongKeyWrongKeyWrongKeyWrongKey0000';
    const error = await failure(gatewayFor(fake, { secretKey: wrongKey }).createCheckout(checkoutRequest()));
    expect(error.details).toMatchObject({ kind: 'authentication', retryable: false, httpStatus: 401, stripeType: 'invalid_request_error' });
    expect(error.message).toMatch(/^Stripe refused the secret key \(check STRIPE_SECRET_KEY\) \(HTTP 401\)/);
    expect(error.message).not.toContain(wrongKey);
    expect(error.message).not.toContain(fake.secretKey);
  });

  it('gives up with a timeout error when Stripe never answers', async () => {
    fake.hangNext(1);
    const quick = gatewayFor(fake, { timeoutMs: 300 });
    const error = await failure(quick.createCheckout(checkoutRequest()));
    expect(error.details).toEqual({ kind: 'timeout', retryable: true });
    expect(error.message).toBe('Stripe did not answer in time: no answer within 300 ms');
    // The request did reach the fake: the adapter stopped waiting, it did not fail to send.
    expect(fake.requests).toHaveLength(1);
  });

  it('says so when Stripe cannot be reached', async () => {
    const port = await closedPort();
    const error = await failure(gatewayFor(fake, { apiUrl: `http://127.0.0.1:${port}` }).createCheckout(checkoutRequest()));
    expect(error.details).toEqual({ kind: 'unreachable', retryable: true });
    expect(error.message).toBe('Stripe could not be reached (ECONNREFUSED)');
  });

  it("passes on Stripe's refusal of a parameter with its code and parameter", async () => {
    const error = await failure(gateway.createCheckout(checkoutRequest({ customerEmail: 'not-an-email' })));
    expect(error.details).toMatchObject({ kind: 'invalid_request', retryable: false, httpStatus: 400, stripeCode: 'email_invalid', param: 'customer_email' });
    expect(error.details.requestId).toMatch(/^req_/);
    expect(error.message).toContain('Invalid email address');
  });

  it('refuses amounts Stripe would refuse before sending anything', async () => {
    for (const amountCents of [49, 0, -100, 10.5, 100_000_000, Number.NaN]) {
      const error = await failure(gateway.createCheckout(checkoutRequest({ amountCents })));
      expect(error.details).toMatchObject({ kind: 'invalid_request', param: 'amountCents' });
    }
    const badUrl = await failure(gateway.createCheckout(checkoutRequest({ successUrl: '/invoice/tok123' })));
    expect(badUrl.details).toMatchObject({ kind: 'invalid_request', param: 'successUrl' });
    expect(fake.requests).toHaveLength(0);
    // The limits are Stripe's: the smallest amount passes.
    await expect(gateway.createCheckout(checkoutRequest({ amountCents: 50 }))).resolves.toMatchObject({ amountTotalCents: 50 });
  });

  it("classifies Stripe's own failures as retryable, unless Stripe-Should-Retry says otherwise", async () => {
    fake.failNext(1, { status: 500, message: 'An unknown error occurred' });
    expect((await failure(gateway.createCheckout(checkoutRequest()))).details).toMatchObject({ kind: 'provider_error', retryable: true, httpStatus: 500, stripeType: 'api_error' });
    fake.failNext(1, { status: 429, type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' });
    expect((await failure(gateway.createCheckout(checkoutRequest()))).details).toMatchObject({ kind: 'rate_limited', retryable: true, stripeCode: 'rate_limit' });
    fake.failNext(1, { status: 500, shouldRetry: false });
    expect((await failure(gateway.createCheckout(checkoutRequest()))).details).toMatchObject({ kind: 'provider_error', retryable: false });
    fake.failNext(1, { status: 403, type: 'invalid_request_error', message: 'The provided key does not have the required permissions' });
    expect((await failure(gateway.createCheckout(checkoutRequest()))).details).toMatchObject({ kind: 'permission', retryable: false });
  });

  it('refuses a 2xx answer that is not a Checkout Session', async () => {
    const odd = await startFakeHttpServer(() => ({ status: 200, json: { id: 'cus_123', object: 'customer' } }));
    try {
      const error = await failure(gatewayFor(fake, { apiUrl: odd.url }).createCheckout(checkoutRequest()));
      expect(error.details).toEqual({ kind: 'bad_response', retryable: false });
    } finally {
      await odd.close();
    }
  });
});

describe("the hosted page, retrieving and expiring", () => {
  it('shows the amount, pays with a form POST and redirects (303) to the success URL with the session id', async () => {
    const request = checkoutRequest({ amountCents: 8_900, invoiceNumber: 'INV-7' });
    const session = await gateway.createCheckout(request);
    const page = await fetch(session.url!);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('$89.00');
    expect(html).toContain('Invoice INV-7');
    expect(html).toContain(`<form method="post" action="/pay/${session.sessionId}">`);
    expect(html).toContain(`<a href="${request.cancelUrl}">Cancel</a>`);

    const paid = await fetch(session.url!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'dana.whitfield@example.com', card_number: '4242 4242 4242 4242' }).toString(),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`https://www.example.com/invoice/tok123?paid=${session.sessionId}`);

    const retrieved = await gateway.retrieveCheckout(session.sessionId);
    expect(retrieved).toMatchObject({ sessionId: session.sessionId, status: 'complete', paymentStatus: 'paid', amountTotalCents: 8_900, invoiceId: request.invoiceId, url: null });
    expect(retrieved.paymentIntentId).toMatch(/^pi_/);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', url: `/v1/checkout/sessions/${session.sessionId}` });
    // The webhooks were delivered (and verified) before the redirect.
    expect(receiver.received.map((event) => event.type)).toEqual(['checkout.session.completed', 'payment_intent.succeeded']);
  });

  it('keeps the session open when the card is declined', async () => {
    const session = await gateway.createCheckout(checkoutRequest());
    const declined = await fetch(session.url!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ card_number: '4000 0000 0000 0002' }).toString(),
      redirect: 'manual',
    });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('<p role="alert">Your card was declined.</p>');
    expect(await gateway.retrieveCheckout(session.sessionId)).toMatchObject({ status: 'open', paymentStatus: 'unpaid', paymentIntentId: null });
    expect(receiver.received).toHaveLength(0);
  });

  it('expires an open session, and refuses to expire it twice', async () => {
    const session = await gateway.createCheckout(checkoutRequest());
    expect(await gateway.expireCheckout(session.sessionId)).toMatchObject({ status: 'expired', url: null });
    const error = await failure(gateway.expireCheckout(session.sessionId));
    expect(error.details).toMatchObject({ kind: 'invalid_request', httpStatus: 400 });
    expect(receiver.received.map((event) => event.type)).toEqual(['checkout.session.expired']);
  });

  it('answers not_found for an unknown session, and never sends an id that is not a session id', async () => {
    const unknown = await failure(gateway.retrieveCheckout(`cs_test_a1${'x'.repeat(58)}`));
    expect(unknown.details).toMatchObject({ kind: 'not_found', httpStatus: 404, stripeCode: 'resource_missing' });
    fake.requests.length = 0;
    const invalid = await failure(gateway.retrieveCheckout('../../v1/customers'));
    expect(invalid.details).toMatchObject({ kind: 'not_found' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('webhook signatures', () => {
  async function paidEvent(): Promise<FakeStripeEvent> {
    fake.setWebhookMode('manual');
    const session = await gateway.createCheckout(checkoutRequest());
    await fake.pay(session.sessionId);
    return fake.events.find((event) => event.type === 'checkout.session.completed' && (event.data.object as { id: string }).id === session.sessionId)!;
  }

  it("accepts the fake's signed delivery and answers the event as sent", async () => {
    const event = await paidEvent();
    const delivery = await fake.deliver(event.id);
    expect(delivery.status).toBe(200);
    expect(receiver.received).toEqual([JSON.parse(delivery.body)]);
    expect(receiver.received[0]).toMatchObject({ id: event.id, object: 'event', type: 'checkout.session.completed', livemode: false, api_version: stripeApiVersion });
  });

  it('refuses a body changed after signing', async () => {
    const event = await paidEvent();
    expect((await fake.deliver(event.id, { signature: 'tampered-body' })).status).toBe(400);
    expect(receiver.refusals).toEqual(['signature_mismatch']);
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses a signature made with another secret', async () => {
    const event = await paidEvent();
    expect((await fake.deliver(event.id, { signature: 'wrong-secret' })).status).toBe(400);
    expect(receiver.refusals).toEqual(['signature_mismatch']);
  });

  it('refuses a delivery without the header', async () => {
    const event = await paidEvent();
    expect((await fake.deliver(event.id, { signature: 'none' })).status).toBe(400);
    expect(receiver.refusals).toEqual(['missing_header']);
  });

  it('refuses a timestamp more than 300 s old (a replayed delivery) and accepts one just inside', async () => {
    const event = await paidEvent();
    const now = Math.floor(Date.now() / 1000);
    expect((await fake.deliver(event.id, { timestamp: now - 400 })).status).toBe(400);
    expect(receiver.refusals).toEqual(['timestamp_outside_tolerance']);

    // Exact boundaries with a fixed clock: 300 s is accepted, 301 s is not, in either direction.
    const signed = fake.signedRequest(event, { timestamp: 1_800_000_000 });
    const body = Buffer.from(signed.body);
    expect(gateway.verifyWebhook(body, signed.headers['stripe-signature'], new Date(1_800_000_300_000)).id).toBe(event.id);
    expect(gateway.verifyWebhook(body, signed.headers['stripe-signature'], new Date(1_799_999_700_000)).id).toBe(event.id);
    for (const now of [new Date(1_800_000_301_000), new Date(1_799_999_699_000)]) {
      expect(() => gateway.verifyWebhook(body, signed.headers['stripe-signature'], now)).toThrow(expect.objectContaining({ reason: 'timestamp_outside_tolerance' }));
    }
  });

  it('accepts a header with several v1 signatures when one of them is valid (a secret being rolled)', async () => {
    const event = await paidEvent();
    const rolledOut = createHmac('sha256', 'whsec_the_old_secret').update('anything').digest('hex');
    const delivery = await fake.deliver(event.id, { extraSignatures: [rolledOut, 'not-hex'] });
    expect(delivery.signatureHeader.match(/v1=/g)).toHaveLength(3);
    expect(delivery.status).toBe(200);
    expect(receiver.received.map((received) => received.id)).toEqual([event.id]);
  });

  it('refuses malformed headers, v0-only headers and a signed body that is not an event', () => {
    const body = Buffer.from('{"id":"evt_1","object":"event"}');
    const t = Math.floor(Date.now() / 1000);
    const reasonOf = (raw: Buffer, header: string | undefined) => {
      try {
        gateway.verifyWebhook(raw, header);
      } catch (error) {
        expect(error).toBeInstanceOf(WebhookSignatureError);
        return (error as WebhookSignatureError).reason;
      }
      return 'accepted';
    };
    expect(reasonOf(body, '')).toBe('missing_header');
    expect(reasonOf(body, `v1=${stripeSignature(fake.webhookSecret, t, body)}`)).toBe('malformed_header');
    expect(reasonOf(body, `t=${t}`)).toBe('no_v1_signature');
    expect(reasonOf(body, `t=${t},v0=${stripeSignature(fake.webhookSecret, t, body)}`)).toBe('no_v1_signature');
    // Correctly signed, but not a Stripe event: refused all the same.
    expect(reasonOf(body, `t=${t},v1=${stripeSignature(fake.webhookSecret, t, body)}`)).toBe('invalid_payload');
    const text = Buffer.from('not json');
    expect(reasonOf(text, `t=${t},v1=${stripeSignature(fake.webhookSecret, t, text)}`)).toBe('invalid_payload');
  });

  it("the fake signs exactly as Stripe documents it (HMAC-SHA256 of 't.body', computed here independently), and the adapter's signature is the same", async () => {
    const event = await paidEvent();
    const delivery = await fake.deliver(event.id);
    const parts = new Map(delivery.signatureHeader.split(',').map((item) => item.split('=') as [string, string]));
    const t = parts.get('t')!;
    expect(t).toMatch(/^\d{10}$/);
    const expected = createHmac('sha256', fake.webhookSecret).update(`${t}.${delivery.body}`, 'utf8').digest('hex');
    expect(parts.get('v1')).toBe(expected);
    // The body is Stripe's pretty-printed JSON, and the adapter signs the same bytes the same way, non-ASCII included.
    expect(delivery.body).toContain('\n  "object": "event",');
    for (const body of [delivery.body, '{"note":"Café — 5¢ 🙂"}', '']) {
      expect(stripeSignature(fake.webhookSecret, 1_800_000_000, Buffer.from(body, 'utf8'))).toBe(
        createHmac('sha256', fake.webhookSecret).update(`1800000000.${body}`, 'utf8').digest('hex'),
      );
    }
  });
});

describe("reading Stripe's events", () => {
  it('one payment, announced twice, reads as the same payment intent and amount; refunds are cumulative', async () => {
    fake.setWebhookMode('manual');
    const mark = fake.events.length;
    const request = checkoutRequest({ amountCents: 32_000 });
    const session = await gateway.createCheckout(request);
    await fake.pay(session.sessionId);
    const paymentIntentId = fake.sessions.get(session.sessionId)!.payment_intent as string;
    const firstRefund = await fake.refund(paymentIntentId, 5_000);
    const secondRefund = await fake.refund(paymentIntentId, 3_000);

    // Out of order and repeated: the later refund first, the payment intent before the session, one event twice.
    const [completed, succeeded] = fake.events.slice(mark).filter((event) => event.type !== 'charge.refunded');
    const order = [secondRefund.id, succeeded!.id, firstRefund.id, completed!.id, succeeded!.id];
    const deliveries = await fake.deliverInOrder(order);
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200, 200, 200]);
    expect(receiver.received.map((event) => event.id)).toEqual(order);

    const facts = receiver.received.map(interpretStripeEvent);
    const payment = { kind: 'payment_succeeded', invoiceId: request.invoiceId, signupId: null, paymentIntentId, amountCents: 32_000, currency: 'usd' };
    expect(facts[1]).toEqual({ ...payment, sessionId: null });
    expect(facts[3]).toEqual({ ...payment, sessionId: session.sessionId });
    expect(facts[4]).toEqual(facts[1]);
    const refund = { kind: 'refund_updated', invoiceId: request.invoiceId, signupId: null, paymentIntentId, chargeId: expect.stringMatching(/^ch_/), chargeAmountCents: 32_000, currency: 'usd' };
    expect(facts[0]).toEqual({ ...refund, refundedTotalCents: 8_000 });
    expect(facts[2]).toEqual({ ...refund, refundedTotalCents: 5_000 });
  });

  it('a delayed payment method is pending at completion and paid when it settles; expiry and other types are not payments', async () => {
    fake.setWebhookMode('manual');
    const mark = fake.events.length;
    const request = checkoutRequest();
    const session = await gateway.createCheckout(request);
    await fake.payAsync(session.sessionId);
    await fake.settleAsync(session.sessionId);
    const other = await gateway.createCheckout(checkoutRequest());
    await gateway.expireCheckout(other.sessionId);
    const events = fake.events.slice(mark);
    expect(fake.undelivered()).toEqual(expect.arrayContaining(events));
    await fake.deliverInOrder(events.map((event) => event.id));
    const facts = receiver.received.map(interpretStripeEvent);
    expect(receiver.received.map((event) => event.type)).toEqual([
      'checkout.session.completed',
      'checkout.session.async_payment_succeeded',
      'payment_intent.succeeded',
      'checkout.session.expired',
    ]);
    expect(facts[0]).toEqual({ kind: 'payment_pending', invoiceId: request.invoiceId, signupId: null, sessionId: session.sessionId });
    expect(facts[1]).toMatchObject({ kind: 'payment_succeeded', sessionId: session.sessionId, amountCents: 18_950 });
    expect(facts[2]).toMatchObject({ kind: 'payment_succeeded', paymentIntentId: (facts[1] as { paymentIntentId: string }).paymentIntentId });
    expect(facts[3]).toEqual({ kind: 'checkout_expired', invoiceId: request.invoiceId, signupId: null, sessionId: other.sessionId });

    const unknown = { ...receiver.received[0]!, type: 'customer.created' };
    expect(interpretStripeEvent(unknown)).toEqual({ kind: 'ignored', eventType: 'customer.created' });
    // A known type whose object is not what it should be is an error (the webhook answers 400; Stripe retries).
    expect(() => interpretStripeEvent({ ...receiver.received[0]!, type: 'charge.refunded' })).toThrow();
  });
});

describe('reading events rendered at another API version', () => {
  const base = { object: 'event' as const, created: 1_800_000_000, livemode: false, api_version: '2024-06-20' };

  it('takes an expanded payment intent as its id, and reads a refund without a payment intent', () => {
    const session = {
      id: 'cs_test_a1expanded',
      object: 'checkout.session',
      payment_status: 'paid',
      amount_total: 4_500,
      currency: 'usd',
      payment_intent: { id: 'pi_expanded', object: 'payment_intent', amount: 4_500 },
      client_reference_id: 'invoice-from-reference',
      metadata: {},
      some_future_field: { nested: true },
    };
    expect(interpretStripeEvent({ ...base, id: 'evt_1', type: 'checkout.session.completed', data: { object: session } })).toEqual({
      kind: 'payment_succeeded',
      invoiceId: 'invoice-from-reference',
      signupId: null,
      paymentIntentId: 'pi_expanded',
      sessionId: 'cs_test_a1expanded',
      amountCents: 4_500,
      currency: 'usd',
    });
    const charge = { id: 'ch_1', object: 'charge', amount: 4_500, amount_refunded: 4_500, currency: 'usd', payment_intent: null, metadata: {} };
    expect(interpretStripeEvent({ ...base, id: 'evt_2', type: 'charge.refunded', data: { object: charge } })).toEqual({
      kind: 'refund_updated',
      invoiceId: null,
      signupId: null,
      paymentIntentId: null,
      chargeId: 'ch_1',
      refundedTotalCents: 4_500,
      chargeAmountCents: 4_500,
      currency: 'usd',
    });
  });
});

describe("the fake's controls", () => {
  it('after-redirect: the customer is sent back before the webhooks, which idle() waits for', async () => {
    fake.setWebhookMode('after-redirect');
    const session = await gateway.createCheckout(checkoutRequest());
    const landing = await fake.pay(session.sessionId);
    expect(landing).toBe(`https://www.example.com/invoice/tok123?paid=${session.sessionId}`);
    await fake.idle();
    expect(receiver.received.map((event) => event.type)).toEqual(['checkout.session.completed', 'payment_intent.succeeded']);
  });

  it('over HTTP, for a fake in another process: list events, deliver one badly then properly, switch mode', async () => {
    const control = (path: string, body?: unknown) =>
      fetch(`${fake.url}/_fake/${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(await (await control('mode', { mode: 'manual' })).json()).toEqual({ mode: 'manual' });
    const session = await gateway.createCheckout(checkoutRequest());
    await fake.pay(session.sessionId);
    const listed = (await (await control('events')).json()) as Array<{ id: string; type: string; delivered: boolean; data: { object: { id: string } } }>;
    const completed = listed.find((event) => event.type === 'checkout.session.completed' && event.data.object.id === session.sessionId)!;
    expect(completed.delivered).toBe(false);

    const refused = (await (await control(`events/${completed.id}/deliver`, { signature: 'wrong-secret' })).json()) as { status: number };
    expect(refused.status).toBe(400);
    const accepted = (await (await control(`events/${completed.id}/deliver`, {})).json()) as { status: number };
    expect(accepted.status).toBe(200);
    expect(receiver.refusals).toEqual(['signature_mismatch']);
    expect(receiver.received.map((event) => event.id)).toEqual([completed.id]);
    expect((await control('nothing-here')).status).toBe(404);
  });
});

describe("a plan sign-up's payment and its refund (decision 027-c)", () => {
  it('names the sign-up, not an invoice, in the session, the payment intent and every event', async () => {
    const signupId = '5d0c9a8e-1f2b-4c3d-8e9f-0a1b2c3d4e5f';
    const session = await gateway.createCheckout({
      signupId,
      signupReference: 'PS-5D0C9A8E',
      productName: 'Premium maintenance plan, first year',
      amountCents: 28_900,
      currency: 'usd',
      successUrl: 'https://www.example.com/MaintenancePlan?checkout={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://www.example.com/MaintenancePlan',
      idempotencyKey: `signup-checkout:${signupId}:1`,
    });
    const sent = Object.fromEntries(new URLSearchParams(fake.requests.at(-1)!.body as string));
    expect(sent).toMatchObject({
      'line_items[0][price_data][product_data][name]': 'Premium maintenance plan, first year',
      client_reference_id: signupId,
      'metadata[signup_id]': signupId,
      'metadata[signup_reference]': 'PS-5D0C9A8E',
      'payment_intent_data[metadata][signup_id]': signupId,
    });
    expect(Object.keys(sent).some((key) => key.includes('invoice'))).toBe(false);
    expect(session).toMatchObject({ invoiceId: null, signupId });

    await fake.pay(session.sessionId);
    const facts = receiver.received.map(interpretStripeEvent);
    expect(facts.map((fact) => fact.kind)).toEqual(['payment_succeeded', 'payment_succeeded']);
    for (const fact of facts) expect(fact).toMatchObject({ invoiceId: null, signupId, amountCents: 28_900 });
  });

  it('refunds the whole payment once per Idempotency-Key, announces charge.refunded, and refuses a second refund', async () => {
    const session = await gateway.createCheckout(checkoutRequest({ amountCents: 18_900 }));
    await fake.pay(session.sessionId);
    const paymentIntentId = (await gateway.retrieveCheckout(session.sessionId)).paymentIntentId!;
    receiver.received.length = 0;

    const request = { paymentIntentId, metadata: { signup_id: 'abc' }, idempotencyKey: `refund:${paymentIntentId}` };
    const refund = await gateway.refund(request);
    expect(refund).toEqual({ refundId: expect.stringMatching(/^re_/), status: 'succeeded', amountCents: 18_900 });
    expect(Object.fromEntries(new URLSearchParams(fake.requests.at(-1)!.body as string))).toEqual({ payment_intent: paymentIntentId, 'metadata[signup_id]': 'abc' });
    expect(fake.requests.at(-1)!.headers['idempotency-key']).toBe(request.idempotencyKey);
    // A double click: the same refund, not a second one.
    expect(await gateway.refund(request)).toEqual(refund);
    expect(fake.refunds.size).toBeGreaterThanOrEqual(1);
    expect(receiver.received.map((event) => event.type)).toEqual(['charge.refunded']);
    expect(interpretStripeEvent(receiver.received[0]!)).toMatchObject({ kind: 'refund_updated', paymentIntentId, refundedTotalCents: 18_900 });

    const again = await failure(gateway.refund({ ...request, idempotencyKey: `${request.idempotencyKey}:2` }));
    expect(again.details).toMatchObject({ kind: 'invalid_request', stripeCode: 'charge_already_refunded', retryable: false });
    const unknown = await failure(gateway.refund({ ...request, paymentIntentId: 'pi_NoSuchPayment', idempotencyKey: 'refund:none' }));
    expect(unknown.details).toMatchObject({ kind: 'not_found', stripeCode: 'resource_missing' });
    const notAnId = await failure(gateway.refund({ ...request, paymentIntentId: 'ch_123' }));
    expect(notAnId.details).toMatchObject({ kind: 'not_found', param: 'paymentIntentId' });
  });
});
