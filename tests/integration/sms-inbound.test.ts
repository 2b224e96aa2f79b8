import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { technicians } from '#server/db/schema/index.ts';
import { addDays, todayIn } from '#shared/dates.ts';
import { inboundTextPath } from '#shared/inbound-texts.ts';
import { formatAppointmentDate } from '#shared/messaging.ts';
import { inboundSmsParams, signedInboundRequest, startFakeSmsServer, type FakeSmsServer } from '#tests/support/fake-sms-server.ts';
import { messagingFixtures } from '#tests/support/messaging.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

/**
 * Inbound texts (issue 18, decision 021-a): the provider's signed webhook, as Twilio sends it
 * (tests/support/fake-sms-server.ts signs every form parameter over COMPANY_SITE_URL + the path).
 * The app is configured with an SMS API (the fake provider on 127.0.0.1, which also receives the
 * texts the dispatcher sends); the database is real (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */

let context: TestContext;
let provider: FakeSmsServer;
let clock = new Date();
let cookie: string;
let cookieClock = 0;
let technicianId: string;
let today: string;
let timeZone: string;
let companyName: string;
let companyPhone: string;
let webhookUrl: string;
const companyNumber = '+18435550100';

const db = () => context.database.db;

const { rows, localInstant, newCustomer, newWorkOrder } = messagingFixtures({
  database: () => context.database,
  timeZone: () => timeZone,
  workOrderDefaults: () => ({ serviceDate: today, technicianId }),
});

async function api(method: 'POST', url: string, payload: unknown) {
  // Sessions follow the same clock: sign in again once it has moved.
  if (!cookie || cookieClock !== clock.getTime()) {
    cookie = await signIn(context.app);
    cookieClock = clock.getTime();
  }
  return context.app.inject({ method, url, payload: payload as object, headers: { cookie } });
}

/** A work order scheduled through the API (so the planner sees it as staff would make it). */
async function scheduledWorkOrder(customerId: string, date: string, startTime: string): Promise<{ id: string; number: string }> {
  const row = await newWorkOrder(customerId);
  const response = await api('POST', `/api/admin/work-orders/${row.id}/schedule`, {
    date,
    startTime,
    durationHours: 2,
    technicianId,
    expectedUpdatedAt: new Date(row.updatedAt).toISOString(),
  });
  expect(response.statusCode, response.body).toBe(200);
  return { id: row.id, number: row.number };
}

/** One text as the provider posts it, signed (or altered after signing with `tamper`). */
async function textIn(from: string, body: string, options: { params?: Record<string, string>; headers?: Record<string, string | undefined>; tamper?: (form: string) => string; authToken?: string; url?: string } = {}) {
  const params = options.params ?? inboundSmsParams({ from, to: companyNumber, body, accountSid: provider.accountSid });
  const signed = signedInboundRequest({ authToken: options.authToken ?? provider.authToken, url: options.url ?? webhookUrl, params });
  const headers = Object.fromEntries(Object.entries({ ...signed.headers, ...options.headers }).filter(([, value]) => value !== undefined)) as Record<string, string>;
  const response = await context.app.inject({ method: 'POST', url: signed.path, headers, payload: options.tamper ? options.tamper(signed.body) : signed.body });
  return { response, params };
}

/** The reply text of a TwiML answer ('' for `<Response/>`). */
function replyOf(twiml: string): string {
  const match = /<Response><Message>([\s\S]*)<\/Message><\/Response>$/.exec(twiml);
  if (!match) {
    expect(twiml).toMatch(/<Response\/>$/);
    return '';
  }
  return match[1]!
    .replace(/&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

async function expectTwiml(response: Awaited<ReturnType<typeof textIn>>['response'], reply: string): Promise<void> {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/xml/);
  expect(replyOf(response.body)).toBe(reply);
}

type Notification = { title: string; message: string; data: Record<string, unknown> };
async function customerTextNotifications(): Promise<Notification[]> {
  return rows<Notification>(sql`select title, message, data from admin_notifications where type = 'customer_text' order by created_at, id`);
}

async function smsConsent(customerId: string): Promise<{ status: string; source: string; changed_at: Date | string } | undefined> {
  const [row] = await rows<{ status: string; source: string; changed_at: Date | string }>(sql`
    select status, source, changed_at from customer_message_consents where customer_id = ${customerId} and channel = 'sms'`);
  return row;
}

async function inboundCount(): Promise<number> {
  const [row] = await rows<{ count: number | string }>(sql`select count(*) as count from inbound_texts`);
  return Number(row!.count);
}

async function confirmedAt(workOrderId: string): Promise<number | null> {
  const [row] = await rows<{ customer_confirmed_at: Date | string | null }>(sql`select customer_confirmed_at from work_orders where id = ${workOrderId}`);
  return row!.customer_confirmed_at === null ? null : new Date(row!.customer_confirmed_at).getTime();
}

async function run(): Promise<void> {
  await context.app.messaging.planPending();
  await context.app.messaging.dispatchDue();
}

beforeAll(async () => {
  provider = await startFakeSmsServer();
  context = await createTestApp({ env: provider.env(companyNumber), now: () => clock });
  timeZone = context.config.businessTimeZone;
  companyName = context.config.company.name;
  companyPhone = context.config.company.phone;
  webhookUrl = `${context.config.company.siteUrl}${inboundTextPath}`;
  today = todayIn(timeZone);
  clock = await localInstant(today, '12:00');
  await createStaff(context.database);
  const [technician] = await db().insert(technicians).values({ name: 'Mike Johnson' }).returning({ id: technicians.id });
  technicianId = technician!.id;
});

afterAll(async () => {
  await context?.close();
  await provider?.close();
});

describe('the webhook', () => {
  it('answers 404 when no SMS API is configured, even to a well-signed text', async () => {
    const unconfigured = await createTestApp();
    try {
      const params = inboundSmsParams({ from: '+18435550142', to: companyNumber, body: 'STOP' });
      const signed = signedInboundRequest({ authToken: provider.authToken, url: `${unconfigured.config.company.siteUrl}${inboundTextPath}`, params });
      const response = await unconfigured.app.inject({ method: 'POST', url: signed.path, headers: signed.headers, payload: signed.body });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
      const [row] = (await unconfigured.database.db.execute<{ count: number | string }>(sql`select count(*) as count from inbound_texts`)).rows;
      expect(Number(row!.count)).toBe(0);
    } finally {
      await unconfigured.close();
    }
  });

  it('refuses a missing, wrong, tampered or misdirected signature with 403 and stores nothing', async () => {
    const customer = await newCustomer({ texts: true });
    const before = await smsConsent(customer.id);
    const attempts = [
      await textIn(customer.number, 'STOP', { headers: { 'x-twilio-signature': undefined } }),
      await textIn(customer.number, 'STOP', { headers: { 'x-twilio-signature': '' } }),
      await textIn(customer.number, 'STOP', { authToken: 'not-the-auth-token' }),
      // Signed for "hello", delivered as "STOP".
      await textIn(customer.number, 'hello', { tamper: (form) => form.replace('Body=hello', 'Body=STOP') }),
      // A parameter added after signing.
      await textIn(customer.number, 'STOP', { tamper: (form) => `${form}&Extra=1` }),
      await textIn(customer.number, 'STOP', { url: 'https://attacker.example/api/public/sms/inbound' }),
    ];
    for (const { response } of attempts) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'The request signature is not valid.' } });
    }
    expect(await inboundCount()).toBe(0);
    expect(await smsConsent(customer.id)).toEqual(before);
    expect(await customerTextNotifications()).toEqual([]);
  });
});

describe('carrier keywords', () => {
  it('STOP opts the customer out (a planned text reminder is then skipped by the dispatcher); START opts back in', async () => {
    const customer = await newCustomer({ texts: true });
    const visitDate = addDays(today, 5);
    const workOrder = await scheduledWorkOrder(customer.id, visitDate, '10:00');
    await run();
    expect(provider.messages.filter((message) => message.to === customer.number)).toHaveLength(1);

    const { response } = await textIn(customer.number, 'Stop');
    await expectTwiml(response, `You're unsubscribed from ${companyName} texts. No more messages will be sent. Reply START to resubscribe.`);
    expect(await smsConsent(customer.id)).toMatchObject({ status: 'opted_out', source: 'reply' });
    expect(new Date((await smsConsent(customer.id))!.changed_at).getTime()).toBe(clock.getTime());
    const [stored] = await rows<{ kind: string; customer_id: string; from_number: string; body: string }>(sql`
      select kind, customer_id, from_number, body from inbound_texts where customer_id = ${customer.id}`);
    expect(stored).toEqual({ kind: 'stop', customer_id: customer.id, from_number: customer.number, body: 'Stop' });

    clock = await localInstant(addDays(visitDate, -1), '10:05');
    await run();
    const reminders = await rows<{ channel: string; status: string }>(sql`
      select channel, status from messages where work_order_id = ${workOrder.id} and type = 'appointment_reminder' order by channel`);
    expect(reminders).toEqual([
      { channel: 'email', status: 'sent' },
      { channel: 'sms', status: 'skipped' },
    ]);
    expect(provider.messages.filter((message) => message.to === customer.number)).toHaveLength(1);
    clock = await localInstant(today, '12:00');

    const started = await textIn(customer.number, 'start');
    await expectTwiml(started.response, `You're resubscribed to ${companyName} texts. Reply STOP to opt out, HELP for help.`);
    expect(await smsConsent(customer.id)).toMatchObject({ status: 'opted_in', source: 'reply' });
    const audit = await rows<{ actor_name: string; changes: unknown }>(sql`
      select actor_name, changes from audit_log where entity_id = ${customer.id} and action = 'message_consent_changed' order by occurred_at, id`);
    expect(audit.every((entry) => entry.actor_name === 'Customer (text reply)')).toBe(true);
    expect(audit.map((entry) => entry.changes)).toEqual([{ textMessages: ['opted_in', 'opted_out'] }, { textMessages: ['opted_out', 'opted_in'] }]);
    // Keywords change consent and answer; they are no staff notification.
    expect(await customerTextNotifications()).toEqual([]);
  });

  it('HELP answers with the company and its phone, and changes nothing', async () => {
    const customer = await newCustomer();
    const { response } = await textIn(customer.number, ' help ');
    await expectTwiml(response, `${companyName}: appointment texts. Call ${companyPhone} for help. Msg&data rates may apply. Reply STOP to opt out.`);
    expect(response.body).toContain('Msg&amp;data');
    expect(await smsConsent(customer.id)).toBeUndefined();
    expect(await customerTextNotifications()).toEqual([]);
  });
});

describe('replies about a visit, and other texts', () => {
  it('C confirms the soonest upcoming visit and notifies staff; the same text again changes nothing', async () => {
    const customer = await newCustomer({ name: 'Dana Whitfield' });
    const later = await scheduledWorkOrder(customer.id, addDays(today, 9), '08:00');
    const sooner = await scheduledWorkOrder(customer.id, addDays(today, 3), '13:00');
    // A visit earlier today that has ended is not upcoming.
    await scheduledWorkOrder(customer.id, today, '08:00');
    const notificationsBefore = (await customerTextNotifications()).length;

    const first = await textIn(customer.number, 'c');
    const reply = `Thanks, Dana! Your visit on ${formatAppointmentDate(addDays(today, 3))} (1:00 PM – 3:00 PM) is confirmed. — ${companyName}`;
    await expectTwiml(first.response, reply);
    expect(await confirmedAt(sooner.id)).toBe(clock.getTime());
    expect(await confirmedAt(later.id)).toBeNull();
    const notifications = (await customerTextNotifications()).slice(notificationsBefore);
    expect(notifications).toEqual([
      {
        title: 'Appointment confirmed by text',
        message: `Dana Whitfield confirmed their appointment ${sooner.number} by text`,
        data: { kind: 'confirm', from: customer.number, customer_id: customer.id, work_order_id: sooner.id, link: `/admin/workorders/${sooner.id}` },
      },
    ]);

    // The provider retries the same MessageSid: same answer, nothing changed again.
    const confirmed = await confirmedAt(sooner.id);
    clock = new Date(clock.getTime() + 60_000);
    const replay = await textIn(customer.number, 'c', { params: first.params });
    await expectTwiml(replay.response, reply);
    expect(await confirmedAt(sooner.id)).toBe(confirmed);
    expect((await customerTextNotifications()).slice(notificationsBefore)).toHaveLength(1);
    const [stored] = await rows<{ count: number | string }>(sql`select count(*) as count from inbound_texts where provider_id = ${first.params.MessageSid!}`);
    expect(Number(stored!.count)).toBe(1);

    // The confirmation is for that appointment: an edit of something else keeps it, a move clears it
    // (a trigger on work_orders, so every path that moves a visit does).
    await rows(sql`update work_orders set title = 'Tune-up and filter' where id = ${sooner.id}`);
    expect(await confirmedAt(sooner.id)).toBe(confirmed);
    await rows(sql`update work_orders set scheduled_start_time = '15:00', scheduled_end_time = '17:00' where id = ${sooner.id}`);
    expect(await confirmedAt(sooner.id)).toBeNull();
    clock = await localInstant(today, '12:00');
  });

  it('C without an upcoming visit says so and passes the text on to staff', async () => {
    const customer = await newCustomer();
    const before = (await customerTextNotifications()).length;
    const { response } = await textIn(customer.number, 'Confirm');
    await expectTwiml(response, `We couldn't find an upcoming visit for this number. Call ${companyPhone} and we'll help.`);
    const notifications = (await customerTextNotifications()).slice(before);
    expect(notifications.map((notification) => notification.message)).toEqual([`Text from ${customer.name}: Confirm`]);
    expect(notifications[0]!.data).toMatchObject({ customer_id: customer.id, link: `/admin/customers/${customer.id}` });
  });

  it('R asks staff to call about the visit', async () => {
    const customer = await newCustomer();
    const workOrder = await scheduledWorkOrder(customer.id, addDays(today, 4), '10:00');
    const before = (await customerTextNotifications()).length;
    const { response } = await textIn(customer.number, 'R');
    await expectTwiml(response, `Got it. We'll call you to find a new time. — ${companyName}`);
    expect((await customerTextNotifications()).slice(before)).toEqual([
      {
        title: 'Reschedule request by text',
        message: `${customer.name} asks to reschedule ${workOrder.number} by text: call them`,
        data: { kind: 'reschedule', from: customer.number, customer_id: customer.id, work_order_id: workOrder.id, link: `/admin/workorders/${workOrder.id}` },
      },
    ]);
    expect(await confirmedAt(workOrder.id)).toBeNull();
  });

  it('any other text becomes a notification with the text (at most 500 characters) and no reply', async () => {
    const customer = await newCustomer();
    const before = (await customerTextNotifications()).length;
    // The 500th character is an emoji (two UTF-16 units): it is kept whole, not cut in half.
    const start = 'Can you also look at the furnace? ';
    const long = `${start}${'x'.repeat(499 - start.length)}😀${'y'.repeat(100)}`;
    const { response } = await textIn(customer.number, long);
    await expectTwiml(response, '');
    const [notification] = (await customerTextNotifications()).slice(before);
    expect(notification!.title).toBe(`Text from ${customer.name}`);
    expect(notification!.message).toBe(`Text from ${customer.name}: ${start}${'x'.repeat(499 - start.length)}😀…`);
    const [stored] = await rows<{ kind: string; body: string }>(sql`select kind, body from inbound_texts where customer_id = ${customer.id}`);
    expect(stored).toEqual({ kind: 'other', body: long });
  });
});

describe('numbers', () => {
  it('a number shared by two customers: STOP opts both out, C confirms the one with the soonest visit', async () => {
    const parent = await newCustomer({ phone: '843-271-4100', texts: true, name: 'Pat Rivers' });
    const rental = await newCustomer({ phone: '+1 (843) 271 4100', texts: true, name: 'Sam Rivers' });
    const parentVisit = await scheduledWorkOrder(parent.id, addDays(today, 8), '10:00');
    const rentalVisit = await scheduledWorkOrder(rental.id, addDays(today, 2), '14:00');

    const stop = await textIn('+18432714100', 'STOP');
    expect(stop.response.statusCode).toBe(200);
    expect(await smsConsent(parent.id)).toMatchObject({ status: 'opted_out', source: 'reply' });
    expect(await smsConsent(rental.id)).toMatchObject({ status: 'opted_out', source: 'reply' });

    const confirm = await textIn('+18432714100', 'C');
    await expectTwiml(confirm.response, `Thanks, Sam! Your visit on ${formatAppointmentDate(addDays(today, 2))} (2:00 PM – 4:00 PM) is confirmed. — ${companyName}`);
    expect(await confirmedAt(rentalVisit.id)).toBe(clock.getTime());
    expect(await confirmedAt(parentVisit.id)).toBeNull();
    const [stored] = await rows<{ customer_id: string; work_order_id: string }>(sql`
      select customer_id, work_order_id from inbound_texts where provider_id = ${confirm.params.MessageSid!}`);
    expect(stored).toEqual({ customer_id: rental.id, work_order_id: rentalVisit.id });
  });

  it('an unknown number: keywords are still answered and kept; C, R and other texts notify with the number', async () => {
    const unknown = '+18435550142';
    const stop = await textIn(unknown, 'STOP');
    await expectTwiml(stop.response, `You're unsubscribed from ${companyName} texts. No more messages will be sent. Reply START to resubscribe.`);
    const [stored] = await rows<{ kind: string; customer_id: string | null }>(sql`
      select kind, customer_id from inbound_texts where provider_id = ${stop.params.MessageSid!}`);
    expect(stored).toEqual({ kind: 'stop', customer_id: null });

    const help = await textIn(unknown, 'HELP');
    await expectTwiml(help.response, `${companyName}: appointment texts. Call ${companyPhone} for help. Msg&data rates may apply. Reply STOP to opt out.`);

    const before = (await customerTextNotifications()).length;
    const confirm = await textIn(unknown, 'C');
    await expectTwiml(confirm.response, `We couldn't find an upcoming visit for this number. Call ${companyPhone} and we'll help.`);
    const reschedule = await textIn(unknown, 'R');
    await expectTwiml(reschedule.response, `Got it. We'll call you to find a new time. — ${companyName}`);
    const other = await textIn(unknown, 'Is this the AC company? <script>');
    await expectTwiml(other.response, '');
    const notifications = (await customerTextNotifications()).slice(before);
    expect(notifications.map((notification) => notification.message)).toEqual([
      'Text from (843) 555-0142: C',
      'Text from (843) 555-0142: R',
      'Text from (843) 555-0142: Is this the AC company? <script>',
    ]);
    expect(notifications.every((notification) => notification.data.link === undefined && notification.data.from === unknown)).toBe(true);
  });
});

describe('texts out through the provider (the Twilio-compatible API on 127.0.0.1)', () => {
  /** The work order's confirmations by text, oldest first (its reminder is not due yet). */
  async function textMessagesOf(workOrderId: string) {
    return rows<{ type: string; status: string; attempts: number; last_error: string | null; send_at: Date | string; provider_id: string | null }>(sql`
      select type, status, attempts, last_error, send_at, provider_id from messages
       where work_order_id = ${workOrderId} and channel = 'sms' and type <> 'appointment_reminder' order by created_at, id`);
  }

  it('sends the confirmation as the provider expects it; a failing provider is retried with backoff until it answers', async () => {
    const customer = await newCustomer({ texts: true, name: 'Riley Retry' });
    provider.failNext(2, { status: 500, code: 20500, message: 'Internal Server Error' });
    const visit = await scheduledWorkOrder(customer.id, addDays(today, 4), '10:00');
    await run();
    let [confirmation] = await textMessagesOf(visit.id);
    expect(confirmation).toMatchObject({ type: 'appointment_confirmed', status: 'scheduled', attempts: 1 });
    expect(confirmation!.last_error).toContain('500');
    expect(provider.messages.filter((text) => text.to === customer.number)).toHaveLength(0);

    // Each retry waits its backoff: nothing goes before it, the next attempt after it.
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      await run();
      expect((await textMessagesOf(visit.id))[0]!.attempts).toBe(attempt);
      clock = new Date(new Date((await textMessagesOf(visit.id))[0]!.send_at).getTime() + 1_000);
      await run();
    }
    [confirmation] = await textMessagesOf(visit.id);
    expect(confirmation).toMatchObject({ status: 'sent', attempts: 3 });
    const delivered = provider.messages.filter((text) => text.to === customer.number);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.sid).toBe(confirmation!.provider_id);
    expect(delivered[0]!.body).toContain(formatAppointmentDate(addDays(today, 4)));
    expect(delivered[0]!.body).toMatch(/Reply STOP to opt out\.$/);
    clock = await localInstant(today, '12:00');
  });

  it('a number the provider says cannot take texts is marked, and never tried again', async () => {
    const customer = await newCustomer({ texts: true, name: 'Lana Landline' });
    provider.failNext(1, { status: 400, code: 21614, message: "'To' number is not a valid mobile number" });
    const visit = await scheduledWorkOrder(customer.id, addDays(today, 5), '10:00');
    await run();
    const [confirmation] = await textMessagesOf(visit.id);
    expect(confirmation).toMatchObject({ status: 'failed', attempts: 1 });
    const [consent] = await rows<{ undeliverable_number: string | null }>(sql`
      select undeliverable_number from customer_message_consents where customer_id = ${customer.id} and channel = 'sms'`);
    expect(consent!.undeliverable_number).toBe(customer.number);

    // Moved: a new confirmation is due, but not by text to that number.
    const requestsBefore = provider.requests.length;
    await rows(sql`update work_orders set scheduled_start_time = '13:00', scheduled_end_time = '15:00' where id = ${visit.id}`);
    await run();
    expect(provider.requests.length).toBe(requestsBefore);
    expect((await textMessagesOf(visit.id)).filter((message) => message.status === 'sent')).toHaveLength(0);
  });
});
