import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agreementSignupMessages, agreementSignupReceivedSchema, type AgreementSignup } from '#shared/agreement-signup.ts';
import { startFakeStripeServer, type FakeStripeServer } from '#tests/support/fake-stripe-server.ts';
import { createStaff, createTestApp, sendStripeWebhooksTo, signIn, type TestContext } from '#tests/support/test-app.ts';

// Issue 22, decision 027-c: a plan sign-up paid online with Stripe before any customer exists,
// against the local fake Stripe (its API, hosted payment, refunds and signed webhooks) on a real
// database. The money is kept on the sign-up, moves onto the first term's invoice when the office
// confirms, and goes back to the card when it declines; a failing Stripe loses no sign-up.

let context: TestContext;
let fake: FakeStripeServer;
let admin: string;
let count = 0;
const next = () => (count += 1);

beforeAll(async () => {
  fake = await startFakeStripeServer();
  context = await createTestApp({ env: { ...fake.env(), COMPANY_SITE_URL: 'https://comfort.example', PUBLIC_FORM_LIMIT: '100' } });
  sendStripeWebhooksTo(fake, context);
  await createStaff(context.database);
  admin = await signIn(context.app);
});
afterAll(async () => {
  await Promise.all([context?.close(), fake?.close()]);
});
beforeEach(() => fake.setWebhookMode('before-redirect'));

function signupBody(overrides: Record<string, unknown> = {}) {
  const n = next();
  return {
    planId: 'premium',
    billing: 'yearly',
    name: `Avery Brooks ${n}`,
    email: `avery${n}@example.com`,
    phone: `(843) 555-1${String(n).padStart(3, '0')}`,
    address: `${n} Marsh Hawk Lane`,
    zip: '29910',
    ...overrides,
  };
}

async function submit(body: object, key = `pay-key-${next()}`) {
  const response = await context.app.inject({
    method: 'POST',
    url: '/api/public/maintenance-plan-signups',
    payload: body,
    headers: { 'idempotency-key': key },
    remoteAddress: `127.0.9.${(count % 250) + 1}`,
  });
  return { response, answer: response.statusCode < 300 ? agreementSignupReceivedSchema.parse(response.json()) : undefined };
}

async function signupByEmail(email: string, status = 'pending'): Promise<AgreementSignup> {
  const response = await context.app.inject({ method: 'GET', url: `/api/admin/agreement-signups?status=${status}&pageSize=100`, headers: { cookie: admin } });
  expect(response.statusCode, response.body).toBe(200);
  const found = (response.json().signups as AgreementSignup[]).find((signup) => signup.email === email);
  expect(found, `a ${status} sign-up for ${email}`).toBeDefined();
  return found!;
}

const sessionOfUrl = (url: string) => /\/pay\/(cs_test_[A-Za-z0-9]+)$/.exec(url)?.[1];

async function checkoutStatus(sessionId: string) {
  return context.app.inject({ method: 'GET', url: `/api/public/maintenance-plan-signups/checkout/${sessionId}`, remoteAddress: '127.0.8.1' });
}

async function outcomesFor(paymentIntentOrSession: string) {
  const ids = fake.events.filter((event) => JSON.stringify(event.data.object).includes(paymentIntentOrSession)).map((event) => event.id);
  const rows = await context.database.query<{ event_id: string; outcome: string }>('select event_id, outcome from payment_events where event_id = any($1)', [ids]);
  return rows.map((row) => row.outcome).sort();
}

async function paidSignup(overrides: Record<string, unknown> = {}) {
  const body = signupBody(overrides);
  const { response, answer } = await submit(body);
  expect(response.statusCode, response.body).toBe(201);
  expect(answer!.payment.status).toBe('checkout');
  const sessionId = sessionOfUrl((answer!.payment as { url: string }).url)!;
  const successUrl = await fake.pay(sessionId);
  const paymentIntentId = String(fake.sessions.get(sessionId)!.payment_intent);
  return { body, answer: answer!, sessionId, successUrl, paymentIntentId, signup: await signupByEmail(body.email) };
}

describe('paying for a sign-up online', () => {
  it("answers Stripe's page for the first year after storing the sign-up, and the same page for a repeat", async () => {
    const body = signupBody();
    const key = `pay-key-repeat-${next()}`;
    const { response, answer } = await submit(body, key);
    expect(response.statusCode, response.body).toBe(201);
    expect(answer!.payment).toEqual({ status: 'checkout', url: expect.stringMatching(/\/pay\/cs_test_/), amountCents: 35_000 });
    const sessionId = sessionOfUrl((answer!.payment as { url: string }).url)!;
    const session = fake.sessions.get(sessionId)!;
    expect(session).toMatchObject({ amount_total: 35_000, currency: 'usd', customer_email: body.email, success_url: 'https://comfort.example/MaintenancePlan?checkout={CHECKOUT_SESSION_ID}' });
    expect(session.metadata).toMatchObject({ signup_reference: answer!.reference });

    const signup = await signupByEmail(body.email);
    expect(signup.payment).toEqual({ status: 'awaiting', amountCents: 35_000, paidAt: null, refundedAt: null, invoiceId: null, invoiceNumber: null });
    expect((await checkoutStatus(sessionId)).json()).toEqual({ status: 'confirming' });

    const again = await submit(body, key);
    expect(again.response.statusCode).toBe(200);
    expect(again.answer).toEqual(answer);
    expect(await context.database.query('select 1 from maintenance_agreement_signups where email = $1', [body.email])).toHaveLength(1);
  });

  it('asks the first month of monthly billing', async () => {
    const { answer } = await submit(signupBody({ planId: 'essential', billing: 'monthly' }));
    expect(answer!.payment).toMatchObject({ status: 'checkout', amountCents: 1_250 });
  });

  it("records the payment once however often Stripe announces it, and the return page says it is paid", async () => {
    const { body, sessionId, successUrl, paymentIntentId, signup } = await paidSignup();
    expect(successUrl).toBe(`https://comfort.example/MaintenancePlan?checkout=${sessionId}`);
    expect(signup.payment).toMatchObject({ status: 'paid', amountCents: 35_000, paidAt: expect.any(String) });
    expect((await checkoutStatus(sessionId)).json()).toEqual({ status: 'paid' });
    // Stripe's retries of the same events, and payment_intent.succeeded: one payment still.
    for (const event of fake.events.filter((item) => JSON.stringify(item.data.object).includes(paymentIntentId))) await fake.resend(event.id);
    expect(await outcomesFor(paymentIntentId)).toEqual(['already_recorded', 'signup_paid']);
    const [row] = await context.database.query<{ paid_cents: number; payment_intent_id: string }>('select paid_cents::int as paid_cents, payment_intent_id from maintenance_agreement_signups where email = $1', [body.email]);
    expect(row).toEqual({ paid_cents: 35_000, payment_intent_id: paymentIntentId });
    expect(await context.database.query("select 1 from audit_log where entity_type = 'agreement_signup' and entity_id = $1 and action = 'paid_online'", [signup.id])).toHaveLength(1);
  });

  it('confirming a paid sign-up issues the first year\'s invoice with the payment on it; a later Stripe refund lands on that invoice', async () => {
    const { body, paymentIntentId, signup } = await paidSignup();
    const confirmed = await context.app.inject({ method: 'POST', url: `/api/admin/agreement-signups/${signup.id}/confirm`, headers: { cookie: admin }, payload: { customer: { mode: 'new' } } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const after = confirmed.json().signup as AgreementSignup;
    expect(after).toMatchObject({ status: 'confirmed', payment: { status: 'paid', amountCents: 35_000, invoiceNumber: expect.stringMatching(/^INV-/) } });

    const [invoice] = await context.database.query<{ id: string; status: string; total_cents: number; paid_cents: number; customer_id: string }>(
      'select id, status, total_cents::int as total_cents, paid_cents::int as paid_cents, customer_id from invoices where id = $1',
      [after.payment.invoiceId],
    );
    expect(invoice).toMatchObject({ status: 'paid', total_cents: 35_000, paid_cents: 35_000, customer_id: after.customerId });
    const payments = await context.database.query<{ kind: string; method: string; amount_cents: number; provider_payment_id: string }>(
      'select kind, method, amount_cents::int as amount_cents, provider_payment_id from payments where invoice_id = $1',
      [invoice!.id],
    );
    expect(payments).toEqual([{ kind: 'payment', method: 'online_card', amount_cents: 35_000, provider_payment_id: paymentIntentId }]);
    const emails = await context.database.query<{ text_body: string }>("select text_body from outbound_emails where related_id = $1 and kind = 'agreement_signup_confirmed'", [signup.id]);
    expect(emails[0]!.text_body).toContain(`Your online payment of $350.00 is recorded on invoice ${after.payment.invoiceNumber}.`);

    // Refunded later from Stripe's dashboard: the invoice's refund, by the invoices' rule.
    await fake.refund(paymentIntentId, 10_000);
    const [refunded] = await context.database.query<{ status: string; paid_cents: number }>('select status, paid_cents::int as paid_cents from invoices where id = $1', [invoice!.id]);
    expect(refunded).toEqual({ status: 'partially_paid', paid_cents: 25_000 });
    expect(await signupByEmail(body.email, 'confirmed')).toMatchObject({ payment: { status: 'paid' } });
  });

  it('declining a paid sign-up refunds the card in full and records it once; no invoice is made', async () => {
    const { body, paymentIntentId, signup } = await paidSignup({ planId: 'advanced' });
    const invoicesBefore = (await context.database.query('select 1 from invoices')).length;
    const declined = await context.app.inject({ method: 'POST', url: `/api/admin/agreement-signups/${signup.id}/decline`, headers: { cookie: admin }, payload: { reason: 'Commercial rooftop units; not a home plan' } });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json().signup).toMatchObject({ status: 'declined', payment: { status: 'refunded', amountCents: 25_000, refundedAt: expect.any(String) } });

    const refunds = [...fake.refunds.values()].filter((refund) => refund.payment_intent === paymentIntentId);
    expect(refunds).toEqual([expect.objectContaining({ amount: 25_000, status: 'succeeded', metadata: { signup_id: signup.id } })]);
    expect(fake.charges.get(String(fake.paymentIntents.get(paymentIntentId)!.latest_charge))).toMatchObject({ amount_refunded: 25_000, refunded: true });
    expect(await outcomesFor(paymentIntentId)).toEqual(['already_recorded', 'signup_paid', 'signup_refunded']);
    expect((await context.database.query('select 1 from invoices')).length).toBe(invoicesBefore);
    expect(await context.database.query("select 1 from payments where provider_payment_id like $1", [`%${paymentIntentId}%`])).toHaveLength(0);

    // A second decline is refused as decided; Stripe is not asked again.
    const refundCalls = fake.requests.filter((request) => request.url === '/v1/refunds').length;
    const again = await context.app.inject({ method: 'POST', url: `/api/admin/agreement-signups/${signup.id}/decline`, headers: { cookie: admin }, payload: { reason: 'Again' } });
    expect(again.statusCode).toBe(409);
    expect(fake.requests.filter((request) => request.url === '/v1/refunds').length).toBe(refundCalls);
    expect(await signupByEmail(body.email, 'declined')).toMatchObject({ declineReason: 'Commercial rooftop units; not a home plan' });
  });

  it('a refund Stripe refuses leaves the sign-up waiting and paid; trying again declines it', async () => {
    const { body, signup } = await paidSignup();
    fake.failNext(1, { status: 500 });
    const failed = await context.app.inject({ method: 'POST', url: `/api/admin/agreement-signups/${signup.id}/decline`, headers: { cookie: admin }, payload: { reason: 'Outside our plan area' } });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error.message).toBe(agreementSignupMessages.refundFailed);
    expect(await signupByEmail(body.email)).toMatchObject({ status: 'pending', payment: { status: 'paid' } });

    const retried = await context.app.inject({ method: 'POST', url: `/api/admin/agreement-signups/${signup.id}/decline`, headers: { cookie: admin }, payload: { reason: 'Outside our plan area' } });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().signup).toMatchObject({ status: 'declined', payment: { status: 'refunded' } });
  });

  it('confirming while the checkout is still open closes it at Stripe first, so no money arrives after; no invoice is made', async () => {
    const body = signupBody({ planId: 'essential' });
    const { answer } = await submit(body);
    const sessionId = sessionOfUrl((answer!.payment as { url: string }).url)!;
    const signup = await signupByEmail(body.email);
    const confirmed = await context.app.inject({ method: 'POST', url: `/api/admin/agreement-signups/${signup.id}/confirm`, headers: { cookie: admin }, payload: { customer: { mode: 'new' } } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(fake.sessions.get(sessionId)!.status).toBe('expired');
    expect(confirmed.json().signup).toMatchObject({ status: 'confirmed', payment: { status: 'expired', invoiceId: null } });
    expect((await checkoutStatus(sessionId)).json()).toEqual({ status: 'not_paid' });
    await expect(fake.pay(sessionId)).rejects.toThrow(/expired/);
  });

  it('a checkout paid but not yet announced when the office confirms is found at Stripe and invoiced', async () => {
    fake.setWebhookMode('manual');
    const body = signupBody();
    const { answer } = await submit(body);
    const sessionId = sessionOfUrl((answer!.payment as { url: string }).url)!;
    await fake.pay(sessionId);
    const signup = await signupByEmail(body.email);
    expect(signup.payment.status).toBe('awaiting');
    const confirmed = await context.app.inject({ method: 'POST', url: `/api/admin/agreement-signups/${signup.id}/confirm`, headers: { cookie: admin }, payload: { customer: { mode: 'new' } } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().signup).toMatchObject({ payment: { status: 'paid', amountCents: 35_000, invoiceNumber: expect.stringMatching(/^INV-/) } });
    // The webhook arriving late records nothing twice.
    for (const event of fake.undelivered()) await fake.deliver(event.id);
    const paymentIntentId = String(fake.sessions.get(sessionId)!.payment_intent);
    expect(await context.database.query('select 1 from payments where provider_payment_id = $1', [paymentIntentId])).toHaveLength(1);
  });

  it('Stripe failing keeps the sign-up, its lead and its e-mail; the answer says online payment is unavailable', async () => {
    fake.failNext(1, { status: 503 });
    const body = signupBody();
    const { response, answer } = await submit(body);
    expect(response.statusCode, response.body).toBe(201);
    expect(answer!.payment).toEqual({ status: 'unavailable' });
    const signup = await signupByEmail(body.email);
    expect(signup).toMatchObject({ status: 'pending', leadId: expect.any(String), payment: { status: 'none' } });
    expect(await context.database.query('select 1 from outbound_emails where related_id = $1', [signup.id])).toHaveLength(1);
  });

  it('the return page reveals nothing for another or a made-up session', async () => {
    const unknown = await checkoutStatus('cs_test_a1NoSuchSession000000000000000000000000000000000000');
    expect(unknown.statusCode).toBe(404);
    expect((await checkoutStatus('not-a-session')).statusCode).toBe(400);
  });

  it("an event naming a sign-up that does not exist is acknowledged and records nothing", async () => {
    fake.setWebhookMode('manual');
    const { sessionId } = await (async () => {
      const { answer } = await submit(signupBody());
      return { sessionId: sessionOfUrl((answer!.payment as { url: string }).url)! };
    })();
    await context.database.query('update maintenance_agreement_signups set checkout_session_id = null where checkout_session_id = $1', [sessionId]);
    const session = fake.sessions.get(sessionId)!;
    (session.metadata as Record<string, string>).signup_id = '00000000-0000-4000-8000-000000000000';
    await fake.pay(sessionId);
    const delivered = [];
    for (const event of fake.undelivered()) delivered.push(await fake.deliver(event.id));
    expect(delivered.map((delivery) => delivery.status)).toEqual([200, 200]);
    expect(await outcomesFor(sessionId)).toEqual(['ignored: unknown sign-up']);
  });
});
