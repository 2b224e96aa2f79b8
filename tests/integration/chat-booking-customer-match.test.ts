import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages } from '#shared/chat.ts';
import { customerMatchMessages } from '#shared/customer-match.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// Issue 15, must fix 1: the public chat booking revealed a stored customer (id and name in the answer
// and in its idempotency replay) and filed the work order on them at their address on file.
// Decision 018-a: the booking makes its own customer record, keeps the typed address on the work
// order, and names the stored customer as a possible match that staff confirm or dismiss.

let context: TestContext;
let cookie: string;
let nextAddress = 10;
const freshAddress = () => `127.0.7.${(nextAddress += 1)}`;
const companyPhone = '(843) 555-0142';

type StoredCustomer = { id: string; name: string; phone: string; email: string | null; address: string; city: string; state: string; zip: string | null; updated_at: string };

async function storeCustomer(name: string, phone: string, email: string): Promise<StoredCustomer> {
  const [row] = await context.database.query<StoredCustomer>(
    `insert into customers (name, phone, email, address, city, state, zip, type)
     values ($1, $2, $3, '1 Stored Rd', 'Beaufort', 'SC', '29902', 'residential')
     returning id, name, phone, email, address, city, state, zip, updated_at::text`,
    [name, phone, email],
  );
  return row!;
}

const readCustomer = async (id: string) =>
  (
    await context.database.query<StoredCustomer>(
      `select id, name, phone, email, address, city, state, zip, updated_at::text from customers where id = $1`,
      [id],
    )
  )[0];

function book(body: Record<string, unknown>, key: string) {
  return context.app.inject({
    method: 'POST',
    url: '/api/public/chat/bookings',
    payload: {
      sessionId: `session-${key}`,
      name: 'Someone Else',
      email: '',
      address: '77 Typed Ave, Bluffton, SC 29910',
      serviceType: 'repair',
      description: 'The heat pump is broken',
      ...body,
    },
    headers: { 'idempotency-key': key },
    remoteAddress: freshAddress(),
  });
}

type BookedRows = {
  workOrder: { id: string; customer_id: string; possible_customer_id: string | null; service_address: string | null; service_city: string | null; service_zip: string | null; updated_at: string };
  lead: { id: string; customer_id: string; possible_customer_id: string | null; updated_at: string };
};

async function rowsOf(workOrderNumber: string): Promise<BookedRows> {
  const [workOrder] = await context.database.query<BookedRows['workOrder']>(
    `select id, customer_id, possible_customer_id, service_address, service_city, service_zip,
            to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at
       from work_orders where work_order_number = $1`,
    [workOrderNumber],
  );
  const [lead] = await context.database.query<BookedRows['lead']>(
    `select id, customer_id, possible_customer_id, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at
       from ai_leads where work_order_id = $1`,
    [workOrder!.id],
  );
  return { workOrder: workOrder!, lead: lead! };
}

const auditOf = (entityId: string) =>
  context.database.query<{ action: string; actor_name: string; changes: Record<string, unknown> }>(
    `select action, actor_name, changes from audit_log where entity_id = $1 order by occurred_at, id`,
    [entityId],
  );

/** Staff's choice, with the dispatcher's session unless `withCookie` is null (anonymous). */
function decide(path: string, body: Record<string, unknown>, withCookie: string | null = cookie) {
  return context.app.inject({ method: 'POST', url: path, payload: body, headers: withCookie ? { cookie: withCookie } : {} });
}

beforeAll(async () => {
  context = await createTestApp({ env: { PUBLIC_FORM_LIMIT: '100' } });
  await createStaff(context.database, 'dispatcher@example.com', undefined, 'dispatcher');
  cookie = await signIn(context.app, 'dispatcher@example.com', undefined, freshAddress());
});
afterAll(() => context.close());

describe('chat booking does not reveal an existing customer', () => {
  it('chat booking does not reveal an existing customer: no id or name in the answer or its replay, the stored customer unchanged, the work order at the typed address with a possible match', async () => {
    const stored = await storeCustomer('Stored Person', '(843) 555-0150', 'stored.person@example.com');

    const first = await book({ phone: '843.555.0150' }, 'match-key-000001');
    expect(first.statusCode).toBe(201);
    const body = first.json();
    expect(Object.keys(body).sort()).toEqual(['message', 'workOrderNumber']);
    expect(body.message).toBe(chatMessages.bookingSuccess(body.workOrderNumber, companyPhone));
    expect(first.body).not.toContain(stored.id);
    expect(first.body).not.toContain('Stored Person');

    const replay = await book({ phone: '843.555.0150' }, 'match-key-000001');
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(body);
    expect(replay.body).not.toContain(stored.id);
    expect(replay.body).not.toContain('Stored Person');

    // Nothing the visitor typed landed on the stored customer.
    expect(await readCustomer(stored.id)).toEqual(stored);

    const { workOrder, lead } = await rowsOf(body.workOrderNumber);
    expect(workOrder.customer_id).not.toBe(stored.id);
    expect(workOrder).toMatchObject({ service_address: '77 Typed Ave, Bluffton, SC 29910', service_city: 'Bluffton', service_zip: '29910', possible_customer_id: stored.id });
    expect(lead).toMatchObject({ customer_id: workOrder.customer_id, possible_customer_id: stored.id });
    const booked = await readCustomer(workOrder.customer_id);
    expect(booked).toMatchObject({ name: 'Someone Else', phone: '843.555.0150', address: '77 Typed Ave, Bluffton, SC 29910' });
  });

  it('answers a booking matching by e-mail exactly as one matching nothing: same keys, same message for the same number', async () => {
    const stored = await storeCustomer('Email Match', '843-555-0160', 'email.match@example.com');
    const matched = await book({ phone: '843-555-0161', email: 'EMAIL.MATCH@example.com' }, 'match-key-000002');
    const unmatched = await book({ phone: '843-555-0162', email: 'nobody.here@example.com' }, 'match-key-000003');
    expect(matched.statusCode).toBe(unmatched.statusCode);
    expect(Object.keys(matched.json()).sort()).toEqual(Object.keys(unmatched.json()).sort());
    expect(matched.json().message.replace(matched.json().workOrderNumber, 'WO')).toBe(unmatched.json().message.replace(unmatched.json().workOrderNumber, 'WO'));
    expect(matched.body).not.toContain(stored.id);
    expect((await rowsOf(matched.json().workOrderNumber)).workOrder.possible_customer_id).toBe(stored.id);
    expect((await rowsOf(unmatched.json().workOrderNumber)).workOrder.possible_customer_id).toBeNull();
  });
});

describe('staff resolve a possible match', () => {
  it('needs a staff session: anonymous gets 401 and nothing changes', async () => {
    await storeCustomer('Anon Probe', '843-555-0170', 'anon.probe@example.com');
    const { workOrderNumber } = (await book({ phone: '843-555-0170' }, 'match-key-000004')).json();
    const { workOrder, lead } = await rowsOf(workOrderNumber);
    for (const path of [`/api/admin/work-orders/${workOrder.id}/customer-match`, `/api/admin/leads/chat/${lead.id}/customer-match`]) {
      const response = await decide(path, { decision: 'same', expectedUpdatedAt: workOrder.updated_at }, null);
      expect(response.statusCode).toBe(401);
    }
    expect((await rowsOf(workOrderNumber)).workOrder).toEqual(workOrder);
  });

  it('"Same customer" on the work order moves the work order, the lead and the conversation to the stored customer, keeps the typed service address, removes the booking\'s own record and changes nothing on the stored customer; again is 409', async () => {
    const stored = await storeCustomer('Same Person', '843-555-0180', 'same.person@example.com');
    const { workOrderNumber } = (await book({ phone: '(843) 555-0180', name: 'Same P.' }, 'match-key-000005')).json();
    const before = await rowsOf(workOrderNumber);
    const provisionalId = before.workOrder.customer_id;
    const path = `/api/admin/work-orders/${before.workOrder.id}/customer-match`;

    const stale = await decide(path, { decision: 'same', expectedUpdatedAt: '2020-01-01T00:00:00.000Z' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('CONFLICT');
    expect(stale.json().error.details.current.id).toBe(before.workOrder.id);

    const response = await decide(path, { decision: 'same', expectedUpdatedAt: before.workOrder.updated_at });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ decision: 'same', customerId: stored.id, workOrderId: before.workOrder.id, removedCustomerId: provisionalId });

    const after = await rowsOf(workOrderNumber);
    expect(after.workOrder).toMatchObject({ customer_id: stored.id, possible_customer_id: null, service_address: '77 Typed Ave, Bluffton, SC 29910' });
    expect(after.lead).toMatchObject({ customer_id: stored.id, possible_customer_id: null });
    expect(await readCustomer(stored.id)).toEqual(stored);
    expect(await readCustomer(provisionalId)).toBeUndefined();
    const conversation = await context.database.query<{ customer_id: string }>(`select customer_id from ai_conversations where conversation_id = 'session-match-key-000005'`);
    expect(conversation.map((row) => row.customer_id)).toEqual([stored.id]);

    expect((await auditOf(before.workOrder.id)).at(-1)).toMatchObject({
      action: 'match_confirmed',
      actor_name: 'Pat Staff',
      changes: { customerId: [provisionalId, stored.id], possibleCustomerId: [stored.id, null] },
    });
    expect((await auditOf(before.lead.id)).at(-1)).toMatchObject({ action: 'match_confirmed' });
    expect((await auditOf(provisionalId)).at(-1)).toMatchObject({ action: 'deleted' });

    const detail = await context.app.inject({ method: 'GET', url: `/api/admin/work-orders/${before.workOrder.id}`, headers: { cookie } });
    expect(detail.json()).toMatchObject({
      workOrder: { customerId: stored.id, serviceAddress: '77 Typed Ave, Bluffton, SC 29910', possibleCustomerId: null },
      customer: { id: stored.id, address: '1 Stored Rd' },
      possibleMatch: null,
    });

    const again = await decide(path, { decision: 'same', expectedUpdatedAt: after.workOrder.updated_at });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'CONFLICT', message: customerMatchMessages.alreadyResolved });
  });

  it('"New customer" on the lead dismisses the match on the lead and the work order and keeps the booking\'s customer; again is 409', async () => {
    const stored = await storeCustomer('Other Person', '843-555-0190', 'other.person@example.com');
    const { workOrderNumber } = (await book({ phone: '843-555-0190', name: 'Different Person' }, 'match-key-000006')).json();
    const before = await rowsOf(workOrderNumber);

    const leads = await context.app.inject({ method: 'GET', url: '/api/admin/leads?filter=all&search=Different%20Person', headers: { cookie } });
    const listed = leads.json().leads.find((item: { id: string }) => item.id === before.lead.id);
    expect(listed.possibleMatch).toMatchObject({ id: stored.id, name: 'Other Person', phone: '843-555-0190' });

    const path = `/api/admin/leads/chat/${before.lead.id}/customer-match`;
    expect((await decide(path, { decision: 'maybe', expectedUpdatedAt: listed.updatedAt })).statusCode).toBe(400);
    const response = await decide(path, { decision: 'new', expectedUpdatedAt: listed.updatedAt });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ decision: 'new', customerId: before.workOrder.customer_id, removedCustomerId: null });

    const after = await rowsOf(workOrderNumber);
    expect(after.workOrder).toMatchObject({ customer_id: before.workOrder.customer_id, possible_customer_id: null });
    expect(after.lead).toMatchObject({ customer_id: before.workOrder.customer_id, possible_customer_id: null });
    expect(await readCustomer(before.workOrder.customer_id)).toBeDefined();
    expect(await readCustomer(stored.id)).toEqual(stored);
    expect((await auditOf(before.lead.id)).at(-1)).toMatchObject({ action: 'match_dismissed', changes: { possibleCustomerId: [stored.id, null] } });
    expect((await auditOf(before.workOrder.id)).at(-1)).toMatchObject({ action: 'match_dismissed' });

    const again = await decide(path, { decision: 'same', expectedUpdatedAt: after.lead.updated_at });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(customerMatchMessages.alreadyResolved);
  });

  it('"Same customer" keeps the booking\'s own record when something else still refers to it', async () => {
    const stored = await storeCustomer('Kept Person', '843-555-0195', 'kept.person@example.com');
    const { workOrderNumber } = (await book({ phone: '843-555-0195' }, 'match-key-000007')).json();
    const before = await rowsOf(workOrderNumber);
    await context.database.query(`insert into equipment (customer_id, equipment_type) values ($1, 'heat_pump')`, [before.workOrder.customer_id]);
    const response = await decide(`/api/admin/work-orders/${before.workOrder.id}/customer-match`, { decision: 'same', expectedUpdatedAt: before.workOrder.updated_at });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ customerId: stored.id, removedCustomerId: null });
    expect(await readCustomer(before.workOrder.customer_id)).toBeDefined();
  });

  it('"Same customer" takes the visitor\'s ticked "text me" box to the stored customer, unless that customer chose later', async () => {
    const smsConsentOf = async (customerId: string) =>
      (await context.database.query<{ status: string; source: string }>(`select status, source from customer_message_consents where customer_id = $1 and channel = 'sms'`, [customerId]))[0];

    const stored = await storeCustomer('Texting Person', '843-555-0196', 'texting.person@example.com');
    const { workOrderNumber } = (await book({ phone: '(843) 555-0196', name: 'Texting P.', smsConsent: true }, 'match-key-000090')).json();
    const booked = await rowsOf(workOrderNumber);
    expect(await smsConsentOf(stored.id)).toBeUndefined();
    const response = await decide(`/api/admin/work-orders/${booked.workOrder.id}/customer-match`, { decision: 'same', expectedUpdatedAt: booked.workOrder.updated_at });
    expect(response.statusCode, response.body).toBe(200);
    expect(await smsConsentOf(stored.id)).toEqual({ status: 'opted_in', source: 'form' });

    // A customer who said no to texts after this visitor's form keeps their no.
    const other = await storeCustomer('Quiet Person', '843-555-0197', 'quiet.person@example.com');
    const second = (await book({ phone: '(843) 555-0197', name: 'Quiet P.', smsConsent: true }, 'match-key-000091')).json();
    const secondRows = await rowsOf(second.workOrderNumber);
    const optOut = await context.app.inject({ method: 'PUT', url: `/api/admin/customers/${other.id}/consents/sms`, payload: { status: 'opted_out' }, headers: { cookie } });
    expect(optOut.statusCode, optOut.body).toBe(200);
    expect((await decide(`/api/admin/work-orders/${secondRows.workOrder.id}/customer-match`, { decision: 'same', expectedUpdatedAt: secondRows.workOrder.updated_at })).statusCode).toBe(200);
    expect(await smsConsentOf(other.id)).toEqual({ status: 'opted_out', source: 'staff' });
  });
});
