import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages } from '#shared/chat.ts';
import { todayIn } from '#shared/dates.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

let context: TestContext;
let nextAddress = 10;
const freshAddress = () => `127.0.3.${(nextAddress += 1)}`;
const phone = '(843) 555-0142';

function send(message: string, sessionId = 'session-rules-001', options: { address?: string; customer?: { id?: string; name: string } } = {}) {
  return context.app.inject({
    method: 'POST',
    url: '/api/public/chat/messages',
    payload: { message, sessionId, ...(options.customer ? { customer: options.customer } : {}) },
    remoteAddress: options.address ?? freshAddress(),
  });
}

function book(body: Record<string, unknown>, key?: string) {
  return context.app.inject({
    method: 'POST',
    url: '/api/public/chat/bookings',
    payload: { sessionId: 'session-booking-001', ...body },
    headers: key ? { 'idempotency-key': key } : {},
    remoteAddress: freshAddress(),
  });
}

const count = async (table: string) => (await context.database.query<{ count: number }>(`select count(*)::int as count from ${table}`))[0]!.count;

beforeAll(async () => {
  context = await createTestApp({ env: { CHAT_MESSAGE_LIMIT: '5', PUBLIC_FORM_LIMIT: '100' } });
});
afterAll(() => context.close());

describe('the built-in assistant', () => {
  it('answers the hours from the company profile and stores the exchange with its intent', async () => {
    const response = await send('What are your hours?', 'session-hours-0001');
    expect(response.statusCode).toBe(200);
    const reply = response.json();
    expect(reply).toMatchObject({ intent: 'business_hours', category: 'hours', action: 'none' });
    expect(reply.message).toContain('Mon-Fri 8AM-6PM');
    expect(reply.message).toContain('Sat 9AM-4PM');
    const [stored] = await context.database.query<{ user_message: string; ai_response: string; intent: string }>(
      `select user_message, ai_response, intent from ai_conversations where conversation_id = 'session-hours-0001'`,
    );
    expect(stored).toEqual({ user_message: 'What are your hours?', ai_response: reply.message, intent: 'business_hours' });
  });

  it('opens the booking form for a repair, with first-aid tips', async () => {
    const reply = (await send("My AC isn't cooling")).json();
    expect(reply).toMatchObject({ intent: 'repair_needed', action: 'show_form' });
    expect(reply.message).toMatch(/thermostat/i);
    expect(reply.message).toMatch(/filter/i);
    expect(reply.message).toMatch(/breaker/i);
  });

  it('asks for the emergency line for emergencies, and answers prices and plans from the facts', async () => {
    const emergency = (await send('I need emergency service')).json();
    expect(emergency).toMatchObject({ intent: 'emergency', urgency: 'high', action: 'show_form' });
    expect(emergency.message).toContain('(843) 555-0199');
    const pricing = (await send('How much does a service call cost?')).json();
    expect(pricing.message).toContain('$89');
    expect(pricing.message).toContain('Essential $150/year');
  });

  it('puts the safety script above everything for gas, carbon monoxide and burning smells', async () => {
    for (const [message, pattern] of [
      ['I smell gas in the kitchen, can you book a tune-up?', /leave the house now.*911/s],
      ['my carbon monoxide alarm keeps going off', /fresh air now and call 911/],
      ['burning smell from the vents when the heat runs', /call 911/],
    ] as const) {
      const reply = (await send(message)).json();
      expect(reply, message).toMatchObject({ category: 'safety', urgency: 'emergency', action: 'call_now', intent: 'emergency' });
      expect(reply.message, message).toMatch(pattern);
    }
  });

  it('refuses empty, whitespace-only and oversized messages', async () => {
    expect((await send('   ')).statusCode).toBe(400);
    expect((await send('x'.repeat(1001))).statusCode).toBe(400);
    expect((await send('hello', 'bad id!')).statusCode).toBe(400);
  });

  it('limits messages per address', async () => {
    const address = freshAddress();
    for (let index = 0; index < 5; index += 1) expect((await send('hello', 'session-flood-01', { address })).statusCode).toBe(200);
    expect((await send('hello', 'session-flood-01', { address })).statusCode).toBe(429);
  });
});

describe('booking from the chat', () => {
  const booking = {
    name: 'Morgan Ellis',
    phone: '843.555.0188',
    email: 'morgan.ellis@example.com',
    address: '9 Lighthouse Ln, Hilton Head Island, SC 29928',
    serviceType: 'repair',
    description: 'Outside unit is broken and making a grinding noise',
    preferredDate: '',
  };

  it('creates the customer, work order, lead, conversation and notification together, and replies with the number', async () => {
    const response = await book(booking, 'booking-key-000001');
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.workOrderNumber).toMatch(/^WO-\d+$/);
    expect(body.message).toBe(chatMessages.bookingSuccess(body.workOrderNumber, phone));
    expect(Object.keys(body).sort()).toEqual(['message', 'workOrderNumber']);
    const [{ customer_id: customerId }] = (await context.database.query<{ customer_id: string }>(
      `select customer_id from work_orders where work_order_number = $1`,
      [body.workOrderNumber],
    )) as [{ customer_id: string }];

    const [customer] = await context.database.query<Record<string, unknown>>(`select * from customers where id = $1`, [customerId]);
    expect(customer).toMatchObject({ name: 'Morgan Ellis', city: 'Hilton Head Island', state: 'SC', zip: '29928', type: 'residential' });
    const [workOrder] = await context.database.query<Record<string, unknown>>(
      `select status, priority, time_preference, service_type, service_date::text as service_date, customer_id from work_orders where work_order_number = $1`,
      [body.workOrderNumber],
    );
    // "broken" is high urgency: priority high, service tomorrow (company calendar).
    const tomorrow = new Date(`${todayIn('America/New_York')}T12:00:00Z`);
    tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
    expect(workOrder).toMatchObject({
      status: 'pending',
      priority: 'high',
      time_preference: 'anytime',
      service_type: 'repair',
      service_date: tomorrow.toISOString().slice(0, 10),
      customer_id: customerId,
    });
    const [lead] = await context.database.query<Record<string, unknown>>(`select * from ai_leads where customer_id = $1`, [customerId]);
    expect(lead).toMatchObject({ lead_score: 8, urgency: 'high', source: 'ai_chat', status: 'converted', conversation_id: 'session-booking-001' });
    const [notification] = await context.database.query<{ type: string; data: Record<string, unknown> }>(
      `select type, data from admin_notifications where data->>'work_order_number' = $1`,
      [body.workOrderNumber],
    );
    expect(notification).toMatchObject({ type: 'new_ai_lead', data: { source: 'ai_chat', urgency: 'high', service_type: 'repair' } });
    const conversation = await context.database.query(`select 1 from ai_conversations where customer_id = $1 and intent = 'schedule_service'`, [
      customerId,
    ]);
    expect(conversation).toHaveLength(1);
  });

  it('the same submission sent twice books once', async () => {
    const before = await count('work_orders');
    const first = await book({ ...booking, name: 'Twice Clicked', phone: '843-555-0191', email: '' }, 'booking-key-000002');
    const second = await book({ ...booking, name: 'Twice Clicked', phone: '843-555-0191', email: '' }, 'booking-key-000002');
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await count('work_orders')).toBe(before + 1);
  });

  it('links a returning customer by phone however it is typed, or by e-mail, as a possible match only (decision 018-a)', async () => {
    const [first] = await context.database.query<{ customer_id: string }>(
      `select customer_id from work_orders where idempotency_key = 'booking-key-000001'`,
    );
    const customersBefore = await count('customers');
    const byPhone = await book({ ...booking, name: 'Morgan E.', phone: '+1 (843) 555-0188', email: '' }, 'booking-key-000003');
    const byEmail = await book({ ...booking, phone: '843-555-0999', email: 'MORGAN.ELLIS@example.com' }, 'booking-key-000004');
    // Each booking has its own customer record; the stored one is named for staff, not used.
    expect(await count('customers')).toBe(customersBefore + 2);
    for (const response of [byPhone, byEmail]) {
      expect(response.json()).not.toHaveProperty('customer');
      const [row] = await context.database.query<{ customer_id: string; possible_customer_id: string }>(
        `select customer_id, possible_customer_id from work_orders where work_order_number = $1`,
        [response.json().workOrderNumber],
      );
      expect(row!.customer_id).not.toBe(first!.customer_id);
      expect(row!.possible_customer_id).toBe(first!.customer_id);
    }
  });

  it('uses the preferred date when one is given, and low urgency gives low priority a week out when none is', async () => {
    const today = todayIn('America/New_York');
    const withDate = await book({ ...booking, phone: '843-555-0111', email: '', description: 'Annual check', serviceType: 'maintenance', preferredDate: today }, 'booking-key-000005');
    const [dated] = await context.database.query<{ service_date: string; priority: string }>(
      `select service_date::text as service_date, priority from work_orders where work_order_number = $1`,
      [withDate.json().workOrderNumber],
    );
    expect(dated).toEqual({ service_date: today, priority: 'low' });
  });

  it('answers 400 with the spec messages and books nothing for bad input', async () => {
    const before = await count('work_orders');
    const response = await book({ name: '', phone: '12', email: 'x@', address: '', serviceType: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Name is required' },
        { path: 'phone', message: 'Please enter a valid phone number' },
        { path: 'email', message: 'Please enter a valid email address' },
        { path: 'address', message: 'Address is required' },
        { path: 'serviceType', message: 'Service type is required' },
      ]),
    );
    expect(await count('work_orders')).toBe(before);
  });

  it('when any step fails, nothing is saved and the reply is the spec message', async () => {
    const tables = ['customers', 'work_orders', 'ai_leads', 'ai_conversations', 'admin_notifications', 'audit_log'];
    const before = await Promise.all(tables.map(count));
    // The last step of the transaction fails (a database that refuses the notification row).
    await context.database.query(`
      create or replace function refuse_notifications() returns trigger language plpgsql as $$
      begin raise exception 'notifications are unavailable'; end $$`);
    await context.database.query(
      'create trigger refuse_notifications before insert on admin_notifications for each row execute function refuse_notifications()',
    );
    try {
      const response = await book({ ...booking, name: 'Unlucky Person', phone: '843-555-0177', email: 'unlucky@example.com' }, 'booking-key-000006');
      expect(response.statusCode).toBe(500);
      expect(response.json().error.message).toBe(chatMessages.bookingFailure(phone));
    } finally {
      await context.database.query('drop trigger refuse_notifications on admin_notifications');
      await context.database.query('drop function refuse_notifications()');
    }
    expect(await Promise.all(tables.map(count))).toEqual(before);
  });
});

describe('the remembered customer', () => {
  it('links later messages of the session to the customer who booked, whatever id the browser sends', async () => {
    const booked = await book(
      { name: 'Quinn Later', phone: '843-555-0133', email: '', address: '12 Boundary St, Beaufort', serviceType: 'inspection', sessionId: 'session-linked-001' },
      'booking-key-000009',
    );
    const [{ customer_id: customerId }] = (await context.database.query<{ customer_id: string }>(
      `select customer_id from work_orders where work_order_number = $1`,
      [booked.json().workOrderNumber],
    )) as [{ customer_id: string }];
    const reply = await send('Thanks! What should I do before the visit?', 'session-linked-001', {
      customer: { id: '00000000-0000-4000-8000-000000000000', name: 'Quinn Later' },
    });
    expect(reply.statusCode).toBe(200);
    const rows = await context.database.query<{ customer_id: string }>(
      `select customer_id from ai_conversations where conversation_id = 'session-linked-001' order by created_at`,
    );
    expect(rows.map((row) => row.customer_id)).toEqual([customerId, customerId]);
  });
});

describe('staff notifications', () => {
  it('lists chat bookings newest first for signed-in staff only', async () => {
    const booked = await book(
      { name: 'Nina Notified', phone: '843-555-0122', email: '', address: '4 Main St, Okatie', serviceType: 'maintenance' },
      'booking-key-000010',
    );
    expect((await context.app.inject({ method: 'GET', url: '/api/admin/notifications' })).statusCode).toBe(401);
    await createStaff(context.database, 'notified-staff@example.com');
    const cookie = await signIn(context.app, 'notified-staff@example.com', undefined, freshAddress());
    const response = await context.app.inject({ method: 'GET', url: '/api/admin/notifications?limit=5', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const [latest] = response.json().notifications;
    expect(latest).toMatchObject({
      type: 'new_ai_lead',
      title: `New chat booking: ${booked.json().workOrderNumber}`,
      data: { work_order_number: booked.json().workOrderNumber, source: 'ai_chat', service_type: 'maintenance' },
      readAt: null,
    });
  });
});
