import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentLineInput } from '#shared/document-line.ts';
import { invoiceDetailResponseSchema } from '#shared/invoice.ts';
import { invoiceCheckoutResponseSchema, publicInvoiceResponseSchema } from '#shared/invoice-link.ts';
import { createStripeGateway } from '#server/adapters/payments/index.ts';
import { createDocumentLinkRepository } from '#server/modules/document-links/document-links.repository.ts';
import { createDocumentLinkService } from '#server/modules/document-links/index.ts';
import { stripeWebhookPath } from '#server/modules/invoices/index.ts';
import { startFakeStripeServer, type FakeStripeServer } from '#tests/support/fake-stripe-server.ts';
import { createStaff, createTestApp, sendStripeWebhooksTo, signIn, type TestContext } from '#tests/support/test-app.ts';

// Online card payment (issue 20, decisions 024-e and 024-h) against the local fake Stripe (its real
// API shapes, hosted-page payment and signed webhooks), on a real database: the checkout for the
// balance, and the webhook recording one payment per payment intent whatever the order or the
// repeats of its events, refunds by the charge's cumulative total, bad signatures refused.

let context: TestContext;
let fake: FakeStripeServer;
let admin: string;
let addressCount = 0;
const address = () => `10.30.${Math.floor(addressCount / 250)}.${(addressCount++ % 250) + 1}`;

beforeAll(async () => {
  fake = await startFakeStripeServer({ webhookMode: 'manual' });
  context = await createTestApp({ env: { ...fake.env(), COMPANY_SITE_URL: 'https://comfort.example' } });
  sendStripeWebhooksTo(fake, context);
  await createStaff(context.database);
  admin = await signIn(context.app);
});
afterAll(async () => {
  await Promise.all([context?.close(), fake?.close()]);
});
beforeEach(() => fake.setWebhookMode('manual'));

const line = (values: Partial<DocumentLineInput> = {}): DocumentLineInput => ({ name: 'Capacitor replacement', quantityMilli: 1000, unitPriceCents: 18950, ...values });

let customerCount = 0;
/** An issued invoice and a customer link to it. */
async function invoiceWithLink(lines: DocumentLineInput[] = [line()]) {
  customerCount += 1;
  const [customer] = await context.database.query<{ id: string }>(
    `insert into customers (name, phone, address, city, state, zip, email) values ('Lena Okafor', $1, '7 Oyster Way', 'Bluffton', 'SC', '29910', $2) returning id`,
    [`(843) 555-04${String(customerCount).padStart(2, '0')}`, `lena${customerCount}@example.com`],
  );
  const created = await context.app.inject({ method: 'POST', url: '/api/admin/invoices', headers: { cookie: admin }, payload: { customerId: customer!.id, lines } });
  const id = invoiceDetailResponseSchema.parse(created.json()).invoice.id;
  const issued = await context.app.inject({ method: 'POST', url: `/api/admin/invoices/${id}/issue`, headers: { cookie: admin } });
  expect(issued.statusCode, issued.body).toBe(200);
  const { token } = await createDocumentLinkService({ repository: createDocumentLinkRepository(context.database.db) }).create(context.database.db, {
    documentType: 'invoice',
    documentId: id,
    linkVersion: 1,
    validDays: 180,
  });
  return { id, token };
}

async function checkout(token: string): Promise<string> {
  const response = await context.app.inject({ method: 'POST', url: `/api/public/invoices/${token}/checkout`, remoteAddress: address() });
  expect(response.statusCode, response.body).toBe(200);
  const { url } = invoiceCheckoutResponseSchema.parse(response.json());
  const sessionId = /\/pay\/(cs_test_[A-Za-z0-9]+)/.exec(url)?.[1];
  expect(sessionId, url).toBeDefined();
  return sessionId!;
}

/** Pays on the fake's side; the events stay undelivered (manual mode) and are answered here. */
async function payAndCollect(sessionId: string) {
  const before = new Set(fake.events.map((event) => event.id));
  const successUrl = await fake.pay(sessionId);
  const events = fake.events.filter((event) => !before.has(event.id));
  return { successUrl, events, byType: (type: string) => events.find((event) => event.type === type)! };
}

async function stored(id: string) {
  const [row] = await context.database.query<{ status: string; paid_cents: string; balance_cents: string }>(
    'select status, paid_cents, balance_cents from invoices where id = $1',
    [id],
  );
  const rows = await context.database.query<{ kind: string; method: string; amount_cents: string; provider_payment_id: string | null; recorded_by_name: string }>(
    'select kind, method, amount_cents, provider_payment_id, recorded_by_name from payments where invoice_id = $1 order by created_at, kind',
    [id],
  );
  return {
    status: row!.status,
    paid: Number(row!.paid_cents),
    balance: Number(row!.balance_cents),
    payments: rows.map((payment) => ({
      kind: payment.kind,
      method: payment.method,
      amount: Number(payment.amount_cents),
      provider: payment.provider_payment_id,
      by: payment.recorded_by_name,
    })),
  };
}

const paymentIntentOf = (sessionId: string) => String(fake.sessions.get(sessionId)!.payment_intent);

describe('checkout', () => {
  it('offers card payment for the balance and creates a Checkout Session for it, kept in payment_checkouts; a second click reuses it', async () => {
    const { id, token } = await invoiceWithLink([line(), line({ name: 'Service call', unitPriceCents: 8900 })]);
    const view = publicInvoiceResponseSchema.parse((await context.app.inject({ method: 'GET', url: `/api/public/invoices/${token}`, remoteAddress: address() })).json());
    expect(view.payOnline).toEqual({ amountCents: 27850 });

    const sessionId = await checkout(token);
    const session = fake.sessions.get(sessionId)!;
    expect(session.amount_total).toBe(27850);
    expect(session.currency).toBe('usd');
    expect(session.client_reference_id).toBe(id);
    expect(String(session.success_url)).toBe(`https://comfort.example/invoice/${token}?checkout={CHECKOUT_SESSION_ID}`);
    expect(String(session.cancel_url)).toBe(`https://comfort.example/invoice/${token}`);
    const rows = await context.database.query<{ session_id: string; amount_cents: string; status: string }>(
      'select session_id, amount_cents, status from payment_checkouts where invoice_id = $1',
      [id],
    );
    expect(rows.map((row) => [row.session_id, Number(row.amount_cents), row.status])).toEqual([[sessionId, 27850, 'open']]);

    expect(await checkout(token)).toBe(sessionId);
    expect(await context.database.query('select 1 from payment_checkouts where invoice_id = $1', [id])).toHaveLength(1);
  });

  it("voiding the invoice expires its open Checkout Session, so a page left open cannot take the money", async () => {
    const { id, token } = await invoiceWithLink();
    const sessionId = await checkout(token);
    expect(fake.sessions.get(sessionId)!.status).toBe('open');
    const voided = await context.app.inject({ method: 'POST', url: `/api/admin/invoices/${id}/void`, headers: { cookie: admin }, payload: { reason: 'Billed the wrong customer' } });
    expect(voided.statusCode, voided.body).toBe(200);
    await expect.poll(() => fake.sessions.get(sessionId)!.status).toBe('expired');
    await expect
      .poll(async () => (await context.database.query<{ status: string }>('select status from payment_checkouts where session_id = $1', [sessionId]))[0]?.status)
      .toBe('expired');
  });
});

describe('webhook', () => {
  it('records a completed payment once, even when its events are repeated; the invoice is paid', async () => {
    const { id, token } = await invoiceWithLink();
    const sessionId = await checkout(token);
    const { events, successUrl } = await payAndCollect(sessionId);
    expect(successUrl).toContain(`?checkout=${sessionId}`);

    // Back on the page before the webhook: being confirmed.
    const early = publicInvoiceResponseSchema.parse(
      (await context.app.inject({ method: 'GET', url: `/api/public/invoices/${token}?checkout=${sessionId}`, remoteAddress: address() })).json(),
    );
    expect(early.checkout).toBe('confirming');

    for (const event of events) expect((await fake.deliver(event.id)).status).toBe(200);
    for (const event of events) expect((await fake.resend(event.id)).status).toBe(200);

    const after = await stored(id);
    expect(after).toMatchObject({ status: 'paid', paid: 18950, balance: 0 });
    expect(after.payments).toEqual([{ kind: 'payment', method: 'online_card', amount: 18950, provider: paymentIntentOf(sessionId), by: 'System' }]);
    const outcomes = await context.database.query<{ event_id: string; outcome: string }>('select event_id, outcome from payment_events where event_id = any($1)', [
      events.map((event) => event.id),
    ]);
    expect(outcomes.map((row) => row.outcome).sort()).toEqual(['already_recorded', 'recorded']);

    const view = publicInvoiceResponseSchema.parse(
      (await context.app.inject({ method: 'GET', url: `/api/public/invoices/${token}?checkout=${sessionId}`, remoteAddress: address() })).json(),
    );
    expect(view).toMatchObject({ status: 'paid', balanceCents: 0, payOnline: null, checkout: 'recorded' });
    const audit = await context.database.query<{ actor_name: string }>(`select actor_name from audit_log where entity_id = $1 and action = 'payment_recorded'`, [id]);
    expect(audit.map((row) => row.actor_name)).toEqual(['System']);
  });

  it('records it once when payment_intent.succeeded comes before checkout.session.completed', async () => {
    const { id, token } = await invoiceWithLink([line({ unitPriceCents: 42000 })]);
    const sessionId = await checkout(token);
    const { byType } = await payAndCollect(sessionId);
    const deliveries = await fake.deliverInOrder([byType('payment_intent.succeeded').id, byType('checkout.session.completed').id]);
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200]);
    const after = await stored(id);
    expect(after).toMatchObject({ status: 'paid', paid: 42000, balance: 0 });
    expect(after.payments).toHaveLength(1);
    const [checkoutRow] = await context.database.query<{ status: string }>('select status from payment_checkouts where session_id = $1', [sessionId]);
    expect(checkoutRow!.status).toBe('complete');
  });

  it('a refund delivered before its payment records the payment, then the refund; the late completion changes nothing', async () => {
    const { id, token } = await invoiceWithLink([line({ unitPriceCents: 30000 })]);
    const sessionId = await checkout(token);
    const paid = await payAndCollect(sessionId);
    const refund = await fake.refund(paymentIntentOf(sessionId), 12000);
    expect((await fake.deliver(refund.id)).status).toBe(200);
    for (const event of paid.events) expect((await fake.deliver(event.id)).status).toBe(200);
    const after = await stored(id);
    expect(after).toMatchObject({ status: 'partially_paid', paid: 18000, balance: 12000 });
    expect(after.payments.map((payment) => [payment.kind, payment.amount])).toEqual([
      ['payment', 30000],
      ['refund', 12000],
    ]);
  });

  it('partial refunds whose events arrive swapped are recorded by the cumulative total, once', async () => {
    const { id, token } = await invoiceWithLink([line({ unitPriceCents: 20000 })]);
    const sessionId = await checkout(token);
    const paid = await payAndCollect(sessionId);
    for (const event of paid.events) await fake.deliver(event.id);
    const first = await fake.refund(paymentIntentOf(sessionId), 5000); // amount_refunded 5000
    const second = await fake.refund(paymentIntentOf(sessionId), 3000); // amount_refunded 8000
    await fake.deliverInOrder([second.id, first.id]);
    await fake.resend(second.id);
    const after = await stored(id);
    expect(after).toMatchObject({ status: 'partially_paid', paid: 12000, balance: 8000 });
    expect(after.payments.filter((payment) => payment.kind === 'refund').map((payment) => payment.amount)).toEqual([8000]);
  });

  it('refuses a bad signature with 400 and records nothing', async () => {
    const { id, token } = await invoiceWithLink();
    const sessionId = await checkout(token);
    const { events } = await payAndCollect(sessionId);
    for (const signature of ['wrong-secret', 'tampered-body', 'none'] as const) {
      const delivery = await fake.deliver(events[0]!.id, { signature });
      expect(delivery.status, signature).toBe(400);
    }
    const stale = fake.signedRequest(events[0]!, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await context.app.inject({ method: 'POST', url: stripeWebhookPath, headers: stale.headers, payload: stale.body })).statusCode).toBe(400);
    expect(await context.database.query('select 1 from payment_events where event_id = $1', [events[0]!.id])).toHaveLength(0);
    expect(await stored(id)).toMatchObject({ status: 'sent', paid: 0, payments: [] });
  });

  it('keeps an event for a session that is not ours as ignored, answering 200', async () => {
    const gateway = createStripeGateway({ apiUrl: fake.url, secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, timeoutMs: 5_000 });
    const foreign = await gateway.createCheckout({
      invoiceId: '00000000-0000-4000-8000-000000000000',
      invoiceNumber: 'INV-999999',
      amountCents: 5000,
      currency: 'usd',
      successUrl: 'https://elsewhere.example/ok',
      cancelUrl: 'https://elsewhere.example/cancel',
      idempotencyKey: 'foreign-session-1',
    });
    const { byType } = await payAndCollect(foreign.sessionId);
    const completed = byType('checkout.session.completed');
    expect((await fake.deliver(completed.id)).status).toBe(200);
    expect((await fake.deliver(byType('payment_intent.succeeded').id)).status).toBe(200);
    const outcomes = await context.database.query<{ outcome: string }>('select outcome from payment_events where event_id = any($1) order by outcome', [
      [completed.id, byType('payment_intent.succeeded').id],
    ]);
    expect(outcomes.map((row) => row.outcome)).toEqual(['ignored: unknown invoice', 'ignored: unknown session']);
    expect(await context.database.query(`select 1 from payments where provider_payment_id = $1`, [paymentIntentOf(foreign.sessionId)])).toHaveLength(0);
  });
});
