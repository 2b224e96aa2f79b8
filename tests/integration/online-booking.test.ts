import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultBookingSettings, onlineBookingBookedSchema, windowTakenDetailsSchema, type BookingSettingsInput, type OnlineBookingInput } from '#shared/booking.ts';
import { visitPageSchema } from '#shared/visit.ts';
import { invalidLinkMessage } from '#server/modules/document-links/index.ts';
import { customerLinkFromOutbox } from '#tests/support/outbox-links.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

/**
 * POST /api/public/booking (issue 21) on a fixed clock: Friday 2027-03-12, 09:00 in Bluffton.
 * Repairs: 120 minutes, two hours' lead time, three days ahead (Friday 11:00 to Monday).
 */
const fridayNineAm = new Date('2027-03-12T14:00:00Z');
let context: TestContext;
let cookie: string;

function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  return context.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), headers: { cookie } });
}

async function technician(name: string, serviceTypes: string[], workingHours: Record<string, { start: string; end: string }[]>): Promise<string> {
  const added = await api('POST', '/api/admin/settings/technicians', { name, color: '#0d9488' });
  expect(added.statusCode, added.body).toBe(201);
  const id = added.json().technician.id as string;
  const set = await api('PUT', `/api/admin/settings/booking/technicians/${id}`, { workingHours, serviceTypes });
  expect(set.statusCode, set.body).toBe(200);
  return id;
}

const visitor = {
  serviceType: 'repair',
  zip: '29910',
  name: 'Robin Online',
  phone: '(843) 555-0177',
  email: 'robin.online@example.com',
  address: '7 Heron Point, Bluffton, SC',
  description: 'The upstairs unit blows warm air.',
  smsConsent: true,
} satisfies Partial<OnlineBookingInput>;

function book(body: Partial<OnlineBookingInput>, options: { key?: string; remoteAddress?: string } = {}) {
  return context.app.inject({
    method: 'POST',
    url: '/api/public/booking',
    payload: { ...visitor, ...body },
    headers: options.key ? { 'idempotency-key': options.key } : {},
    remoteAddress: options.remoteAddress ?? '203.0.113.10',
  });
}

beforeAll(async () => {
  context = await createTestApp({ now: () => fridayNineAm, env: { PUBLIC_FORM_LIMIT: '1000' } });
  await createStaff(context.database);
  cookie = await signIn(context.app);
  const settings: BookingSettingsInput = {
    ...structuredClone(defaultBookingSettings),
    serviceTypes: {
      ...defaultBookingSettings.serviceTypes,
      repair: { durationMinutes: 120, bookableOnline: true, leadTimeHours: 2, horizonDays: 3 },
      inspection: { durationMinutes: 60, bookableOnline: true, leadTimeHours: 2, horizonDays: 7 },
    },
  };
  expect((await api('PUT', '/api/admin/settings/booking', settings)).statusCode).toBe(200);
});
afterAll(() => context?.close());

describe('booking an open window', () => {
  it('books a window: a new customer, a scheduled work order with its technician and window, the lead, the notification and the confirmation', async () => {
    const morgan = await technician('Morgan Booker', ['repair'], { '1': [{ start: '08:00', end: '17:00' }] });
    // A stored customer with the visitor's phone: recorded as a possible match, never used or revealed.
    const [stored] = await context.database.query<{ id: string }>(`insert into customers (name, phone, address) values ('Stored Person', '843-555-0177', '1 Old Rd') returning id`);

    const response = await book({ date: '2027-03-15', start: '10:00', end: '12:00' }, { key: 'online-booking-first-0001' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const answer = onlineBookingBookedSchema.parse(response.json());
    expect(answer).toMatchObject({ status: 'booked', date: '2027-03-15', start: '10:00', end: '12:00' });
    expect(answer.workOrderNumber).toMatch(/^WO-\d+$/);
    expect(answer.message).toContain('Monday, March 15');
    expect(response.body).not.toMatch(/Morgan|Stored Person|technician/i);

    const [workOrder] = await context.database.query<Record<string, unknown>>(
      `select w.id, w.status, w.technician_id, w.service_date::text as service_date, w.scheduled_start_time::text as start, w.scheduled_end_time::text as finish,
              w.arrival_window_start::text as window_start, w.arrival_window_end::text as window_end, w.service_zip, w.service_city, w.possible_customer_id,
              w.service_type, c.name as customer_name, c.email as customer_email
         from work_orders w join customers c on c.id = w.customer_id where w.work_order_number = $1`,
      [answer.workOrderNumber],
    );
    expect(workOrder).toMatchObject({
      status: 'scheduled',
      technician_id: morgan,
      service_date: '2027-03-15',
      start: '10:00:00',
      finish: '12:00:00',
      window_start: '10:00:00',
      window_end: '12:00:00',
      service_zip: '29910',
      service_city: 'Bluffton',
      service_type: 'repair',
      possible_customer_id: stored!.id,
      customer_name: 'Robin Online',
      customer_email: 'robin.online@example.com',
    });
    const [lead] = await context.database.query<Record<string, unknown>>(`select source, status, conversation_id from ai_leads where work_order_id = $1`, [workOrder!.id]);
    expect(lead).toMatchObject({ source: 'website', status: 'converted' });
    expect(lead!.conversation_id).toMatch(/^web-booking-/);
    const [notification] = await context.database.query<{ type: string; data: Record<string, unknown> }>(
      `select type, data from admin_notifications where data->>'work_order_id' = $1`,
      [workOrder!.id],
    );
    expect(notification).toMatchObject({ type: 'new_online_booking', data: { link: `/admin/workorders/${workOrder!.id}`, source: 'website' } });

    // The confirmation (and the day-before reminder) go out through messaging: by e-mail, and by text as the box was ticked.
    await context.app.messaging.planPending();
    const messages = await context.database.query<{ type: string; channel: string }>(`select type, channel from messages where work_order_id = $1 order by channel, type`, [workOrder!.id]);
    expect(messages).toEqual([
      { type: 'appointment_confirmed', channel: 'email' },
      { type: 'appointment_reminder', channel: 'email' },
      { type: 'appointment_confirmed', channel: 'sms' },
      { type: 'appointment_reminder', channel: 'sms' },
    ]);

    // The same submission again: the first booking's answer, and nothing new.
    const again = await book({ date: '2027-03-15', start: '10:00', end: '12:00' }, { key: 'online-booking-first-0001' });
    expect(again.statusCode).toBe(200);
    // The same answer, without the visit's link: links are not kept, so a replay cannot give it again.
    expect(again.json()).toEqual({ ...answer, visitPath: undefined });
    expect(again.json()).not.toHaveProperty('visitPath');
    const [count] = await context.database.query<{ count: number }>(`select count(*)::int as count from work_orders where idempotency_key = 'online-booking-first-0001'`);
    expect(count!.count).toBe(1);

    // Morgan is the only one for repairs: with the 30-minute buffer, Monday's 8-10 and 10-12 are gone.
    const windows = await context.app.inject({ method: 'GET', url: '/api/public/booking/windows?serviceType=repair&zip=29910' });
    const offered = windows.json().windows.filter((window: { date: string }) => window.date === '2027-03-15');
    expect(offered.map((window: { start: string }) => window.start)).toEqual(['13:00', '15:00']);
  });

  it('gives the last open window to exactly one of 50 visitors at once; the others get the open windows now', async () => {
    // Tuesdays 8-10 only, inspections only: one 60-minute visit fits, then the buffer leaves no room.
    await technician('Drew Inspector', ['inspection'], { '2': [{ start: '08:00', end: '10:00' }] });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        book({ serviceType: 'inspection', date: '2027-03-16', start: '08:00', end: '10:00', email: `racer${index}@example.com`, phone: `(843) 555-${String(1000 + index)}` }, { remoteAddress: `198.51.100.${index + 1}` }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    for (const response of responses.filter((candidate) => candidate.statusCode === 409)) {
      const { error } = response.json();
      expect(error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/just taken/) });
      const taken = windowTakenDetailsSchema.parse(error.details);
      expect(taken.windows.some((window) => window.date === '2027-03-16' && window.start === '08:00')).toBe(false);
    }
    const [stored] = await context.database.query<{ count: number }>(`select count(*)::int as count from work_orders where service_date = '2027-03-16' and service_type = 'inspection'`);
    expect(stored!.count).toBe(1);
  });

  it('refuses what the page never offers: a ZIP code outside the area, a type booked by phone, a window not offered, bad details', async () => {
    const outside = await book({ zip: '90210', date: '2027-03-15', start: '13:00', end: '15:00' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error.message).toMatch(/ZIP code/);
    const byPhone = await book({ serviceType: 'installation', date: '2027-03-15', start: '13:00', end: '15:00' });
    expect(byPhone.statusCode).toBe(400);
    expect(byPhone.json().error.message).toMatch(/booked by phone/);
    // 9-11 is not one of the company's windows; Sunday is nobody's working day here.
    expect((await book({ date: '2027-03-15', start: '09:00', end: '11:00' })).statusCode).toBe(409);
    expect((await book({ date: '2027-03-14', start: '08:00', end: '10:00' })).statusCode).toBe(409);
    // Past the horizon and before the lead time.
    expect((await book({ date: '2027-03-16', start: '08:00', end: '10:00' })).statusCode).toBe(409);
    expect((await book({ date: '2027-03-12', start: '08:00', end: '10:00' })).statusCode).toBe(409);

    const bad = await book({ date: 'soon', start: '8am', end: '10:00', email: '', phone: '12', name: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['date', 'email', 'name', 'phone', 'start']);
    const [count] = await context.database.query<{ count: number }>(`select count(*)::int as count from work_orders where title like '%booked online'`);
    expect(count!.count).toBe(2);
  });
});

describe('booking a window from the chat', () => {
  it('keeps the booking in the chat’s conversation, its lead from the chat', async () => {
    await technician('Sam Chat', ['repair'], { '1': [{ start: '08:00', end: '17:00' }] });
    const response = await book({ date: '2027-03-15', start: '15:00', end: '17:00', email: 'chat.window@example.com', sessionId: 'chat-window-session-01' });
    expect(response.statusCode, response.body).toBe(201);
    const [lead] = await context.database.query<{ source: string; conversation_id: string }>(
      `select l.source, l.conversation_id from ai_leads l join work_orders w on w.id = l.work_order_id where w.work_order_number = $1`,
      [response.json().workOrderNumber],
    );
    expect(lead).toEqual({ source: 'ai_chat', conversation_id: 'chat-window-session-01' });
    const turns = await context.database.query<{ user_message: string }>(`select user_message from ai_conversations where conversation_id = 'chat-window-session-01'`);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.user_message).toMatch(/^Schedule Service form: Repair/);
  });
});

describe('the customer’s visit link', () => {
  const visitApi = (path: string, method: 'GET' | 'POST' = 'GET', payload?: object) =>
    context.app.inject({ method, url: `/api/public/visits/${path}`, ...(payload ? { payload } : {}), remoteAddress: '203.0.113.20' });

  it('shows the visit from the confirmation’s link; moves it to another open window; cancels it; refuses every bad link alike', async () => {
    await technician('Jordan Mover', ['maintenance'], { '1': [{ start: '08:00', end: '17:00' }], '2': [{ start: '08:00', end: '17:00' }] });
    const email = 'jamie.mover@example.com';
    const response = await book({ serviceType: 'maintenance', date: '2027-03-15', start: '08:00', end: '10:00', email, name: 'Jamie Mover' });
    expect(response.statusCode, response.body).toBe(201);
    const booked = onlineBookingBookedSchema.parse(response.json());
    const token = booked.visitPath!.replace('/visit/', '');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const shown = await visitApi(token);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.headers['cache-control']).toContain('no-store');
    expect(shown.headers['referrer-policy']).toBe('no-referrer');
    const page = visitPageSchema.parse(shown.json());
    expect(page).toMatchObject({
      workOrderNumber: booked.workOrderNumber,
      status: 'scheduled',
      date: '2027-03-15',
      window: { start: '08:00', end: '10:00' },
      address: '7 Heron Point, Bluffton, SC',
      technicianFirstName: 'Jordan',
      canChange: true,
      canReschedule: true,
    });
    expect(page.prepare.length).toBeGreaterThan(0);
    expect(shown.body).not.toMatch(/Mover@|555-0177|Robin/);

    // The confirmation e-mail carries a link of its own to the same visit.
    await context.app.messaging.planPending();
    await context.app.messaging.dispatchDue();
    const emailed = await customerLinkFromOutbox(context, { recipient: email, kind: 'message_appointment_confirmed', site: context.config.company.siteUrl, documentType: 'visit' });
    expect(emailed).not.toBe(token);
    expect(visitPageSchema.parse((await visitApi(emailed)).json()).workOrderNumber).toBe(booked.workOrderNumber);

    // Every bad link: the one 404.
    for (const bad of ['A'.repeat(43), `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, 'short', '../../etc/passwd']) {
      const refused = await visitApi(encodeURIComponent(bad));
      expect(refused.statusCode, bad).toBe(404);
      expect(refused.json().error.message).toBe(invalidLinkMessage);
    }

    // Another open time: Tuesday 13-15.
    const windows = await visitApi(`${token}/windows`);
    expect(windows.json().windows).toContainEqual({ date: '2027-03-16', start: '13:00', end: '15:00' });
    const moved = await visitApi(`${token}/reschedule`, 'POST', { date: '2027-03-16', start: '13:00', end: '15:00' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(visitPageSchema.parse(moved.json())).toMatchObject({ date: '2027-03-16', window: { start: '13:00', end: '15:00' } });
    const [row] = await context.database.query<Record<string, string>>(
      `select service_date::text as date, scheduled_start_time::text as start, status from work_orders where work_order_number = $1`,
      [booked.workOrderNumber],
    );
    expect(row).toEqual({ date: '2027-03-16', start: '13:00:00', status: 'scheduled' });
    // The move goes out through messaging (planned from the work order as the runner would).
    await context.app.messaging.planPending();
    const [audit] = await context.database.query<{ actor_name: string; action: string }>(
      `select actor_name, action from audit_log where entity_label = $1 order by occurred_at desc limit 1`,
      [booked.workOrderNumber],
    );
    expect(audit).toEqual({ actor_name: 'Customer (visit link)', action: 'rescheduled' });
    // A window that is not open: a 409 with the open ones.
    const taken = await visitApi(`${token}/reschedule`, 'POST', { date: '2027-03-14', start: '08:00', end: '10:00' });
    expect(taken.statusCode).toBe(409);
    expect(Array.isArray(taken.json().error.details.windows)).toBe(true);

    const cancelled = await visitApi(`${token}/cancel`, 'POST', {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(visitPageSchema.parse(cancelled.json())).toMatchObject({ status: 'cancelled', canChange: false });
    await context.app.messaging.planPending();
    const types = await context.database.query<{ type: string }>(
      `select distinct m.type from messages m join work_orders w on w.id = m.work_order_id where w.work_order_number = $1 order by 1`,
      [booked.workOrderNumber],
    );
    expect(types.map((entry) => entry.type)).toEqual(expect.arrayContaining(['appointment_cancelled', 'appointment_confirmed', 'appointment_rescheduled']));
    const again = await visitApi(`${token}/cancel`, 'POST', {});
    expect(again.statusCode).toBe(409);
    const notifications = await context.database.query<{ title: string }>(`select title from admin_notifications where type = 'visit_changed' order by created_at`);
    expect(notifications.map((entry) => entry.title)).toEqual([`Rescheduled by the customer: ${booked.workOrderNumber}`, `Cancelled by the customer: ${booked.workOrderNumber}`]);
  });

  it('refuses changes past the cut-off (24 hours before the visit) and says to call', async () => {
    await technician('Riley Today', ['repair'], { '5': [{ start: '08:00', end: '17:00' }] });
    const response = await book({ date: '2027-03-12', start: '13:00', end: '15:00', email: 'today@example.com' });
    expect(response.statusCode, response.body).toBe(201);
    const token = onlineBookingBookedSchema.parse(response.json()).visitPath!.replace('/visit/', '');
    expect(visitPageSchema.parse((await visitApi(token)).json())).toMatchObject({ canChange: false, canReschedule: false });
    const refused = await visitApi(`${token}/cancel`, 'POST', {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/up to 24 hours before/);
    expect((await visitApi(`${token}/reschedule`, 'POST', { date: '2027-03-15', start: '13:00', end: '15:00' })).statusCode).toBe(409);
  });
});
