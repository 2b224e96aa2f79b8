import { randomUUID } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '#shared/dates.ts';
import { invoiceDetailResponseSchema, invoiceMessages } from '#shared/invoice.ts';
import { formatCents } from '#shared/money.ts';
import { techMessages, techPaymentResponseSchema, techVisitResponseSchema, type TechPayment } from '#shared/tech.ts';
import { customers, technicians, workOrders } from '#server/db/schema/index.ts';
import { TechDatabase } from '#client/features/tech/db.ts';
import { createTechSync } from '#client/features/tech/sync.ts';
import { createStaff, createTechnicianStaff, createTestApp, signIn, testPassword, type TestContext } from '#tests/support/test-app.ts';

/**
 * Payments on site (issue 20, decision 025-a) through POST /api/tech/visits/:id/payments on a real
 * database: only on an issued invoice of a visit assigned to the technician, never above the
 * balance, one payment per key however often the phone's queue replays it, audited as the
 * technician; the office's invoice routes stay closed to technicians. Then the phone's queue
 * (fake-indexeddb) against the same server listening on 127.0.0.1.
 */

let context: TestContext;
let admin: string;
let mike: string;
let sara: string;
let mikeUserId: string;
let mikeTechnicianId: string;
let saraTechnicianId: string;
let customerId: string;
let today: string;
let baseUrl: string;

beforeAll(async () => {
  context = await createTestApp();
  today = todayIn(context.config.businessTimeZone);
  const [mikeRow, saraRow] = await context.database.db
    .insert(technicians)
    .values([{ name: 'Mike Johnson' }, { name: 'Sara Lopez' }])
    .returning({ id: technicians.id });
  mikeTechnicianId = mikeRow!.id;
  saraTechnicianId = saraRow!.id;
  const [customer] = await context.database.db
    .insert(customers)
    .values({ name: 'Dana Whitfield', phone: '(843) 271-2001', email: 'dana@example.com', address: '1 Marsh Hen Lane', city: 'Bluffton', state: 'SC', zip: '29910' })
    .returning({ id: customers.id });
  customerId = customer!.id;
  await createStaff(context.database, 'admin@example.com', testPassword, 'admin');
  mikeUserId = (await createTechnicianStaff(context.database, mikeTechnicianId, 'mike.tech@example.com')).id;
  await createTechnicianStaff(context.database, saraTechnicianId, 'sara.tech@example.com');
  admin = await signIn(context.app, 'admin@example.com');
  mike = await signIn(context.app, 'mike.tech@example.com');
  sara = await signIn(context.app, 'sara.tech@example.com');
  baseUrl = await context.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => context?.close());

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, cookie: string, payload?: unknown) =>
  context.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });

async function job(technicianId = mikeTechnicianId, title = 'AC not cooling'): Promise<string> {
  const [row] = await context.database.db
    .insert(workOrders)
    .values({ title, customerId, technicianId, serviceDate: today, status: 'in-progress', scheduledStartTime: '08:00', scheduledEndTime: '10:00' })
    .returning({ id: workOrders.id });
  return row!.id;
}

/** An invoice of the work order made by the office: a draft, issued unless asked not to. */
async function invoiceFor(workOrderId: string, cents: number, { issue = true } = {}) {
  const created = await call('POST', '/api/admin/invoices', admin, { customerId, workOrderId, lines: [{ name: 'Repair service', quantityMilli: 1000, unitPriceCents: cents }] });
  expect(created.statusCode, created.body).toBe(201);
  const draft = invoiceDetailResponseSchema.parse(created.json()).invoice;
  if (!issue) return draft;
  const issued = await call('POST', `/api/admin/invoices/${draft.id}/issue`, admin);
  expect(issued.statusCode, issued.body).toBe(200);
  return invoiceDetailResponseSchema.parse(issued.json()).invoice;
}

const payment = (invoiceId: string, amountCents: number, extra: Partial<TechPayment> = {}): TechPayment => ({
  idempotencyKey: randomUUID(),
  invoiceId,
  method: 'cash',
  amountCents,
  takenAt: new Date().toISOString(),
  ...extra,
});

const pay = (workOrderId: string, body: TechPayment, cookie = mike) => call('POST', `/api/tech/visits/${workOrderId}/payments`, cookie, body);

async function stored(invoiceId: string) {
  const [row] = await context.database.query<{ status: string; paid_cents: string; balance_cents: string }>('select status, paid_cents, balance_cents from invoices where id = $1', [invoiceId]);
  return { status: row!.status, paid: Number(row!.paid_cents), balance: Number(row!.balance_cents) };
}

async function paymentsOf(invoiceId: string) {
  return context.database.query<{ id: string; amount_cents: string; method: string; reference: string; received_on: string; recorded_by_id: string; recorded_by_name: string; idempotency_key: string }>(
    'select id, amount_cents, method, reference, received_on::text, recorded_by_id, recorded_by_name, idempotency_key from payments where invoice_id = $1 order by created_at',
    [invoiceId],
  );
}

async function visit(workOrderId: string, cookie = mike) {
  const response = await call('GET', `/api/tech/visits/${workOrderId}`, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return techVisitResponseSchema.parse(response.json()).visit;
}

describe('what the technician sees is owed', () => {
  it('carries the issued invoices of the visit’s work order (not drafts, void ones or credit notes) with total, paid and balance', async () => {
    const workOrderId = await job();
    expect((await visit(workOrderId)).invoices).toEqual([]);
    await invoiceFor(workOrderId, 9900, { issue: false });
    const voided = await invoiceFor(workOrderId, 5000);
    const voiding = await call('POST', `/api/admin/invoices/${voided.id}/void`, admin, { reason: 'Wrong amount' });
    expect(voiding.statusCode, voiding.body).toBe(200);
    const issued = await invoiceFor(workOrderId, 25_000);
    const credit = await call('POST', `/api/admin/invoices/${issued.id}/credit-notes`, admin, { fullCredit: false, lines: [{ name: 'Goodwill', quantityMilli: 1000, unitPriceCents: 2000 }] });
    expect(credit.statusCode, credit.body).toBe(201);

    const { invoices } = await visit(workOrderId);
    expect(invoices).toEqual([{ id: issued.id, invoiceNumber: issued.invoiceNumber, status: 'sent', totalCents: 25_000, paidCents: 0, balanceCents: 25_000, dueOn: issued.dueOn }]);
    // The day's list carries them too (what the phone keeps for offline work).
    const day = await call('GET', '/api/tech/visits', mike);
    const listed = day.json().visits.find((item: { id: string }) => item.id === workOrderId);
    expect(listed.invoices.map((invoice: { id: string }) => invoice.id)).toEqual([issued.id]);
  });
});

describe('a payment on site', () => {
  it('records cash on the visit’s invoice as the technician, dated the day it was taken, without moving the visit’s version', async () => {
    const workOrderId = await job();
    const invoice = await invoiceFor(workOrderId, 25_000);
    const before = await visit(workOrderId);
    // Taken two days ago without signal, synced now: the payment is that day's.
    const takenAt = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const response = await pay(workOrderId, payment(invoice.id, 10_000, { takenAt, note: 'Paid at the door' }));
    expect(response.statusCode, response.body).toBe(201);
    const answer = techPaymentResponseSchema.parse(response.json());
    expect(answer.applied).toBe(true);
    expect(answer.payment).toMatchObject({ invoiceId: invoice.id, method: 'cash', amountCents: 10_000, receivedOn: todayIn(context.config.businessTimeZone, new Date(takenAt)) });
    expect(answer.visit.invoices[0]).toMatchObject({ status: 'partially_paid', paidCents: 10_000, balanceCents: 15_000 });
    expect(answer.visit.updatedAt).toBe(before.updatedAt);

    expect(await stored(invoice.id)).toEqual({ status: 'partially_paid', paid: 10_000, balance: 15_000 });
    const [row] = await paymentsOf(invoice.id);
    expect(row).toMatchObject({ method: 'cash', recorded_by_id: mikeUserId, recorded_by_name: 'Terry Tech' });

    // Audited as the technician: on the invoice (the office's history) and on the work order (its steps).
    const entries = await context.database.query<{ entity_type: string; action: string; actor_id: string; changes: Record<string, [unknown, unknown]> }>(
      `select entity_type, action, actor_id, changes from audit_log where (entity_id = $1 and action = 'payment_recorded') or (entity_id = $2 and action = 'payment_collected') order by occurred_at`,
      [invoice.id, workOrderId],
    );
    expect(entries.map((entry) => [entry.entity_type, entry.action, entry.actor_id])).toEqual([
      ['invoice', 'payment_recorded', mikeUserId],
      ['work_order', 'payment_collected', mikeUserId],
    ]);
    expect(entries[0]!.changes).toMatchObject({ amountCents: [null, 10_000], takenAt: [null, takenAt], source: [null, 'technician app'] });
    expect(entries[1]!.changes).toMatchObject({ invoice: [null, invoice.invoiceNumber], method: [null, 'cash'], amountCents: [null, 10_000] });
    const detail = await call('GET', `/api/admin/work-orders/${workOrderId}`, admin);
    expect(detail.json().steps.map((step: { label: string; actorName: string; at: string }) => [step.label, step.actorName, step.at])).toContainEqual(['Payment collected', 'Terry Tech', takenAt]);
  });

  it('records a check with its number and refuses a check without one', async () => {
    const workOrderId = await job();
    const invoice = await invoiceFor(workOrderId, 12_000);
    const missing = await pay(workOrderId, payment(invoice.id, 12_000, { method: 'check' }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toMatch(techMessages.checkNumberNeeded);
    const paid = await pay(workOrderId, payment(invoice.id, 12_000, { method: 'check', reference: '1043' }));
    expect(paid.statusCode, paid.body).toBe(201);
    expect(await stored(invoice.id)).toEqual({ status: 'paid', paid: 12_000, balance: 0 });
    expect((await paymentsOf(invoice.id)).map((row) => [row.method, row.reference])).toEqual([['check', '1043']]);
    // The office's own methods are the office's: a technician cannot claim an online or bank payment.
    const online = await pay(workOrderId, { ...payment(invoice.id, 100), method: 'online_card' as never });
    expect(online.statusCode).toBe(400);
  });

  it('records a replayed payment (same key) once, in turn and at the same moment', async () => {
    const workOrderId = await job();
    const invoice = await invoiceFor(workOrderId, 30_000);
    const body = payment(invoice.id, 5000);
    const first = await pay(workOrderId, body);
    expect(first.statusCode, first.body).toBe(201);
    // The answer was lost: the phone sends it again, as it was, and hears the same payment.
    const again = await pay(workOrderId, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(techPaymentResponseSchema.parse(again.json())).toMatchObject({ applied: false, payment: { id: first.json().payment.id } });

    const racing = payment(invoice.id, 7000);
    const answers = await Promise.all([pay(workOrderId, racing), pay(workOrderId, racing)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 201]);
    expect(new Set(answers.map((answer) => answer.json().payment.id)).size).toBe(1);

    expect((await paymentsOf(invoice.id)).map((row) => Number(row.amount_cents))).toEqual([5000, 7000]);
    expect(await stored(invoice.id)).toEqual({ status: 'partially_paid', paid: 12_000, balance: 18_000 });
    // The key of one invoice's payment sent for another invoice is not a replay.
    const other = await invoiceFor(workOrderId, 1000);
    const reused = await pay(workOrderId, { ...body, invoiceId: other.id });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error.message).toBe(invoiceMessages.idempotencyReused);
  });

  it('refuses more than the balance with the balance in the message, storing nothing; and a paid invoice', async () => {
    const workOrderId = await job();
    const invoice = await invoiceFor(workOrderId, 20_000);
    expect((await pay(workOrderId, payment(invoice.id, 15_000))).statusCode).toBe(201);
    const over = await pay(workOrderId, payment(invoice.id, 5001));
    expect(over.statusCode).toBe(400);
    expect(over.json().error.message).toBe(invoiceMessages.overpayment(formatCents(5000)));
    expect(over.json().error.details).toEqual([{ path: 'amountCents', message: invoiceMessages.overpayment(formatCents(5000)) }]);
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
    expect(await stored(invoice.id)).toEqual({ status: 'partially_paid', paid: 15_000, balance: 5000 });

    expect((await pay(workOrderId, payment(invoice.id, 5000))).statusCode).toBe(201);
    const nothingOwed = await pay(workOrderId, payment(invoice.id, 100));
    expect(nothingOwed.statusCode).toBe(409);
    expect(nothingOwed.json().error.message).toBe(invoiceMessages.zeroBalance);
  });

  it('needs an issued invoice: a draft or a void one is refused', async () => {
    const workOrderId = await job();
    const draft = await invoiceFor(workOrderId, 8000, { issue: false });
    const onDraft = await pay(workOrderId, payment(draft.id, 8000));
    expect(onDraft.statusCode).toBe(409);
    expect(onDraft.json().error.message).toBe(invoiceMessages.notIssued);
    const voided = await invoiceFor(workOrderId, 8000);
    expect((await call('POST', `/api/admin/invoices/${voided.id}/void`, admin, { reason: 'Duplicate' })).statusCode).toBe(200);
    expect((await pay(workOrderId, payment(voided.id, 8000))).statusCode).toBe(409);
    expect(await paymentsOf(draft.id)).toHaveLength(0);
    expect(await paymentsOf(voided.id)).toHaveLength(0);
  });
});

describe('only the assigned technician, only the visit’s invoices', () => {
  it('answers another technician’s visit with the 404 of a visit that does not exist, storing nothing', async () => {
    const mikesJob = await job(mikeTechnicianId);
    const invoice = await invoiceFor(mikesJob, 10_000);
    const bySara = await pay(mikesJob, payment(invoice.id, 10_000), sara);
    expect(bySara.statusCode).toBe(404);
    expect(bySara.json().error.message).toBe(techMessages.visitNotFound);
    const unknown = await pay(randomUUID(), payment(invoice.id, 10_000), sara);
    expect(unknown.json()).toEqual(bySara.json());
    // A visit reassigned after the payment was taken: the phone's replay is refused the same way.
    const body = payment(invoice.id, 1000);
    expect((await pay(mikesJob, body)).statusCode).toBe(201);
    await context.database.query('update work_orders set technician_id = $1 where id = $2', [saraTechnicianId, mikesJob]);
    expect((await pay(mikesJob, body)).statusCode).toBe(404);
    expect((await pay(mikesJob, payment(invoice.id, 1000))).statusCode).toBe(404);
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
  });

  it('refuses an invoice of another work order on the technician’s own visit (404), even one of their own visits', async () => {
    const first = await job(mikeTechnicianId, 'First');
    const second = await job(mikeTechnicianId, 'Second');
    const saras = await job(saraTechnicianId, 'Sara’s');
    const ofSecond = await invoiceFor(second, 4000);
    const ofSaras = await invoiceFor(saras, 4000);
    for (const invoiceId of [ofSecond.id, ofSaras.id]) {
      const response = await pay(first, payment(invoiceId, 4000));
      expect(response.statusCode).toBe(404);
      expect(response.json().error.message).toBe(techMessages.invoiceNotOnVisit);
    }
    const nowhere = await pay(first, payment(randomUUID(), 4000));
    expect(nowhere.statusCode).toBe(404);
    expect(await paymentsOf(ofSecond.id)).toHaveLength(0);
    expect(await paymentsOf(ofSaras.id)).toHaveLength(0);
  });

  it('keeps the office’s invoice routes closed to a technician (403), payments included', async () => {
    const workOrderId = await job();
    const invoice = await invoiceFor(workOrderId, 6000);
    for (const [method, url, body] of [
      ['GET', '/api/admin/invoices', undefined],
      ['GET', `/api/admin/invoices/${invoice.id}`, undefined],
      ['GET', '/api/admin/invoices/summary', undefined],
      ['POST', `/api/admin/invoices/${invoice.id}/payments`, { method: 'cash', amountCents: 6000, receivedOn: today }],
    ] as const) {
      const response = await call(method, url, mike, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error.message).toBe(techMessages.technicianOnlyInApp);
    }
    expect(await paymentsOf(invoice.id)).toHaveLength(0);
    // And the technician's route is the technician's: the office is refused it.
    const byOffice = await pay(workOrderId, payment(invoice.id, 6000), admin);
    expect(byOffice.statusCode).toBe(403);
  });
});

describe('the phone’s queue against the server', () => {
  const phone = () => {
    const db = new TechDatabase(`tech-payments-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    return { db, sync: createTechSync({ db, baseUrl, today: () => today, headers: { cookie: mike, origin: baseUrl } }) };
  };

  it('sends a payment taken offline in its place among the visit’s actions, once, and shows the office’s balance after', async () => {
    const workOrderId = await job();
    const invoice = await invoiceFor(workOrderId, 18_000);
    const { db, sync } = phone();
    expect(await sync.refresh()).toBe('ok');
    await sync.enqueue(workOrderId, { kind: 'note', text: 'Before the payment' });
    const queued = await sync.enqueue(workOrderId, { kind: 'payment', invoiceId: invoice.id, method: 'cash', amountCents: 18_000, reference: '', note: '' });
    await sync.enqueue(workOrderId, { kind: 'note', text: 'After the payment' });

    expect(await sync.syncNow()).toEqual({ sent: 3, stoppedBy: undefined });
    expect(await db.queue.count()).toBe(0);
    expect(await stored(invoice.id)).toEqual({ status: 'paid', paid: 18_000, balance: 0 });
    const kept = (await db.visits.get(workOrderId))!.visit;
    expect(kept.invoices[0]).toMatchObject({ status: 'paid', balanceCents: 0 });
    expect(kept.notes.map((note) => note.text)).toEqual(['Before the payment', 'After the payment']);

    // The answer was lost and the phone sends the same payment again: still one payment.
    await db.queue.add({ ...queued, seq: undefined, state: 'pending', attempts: 1 });
    expect((await sync.syncNow()).sent).toBe(1);
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
  });

  it('keeps a refused payment with what was typed; corrected, it goes under a new key', async () => {
    const workOrderId = await job();
    const invoice = await invoiceFor(workOrderId, 9000);
    const { db, sync } = phone();
    await sync.refresh();
    // The office took part of it meanwhile: the phone's 90.00 is now above the balance.
    const office = await call('POST', `/api/admin/invoices/${invoice.id}/payments`, admin, { method: 'card', amountCents: 4000, receivedOn: today });
    expect(office.statusCode, office.body).toBe(201);
    const queued = await sync.enqueue(workOrderId, { kind: 'payment', invoiceId: invoice.id, method: 'check', amountCents: 9000, reference: '2207', note: 'Signed by Dana' });

    expect((await sync.syncNow()).sent).toBe(0);
    const refused = (await db.queue.get(queued.seq!))!;
    expect(refused.state).toBe('failed');
    expect(refused.error).toBe(invoiceMessages.overpayment(formatCents(5000)));
    expect(refused.action).toMatchObject({ kind: 'payment', method: 'check', amountCents: 9000, reference: '2207', note: 'Signed by Dana' });
    expect(await paymentsOf(invoice.id)).toHaveLength(1);

    await sync.editPayment(queued.seq!, { kind: 'payment', invoiceId: invoice.id, method: 'check', amountCents: 5000, reference: '2207', note: 'Signed by Dana' });
    const corrected = (await db.queue.get(queued.seq!))!;
    expect(corrected.state).toBe('pending');
    expect(corrected.action.idempotencyKey).not.toBe(queued.action.idempotencyKey);
    expect(corrected.action.takenAt).toBe(queued.action.takenAt);
    expect((await sync.syncNow()).sent).toBe(1);
    expect(await stored(invoice.id)).toEqual({ status: 'paid', paid: 9000, balance: 0 });
    expect((await paymentsOf(invoice.id)).map((row) => [row.method, Number(row.amount_cents), row.reference])).toEqual([
      ['card', 4000, ''],
      ['check', 5000, '2207'],
    ]);
  });
});
