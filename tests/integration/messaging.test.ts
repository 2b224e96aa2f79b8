import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SmsRejectedError, type SmsMessage, type SmsSender } from '#server/adapters/sms/sms-sender.ts';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { technicians } from '#server/db/schema/index.ts';
import { removedSecretBody, retryDelaysMinutes } from '#server/modules/email/index.ts';
import { createDocumentLinkService } from '#server/modules/document-links/index.ts';
import { createDocumentLinkRepository } from '#server/modules/document-links/document-links.repository.ts';
import { createMessagingRepository, createMessagingRunner } from '#server/modules/messaging/index.ts';
import { addDays, todayIn } from '#shared/dates.ts';
import { defaultMessageTemplates, smsOptOutSuffix } from '#shared/messaging.ts';
import { messagingFixtures } from '#tests/support/messaging.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

/**
 * Customer messaging end to end (issue 18, decision 021-a): work orders changed through the API,
 * the planner and the dispatcher run on a controlled clock, e-mails checked in the outbox table,
 * texts in a recording sender. The database is real (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */

/** A real SmsSender that records what it is given and can be told to fail. */
class RecordingSmsSender implements SmsSender {
  readonly kind = 'api' as const;
  readonly sent: SmsMessage[] = [];
  /** Errors to throw, in order, for texts to a number. */
  readonly failures = new Map<string, Error[]>();
  async send(message: SmsMessage) {
    const failure = this.failures.get(message.to)?.shift();
    if (failure) throw failure;
    this.sent.push(message);
    return { providerId: `SM${this.sent.length.toString().padStart(32, '0')}` };
  }
  to(number: string): SmsMessage[] {
    return this.sent.filter((message) => message.to === number);
  }
}

let context: TestContext;
let clock = new Date();
const sms = new RecordingSmsSender();
let cookie: string;
let cookieClock = 0;
let dispatcherCookie: string;
let technicianId: string;
let today: string;
let timeZone: string;

async function adminCookie(): Promise<string> {
  // Sessions follow the same clock: sign in again once it has moved.
  if (!cookie || cookieClock !== clock.getTime()) {
    cookie = await signIn(context.app);
    cookieClock = clock.getTime();
  }
  return cookie;
}

async function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, options: { cookie?: string | null } = {}) {
  const sessionCookie = options.cookie === null ? undefined : (options.cookie ?? (await adminCookie()));
  return context.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: sessionCookie ? { cookie: sessionCookie } : {},
  });
}

const db = () => context.database.db;

const { rows, localInstant, newCustomer, newWorkOrder: insertWorkOrder } = messagingFixtures({
  database: () => context.database,
  timeZone: () => timeZone,
  workOrderDefaults: () => ({ serviceDate: today, technicianId }),
});

async function newWorkOrder(customerId: string, title?: string): Promise<string> {
  return (await insertWorkOrder(customerId, title)).id;
}

async function updatedAtOf(id: string): Promise<string> {
  const [row] = await rows<{ updated_at: Date | string }>(sql`select updated_at from work_orders where id = ${id}`);
  return new Date(row!.updated_at).toISOString();
}

async function schedule(id: string, date: string, startTime: string, durationHours = 2): Promise<void> {
  const response = await api('POST', `/api/admin/work-orders/${id}/schedule`, { date, startTime, durationHours, technicianId, expectedUpdatedAt: await updatedAtOf(id) });
  expect(response.statusCode, response.body).toBe(200);
}

async function setStatus(id: string, status: string): Promise<void> {
  const response = await api('POST', `/api/admin/work-orders/${id}/status`, { status, expectedUpdatedAt: await updatedAtOf(id) });
  expect(response.statusCode, response.body).toBe(200);
}

type MessageRow = {
  id: string;
  type: string;
  channel: string;
  status: string;
  recipient: string;
  send_at: Date | string;
  attempts: number;
  last_error: string | null;
  email_id: string | null;
  provider_id: string | null;
  body: string | null;
  appointment_version: string | null;
};

async function messagesOf(workOrderId: string): Promise<MessageRow[]> {
  return rows<MessageRow>(sql`select * from messages where work_order_id = ${workOrderId} order by created_at, type, channel`);
}

/**
 * The work order's e-mails in the outbox. `text_body` is the outbox's copy, blanked once delivered
 * when it carries a one-time link (the visit link of confirmations and reschedules); `message_body`
 * is the message's kept text, without the link.
 */
async function emailsOf(workOrderId: string): Promise<{ recipients: string[]; subject: string; text_body: string; message_body: string; kind: string }[]> {
  return rows(sql`select e.recipients, e.subject, e.text_body, m.body as message_body, e.kind from outbound_emails e join messages m on m.email_id = e.id
                  where m.work_order_id = ${workOrderId} order by e.created_at, e.subject`);
}

/** A second connection pool on the test's PostgreSQL database (TEST_DATABASE_URL names its server). */
async function openSecondPool(): Promise<DatabaseHandle> {
  const [row] = await rows<{ name: string }>(sql`select current_database() as name`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${row!.name}`;
  return openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
}

async function run(): Promise<void> {
  await context.app.messaging.planPending();
  await context.app.messaging.dispatchDue();
}

const at = (value: Date | string) => new Date(value).getTime();

beforeAll(async () => {
  context = await createTestApp({ now: () => clock, smsSender: sms });
  timeZone = context.config.businessTimeZone;
  today = todayIn(timeZone);
  clock = await localInstant(today, '12:00');
  await createStaff(context.database);
  await createStaff(context.database, 'dispatch@example.com', undefined, 'dispatcher');
  dispatcherCookie = await signIn(context.app, 'dispatch@example.com');
  const [technician] = await db().insert(technicians).values({ name: 'Mike Johnson' }).returning({ id: technicians.id });
  technicianId = technician!.id;
});

afterAll(async () => {
  await context?.close();
});

describe('planning and sending from work-order changes', () => {
  it('a scheduled visit gets its confirmation e-mail in the outbox and a reminder planned 24 hours before', async () => {
    const customer = await newCustomer();
    const workOrder = await newWorkOrder(customer.id);
    const visitDate = addDays(today, 5);
    await schedule(workOrder, visitDate, '10:00');
    await run();

    const messages = await messagesOf(workOrder);
    expect(messages.map((message) => [message.type, message.channel, message.status])).toEqual([
      ['appointment_confirmed', 'email', 'sent'],
      ['appointment_reminder', 'email', 'scheduled'],
    ]);
    const reminder = messages.find((message) => message.type === 'appointment_reminder')!;
    expect(at(reminder.send_at)).toBe((await localInstant(addDays(visitDate, -1), '10:00')).getTime());
    expect(reminder.appointment_version).toBe(`${visitDate} 10:00-12:00`);

    const emails = await emailsOf(workOrder);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.recipients).toEqual([customer.email]);
    expect(emails[0]!.kind).toBe('message_appointment_confirmed');
    expect(messages[0]!.email_id).not.toBeNull();
    // The message keeps the text without its one-time visit link; the outbox's copy carries the
    // link and is blanked once delivered (decision 018-d).
    expect(messages[0]!.body).toContain('10:00 AM – 12:00 PM');
    expect(messages[0]!.body).toMatch(/^Hi Dana\d+,/);
    await context.app.emailOutbox.idle();
    expect((await emailsOf(workOrder))[0]!.text_body).toBe(removedSecretBody);

    // Nothing more on a second run; the reminder goes when it is due, once.
    await run();
    expect(await emailsOf(workOrder)).toHaveLength(1);
    clock = new Date(at(reminder.send_at) + 60_000);
    await run();
    await run();
    const after = await messagesOf(workOrder);
    expect(after.find((message) => message.type === 'appointment_reminder')!.status).toBe('sent');
    const sent = await emailsOf(workOrder);
    expect(sent.map((email) => email.kind).sort()).toEqual(['message_appointment_confirmed', 'message_appointment_reminder']);
    clock = await localInstant(today, '12:00');
  });

  it('a visit moved across its reminder time cancels the old reminder, plans the new one and says "rescheduled"', async () => {
    const customer = await newCustomer();
    const workOrder = await newWorkOrder(customer.id);
    await schedule(workOrder, addDays(today, 5), '10:00');
    await run();
    // The day before the old reminder: the visit moves two days later.
    clock = await localInstant(addDays(today, 4), '09:00');
    await schedule(workOrder, addDays(today, 7), '14:00', 3);
    await run();

    const messages = await messagesOf(workOrder);
    const reminders = messages.filter((message) => message.type === 'appointment_reminder');
    expect(reminders.map((message) => [message.appointment_version, message.status])).toEqual([
      [`${addDays(today, 5)} 10:00-12:00`, 'cancelled'],
      [`${addDays(today, 7)} 14:00-17:00`, 'scheduled'],
    ]);
    expect(at(reminders[1]!.send_at)).toBe((await localInstant(addDays(today, 6), '14:00')).getTime());
    const emails = await emailsOf(workOrder);
    expect(emails.map((email) => email.kind)).toEqual(['message_appointment_confirmed', 'message_appointment_rescheduled']);
    expect(emails[1]!.message_body).toContain('2:00 PM – 5:00 PM');

    // Past the old reminder's time: nothing goes for the old visit.
    clock = await localInstant(addDays(today, 4), '10:30');
    await run();
    expect(await emailsOf(workOrder)).toHaveLength(2);

    // Moved to within the lead time: no reminder is planned in the past.
    await schedule(workOrder, addDays(today, 4), '16:00');
    await run();
    const last = await messagesOf(workOrder);
    expect(last.filter((message) => message.type === 'appointment_reminder' && message.status === 'scheduled')).toEqual([]);
    expect((await emailsOf(workOrder)).map((email) => email.kind).at(-1)).toBe('message_appointment_rescheduled');
    clock = await localInstant(today, '12:00');
  });

  it('a cancelled visit sends "cancelled" once and no reminder', async () => {
    const customer = await newCustomer();
    const workOrder = await newWorkOrder(customer.id);
    await schedule(workOrder, addDays(today, 3), '09:00');
    await run();
    clock = new Date(clock.getTime() + 3_600_000);
    await setStatus(workOrder, 'cancelled');
    await run();
    await run();
    clock = await localInstant(addDays(today, 3), '08:00');
    await run();
    const messages = await messagesOf(workOrder);
    expect(messages.map((message) => [message.type, message.status])).toEqual([
      ['appointment_confirmed', 'sent'],
      ['appointment_reminder', 'cancelled'],
      ['appointment_cancelled', 'sent'],
    ]);
    expect((await emailsOf(workOrder)).map((email) => email.kind)).toEqual(['message_appointment_confirmed', 'message_appointment_cancelled']);
    clock = await localInstant(today, '12:00');
  });

  it('a work order never told of a visit sends nothing when cancelled', async () => {
    const customer = await newCustomer();
    const workOrder = await newWorkOrder(customer.id);
    await setStatus(workOrder, 'cancelled');
    await run();
    expect(await messagesOf(workOrder)).toEqual([]);
  });

  it('texts go only with consent; a STOP (opt-out) after planning skips the reminder, e-mail still goes', async () => {
    const texting = await newCustomer({ texts: true });
    const workOrder = await newWorkOrder(texting.id);
    await schedule(workOrder, addDays(today, 5), '10:00');
    await run();
    expect(sms.to(texting.number)).toHaveLength(1);
    expect(sms.to(texting.number)[0]!.body).toContain('10:00 AM - 12:00 PM');
    expect(sms.to(texting.number)[0]!.body.endsWith(smsOptOutSuffix)).toBe(true);

    const response = await api('PUT', `/api/admin/customers/${texting.id}/consents/sms`, { status: 'opted_out' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().consent).toMatchObject({ channel: 'sms', status: 'opted_out', source: 'staff', isSending: false });

    clock = await localInstant(addDays(today, 4), '10:05');
    await run();
    const reminders = (await messagesOf(workOrder)).filter((message) => message.type === 'appointment_reminder');
    expect(reminders.map((message) => [message.channel, message.status])).toEqual([
      ['email', 'sent'],
      ['sms', 'skipped'],
    ]);
    expect(sms.to(texting.number)).toHaveLength(1);

    // Without a consent row: e-mail only.
    const silent = await newCustomer();
    const other = await newWorkOrder(silent.id);
    await schedule(other, addDays(today, 6), '10:00');
    await run();
    expect((await messagesOf(other)).every((message) => message.channel === 'email')).toBe(true);
    expect(sms.to(silent.number)).toEqual([]);
    clock = await localInstant(today, '12:00');
  });

  it('a text due in the quiet hours waits for their end (08:00 company time); e-mail does not', async () => {
    const customer = await newCustomer({ texts: true });
    const workOrder = await newWorkOrder(customer.id);
    clock = await localInstant(today, '22:30');
    await schedule(workOrder, addDays(today, 3), '13:00');
    await run();
    const confirmations = (await messagesOf(workOrder)).filter((message) => message.type === 'appointment_confirmed');
    const text = confirmations.find((message) => message.channel === 'sms')!;
    expect(text.status).toBe('scheduled');
    expect(at(text.send_at)).toBe((await localInstant(addDays(today, 1), '08:00')).getTime());
    expect(confirmations.find((message) => message.channel === 'email')!.status).toBe('sent');
    expect(sms.to(customer.number)).toEqual([]);

    clock = await localInstant(addDays(today, 1), '07:59');
    await run();
    expect(sms.to(customer.number)).toEqual([]);
    clock = await localInstant(addDays(today, 1), '08:00');
    await run();
    expect(sms.to(customer.number)).toHaveLength(1);
    clock = await localInstant(today, '12:00');
  });

  it('a failing SMS API is retried with the backoff, then the text ends failed with the error', async () => {
    const customer = await newCustomer({ texts: true, email: null });
    const workOrder = await newWorkOrder(customer.id);
    sms.failures.set(
      customer.number,
      [0, ...retryDelaysMinutes].map(() => new SmsRejectedError('503 from the provider', { httpStatus: 503, permanent: false, recipientUnreachable: false })),
    );
    await schedule(workOrder, addDays(today, 5), '10:00');
    await run();
    const confirmation = async () => (await messagesOf(workOrder)).find((message) => message.type === 'appointment_confirmed')!;
    expect(await confirmation()).toMatchObject({ status: 'scheduled', attempts: 1, last_error: '503 from the provider' });
    expect(at((await confirmation()).send_at)).toBe(clock.getTime() + retryDelaysMinutes[0] * 60_000);

    for (const [index, delay] of retryDelaysMinutes.entries()) {
      // Just before the retry is due: nothing is tried.
      clock = new Date(clock.getTime() + delay * 60_000 - 1000);
      await run();
      expect((await confirmation()).attempts).toBe(index + 1);
      clock = new Date(clock.getTime() + 1000);
      await run();
      expect((await confirmation()).attempts).toBe(index + 2);
    }
    expect(await confirmation()).toMatchObject({ status: 'failed', attempts: retryDelaysMinutes.length + 1, last_error: '503 from the provider' });
    expect(sms.failures.get(customer.number)).toEqual([]);
    expect(sms.to(customer.number)).toEqual([]);
    clock = await localInstant(today, '12:00');
  });

  it('a permanent refusal fails at once and marks the number undeliverable: no more texts are planned to it', async () => {
    const customer = await newCustomer({ texts: true });
    const workOrder = await newWorkOrder(customer.id);
    sms.failures.set(customer.number, [new SmsRejectedError('not a mobile number', { code: 21614, httpStatus: 400, permanent: true, recipientUnreachable: true })]);
    await schedule(workOrder, addDays(today, 5), '10:00');
    await run();
    const text = (await messagesOf(workOrder)).find((message) => message.channel === 'sms' && message.type === 'appointment_confirmed')!;
    expect(text).toMatchObject({ status: 'failed', attempts: 1, last_error: 'not a mobile number' });
    const [consent] = await rows<{ undeliverable_at: unknown; undeliverable_number: string }>(
      sql`select undeliverable_at, undeliverable_number from customer_message_consents where customer_id = ${customer.id} and channel = 'sms'`,
    );
    expect(consent!.undeliverable_at).not.toBeNull();
    expect(consent!.undeliverable_number).toBe(customer.number);

    await schedule(workOrder, addDays(today, 6), '10:00');
    await run();
    const texts = (await messagesOf(workOrder)).filter((message) => message.channel === 'sms');
    expect(texts.map((message) => message.type)).toEqual(['appointment_confirmed', 'appointment_reminder']);
    expect(texts[1]!.status).toBe('cancelled');
    const profile = await api('GET', `/api/admin/customers/${customer.id}/messaging`);
    expect(profile.json().consents.find((row: { channel: string }) => row.channel === 'sms')).toMatchObject({ isSending: false, undeliverableNumber: customer.number });
  });

  it('en route sends "on my way" with the technician\'s first name, once per mark, and is in the activity log', async () => {
    const customer = await newCustomer({ texts: true });
    const workOrder = await newWorkOrder(customer.id);
    await schedule(workOrder, today, '14:00');
    await run();
    // A dispatcher marks it for the technician.
    const response = await api('POST', `/api/admin/work-orders/${workOrder}/en-route`, undefined, { cookie: dispatcherCookie });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().workOrder.enRouteAt).toBe(clock.toISOString());
    await run();
    await run();
    const onMyWay = (await messagesOf(workOrder)).filter((message) => message.type === 'on_my_way');
    expect(onMyWay.map((message) => [message.channel, message.status])).toEqual([
      ['email', 'sent'],
      ['sms', 'sent'],
    ]);
    expect(sms.to(customer.number).at(-1)!.body).toContain('Mike is on the way');
    expect((await emailsOf(workOrder)).at(-1)!.subject).toBe('Mike is on the way');
    const [audit] = await rows<{ action: string }>(sql`select action from audit_log where entity_id = ${workOrder} and action = 'en_route'`);
    expect(audit).toBeDefined();
  });

  it('"on my way" marked in the quiet hours goes by e-mail; the text is not sent the next morning', async () => {
    const customer = await newCustomer({ texts: true });
    const workOrder = await newWorkOrder(customer.id);
    await schedule(workOrder, addDays(today, 1), '08:00');
    clock = await localInstant(today, '21:30');
    expect((await api('POST', `/api/admin/work-orders/${workOrder}/en-route`)).statusCode).toBe(200);
    await run();
    clock = await localInstant(addDays(today, 1), '08:00');
    await run();
    const onMyWay = (await messagesOf(workOrder)).filter((message) => message.type === 'on_my_way');
    expect(onMyWay.map((message) => [message.channel, message.status])).toEqual([
      ['email', 'sent'],
      ['sms', 'skipped'],
    ]);
    expect(sms.to(customer.number).some((message) => message.body.includes('on the way'))).toBe(false);
    clock = await localInstant(today, '12:00');
  });

  it('a completed visit sends "visit completed" once', async () => {
    const customer = await newCustomer();
    const workOrder = await newWorkOrder(customer.id, 'Replace capacitor');
    await db().execute(sql`update work_orders set notes = 'Replaced the run capacitor; cooling normally.' where id = ${workOrder}`);
    await schedule(workOrder, addDays(today, 2), '15:00');
    await run();
    await setStatus(workOrder, 'in-progress');
    await setStatus(workOrder, 'completed');
    await run();
    await run();
    const messages = await messagesOf(workOrder);
    expect(messages.filter((message) => message.type === 'visit_completed').map((message) => message.status)).toEqual(['sent']);
    // In progress then completed: the unsent reminder is moot.
    expect(messages.filter((message) => message.type === 'appointment_reminder').map((message) => message.status)).toEqual(['cancelled']);
    expect((await emailsOf(workOrder)).at(-1)!.text_body).toContain('Replaced the run capacitor; cooling normally.');
  });

  it('a send cut short by a crash (claimed, never finished) is sent once after the lease runs out', async () => {
    const customer = await newCustomer({ texts: true, email: null });
    const workOrder = await newWorkOrder(customer.id);
    await schedule(workOrder, addDays(today, 5), '10:00');
    await context.app.messaging.planPending();
    // Another instance claims the due text, then dies before sending it.
    const claimed = await createMessagingRepository(db()).claimDue(clock, 100, 10);
    expect(claimed.map((message) => message.workOrderId)).toContain(workOrder);
    await context.app.messaging.dispatchDue();
    expect(sms.to(customer.number)).toEqual([]);
    clock = new Date(clock.getTime() + 10 * 60_000);
    await context.app.messaging.dispatchDue();
    await context.app.messaging.dispatchDue();
    expect(sms.to(customer.number)).toHaveLength(1);
    const text = (await messagesOf(workOrder)).find((message) => message.type === 'appointment_confirmed')!;
    expect(text).toMatchObject({ status: 'sent', attempts: 1, provider_id: expect.stringMatching(/^SM/) });
    clock = await localInstant(today, '12:00');
  });

  it('a restart with reminders due sends them at start, once, with no change needed to wake it', async () => {
    const customer = await newCustomer({ texts: true });
    const workOrder = await newWorkOrder(customer.id);
    await schedule(workOrder, addDays(today, 5), '10:00');
    await run();
    const reminderAt = new Date((await messagesOf(workOrder)).find((message) => message.type === 'appointment_reminder')!.send_at);
    // The server is down while the reminder comes due; a new process starts an hour after it.
    clock = new Date(reminderAt.getTime() + 60 * 60_000);
    const restarted = createMessagingRunner({ db: db(), outbox: context.app.emailOutbox, sms, company: context.config.company, timeZone, log: context.app.log, now: () => clock });
    try {
      restarted.start(3_600_000);
      await restarted.idle();
      const reminders = (await messagesOf(workOrder)).filter((message) => message.type === 'appointment_reminder');
      expect(reminders.map((message) => [message.channel, message.status])).toEqual([
        ['email', 'sent'],
        ['sms', 'sent'],
      ]);
      expect(sms.to(customer.number).filter((text) => text.body.includes('Reply C to confirm'))).toHaveLength(1);
      // Running again sends nothing twice.
      restarted.kick();
      await restarted.idle();
      expect(sms.to(customer.number).filter((text) => text.body.includes('Reply C to confirm'))).toHaveLength(1);
    } finally {
      await restarted.stop();
      clock = await localInstant(today, '12:00');
    }
  });

  it('planners and senders running at once, and a second instance, send each message once', async () => {
    const batch = await Promise.all([0, 1, 2, 3, 4].map(() => newCustomer({ texts: true })));
    const orders = await Promise.all(batch.map((customer) => newWorkOrder(customer.id)));
    for (const order of orders) await schedule(order, addDays(today, 5), '11:00');
    // On PostgreSQL the second instance has its own pool on the same database, as another server
    // would; the embedded database has one connection, so there it shares the handle.
    const secondDatabase = context.database.kind === 'postgres' ? await openSecondPool() : undefined;
    const documentLinks = createDocumentLinkService({ repository: createDocumentLinkRepository((secondDatabase ?? context.database).db), now: () => clock });
    const second = createMessagingRunner({
      db: secondDatabase?.db ?? db(),
      outbox: context.app.emailOutbox,
      sms,
      company: context.config.company,
      timeZone,
      log: context.app.log,
      now: () => clock,
      // As app.ts gives it: the confirmations carry a visit link (issue 21), made when sent.
      createDocumentLink: (executor, link) => documentLinks.create(executor, link),
    });
    const first = context.app.messaging;
    await Promise.all([first.planPending(), second.planPending(), first.planPending(), second.planPending()]);
    await Promise.all([first.dispatchDue(), second.dispatchDue(), first.dispatchDue(), second.dispatchDue()]);
    for (const [index, order] of orders.entries()) {
      expect((await messagesOf(order)).map((message) => [message.type, message.channel, message.status])).toEqual([
        ['appointment_confirmed', 'email', 'sent'],
        ['appointment_confirmed', 'sms', 'sent'],
        ['appointment_reminder', 'email', 'scheduled'],
        ['appointment_reminder', 'sms', 'scheduled'],
      ]);
      expect(await emailsOf(order)).toHaveLength(1);
      expect(sms.to(batch[index]!.number)).toHaveLength(1);
    }
    await second.stop();
    await secondDatabase?.close();
  });
});

describe('the messaging routes', () => {
  it('answer 401 without a session', async () => {
    const id = randomUUID();
    for (const [method, url] of [
      ['POST', `/api/admin/work-orders/${id}/en-route`],
      ['GET', `/api/admin/work-orders/${id}/messages`],
      ['GET', `/api/admin/customers/${id}/messaging`],
      ['PUT', `/api/admin/customers/${id}/consents/sms`],
      ['POST', `/api/admin/messages/${id}/resend`],
      ['GET', '/api/admin/settings/message-templates'],
      ['GET', '/api/admin/settings/messaging'],
    ] as const) {
      const response = await api(method, url, method === 'PUT' ? { status: 'opted_in' } : undefined, { cookie: null });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('answer 404 for unknown ids, well-formed or not', async () => {
    for (const id of [randomUUID(), 'not-an-id']) {
      expect((await api('POST', `/api/admin/work-orders/${id}/en-route`)).statusCode).toBe(404);
      expect((await api('GET', `/api/admin/work-orders/${id}/messages`)).statusCode).toBe(404);
      expect((await api('GET', `/api/admin/customers/${id}/messaging`)).statusCode).toBe(404);
      expect((await api('PUT', `/api/admin/customers/${id}/consents/email`, { status: 'opted_out' })).statusCode).toBe(404);
      expect((await api('POST', `/api/admin/messages/${id}/resend`)).statusCode).toBe(404);
    }
  });

  it('show a work order\'s and a customer\'s history, and resend a message as a new one', async () => {
    const customer = await newCustomer();
    const workOrder = await newWorkOrder(customer.id);
    await schedule(workOrder, addDays(today, 4), '08:00');
    await run();
    const history = await api('GET', `/api/admin/work-orders/${workOrder}/messages`);
    expect(history.statusCode).toBe(200);
    const listed = history.json().messages as { id: string; type: string; status: string; body: string | null }[];
    expect(listed.map((message) => message.type).sort()).toEqual(['appointment_confirmed', 'appointment_reminder']);
    const confirmation = listed.find((message) => message.type === 'appointment_confirmed')!;
    expect(confirmation.body).toContain('8:00 AM – 10:00 AM');

    const scheduled = listed.find((message) => message.type === 'appointment_reminder')!;
    expect((await api('POST', `/api/admin/messages/${scheduled.id}/resend`)).statusCode).toBe(409);
    const resent = await api('POST', `/api/admin/messages/${confirmation.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(201);
    expect(resent.json().message).toMatchObject({ type: 'appointment_confirmed', status: 'scheduled' });
    await run();
    expect((await emailsOf(workOrder)).map((email) => email.kind)).toEqual(['message_appointment_confirmed', 'message_appointment_confirmed']);

    // The outbox gives up on the e-mail: the history says so.
    await db().execute(sql`update outbound_emails set status = 'failed', last_error = '550 mailbox unavailable'
                           where id = (select email_id from messages where id = ${confirmation.id})`);
    const failed = (await api('GET', `/api/admin/work-orders/${workOrder}/messages`)).json().messages.find((message: { id: string }) => message.id === confirmation.id);
    expect(failed).toMatchObject({ status: 'failed', lastError: '550 mailbox unavailable', sentAt: null });

    const profile = await api('GET', `/api/admin/customers/${customer.id}/messaging`);
    expect(profile.statusCode).toBe(200);
    expect(profile.json().consents).toEqual([
      expect.objectContaining({ channel: 'email', status: 'default', isSending: true }),
      expect.objectContaining({ channel: 'sms', status: 'default', isSending: false }),
    ]);
    expect(profile.json().messages).toHaveLength(3);
  });

  it('templates and settings: admins only, unknown variables refused, an edit used for the next message', async () => {
    expect((await api('GET', '/api/admin/settings/message-templates', undefined, { cookie: dispatcherCookie })).statusCode).toBe(403);
    const refused = await api('PUT', '/api/admin/settings/message-templates/appointment_confirmed', {
      subject: 'Booked', emailBody: 'Hi {{customer.nickname}}', smsBody: 'Booked - {{company.name}}',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('customer.nickname');

    const saved = await api('PUT', '/api/admin/settings/message-templates/appointment_confirmed', {
      subject: 'Booked for {{appointment.date}}', emailBody: 'Hello {{customer.firstName}}, booked: {{appointment.window}}.', smsBody: 'Booked - {{company.name}}',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().template).toMatchObject({ type: 'appointment_confirmed', isDefault: false });
    const list = await api('GET', '/api/admin/settings/message-templates');
    expect(list.json().templates).toHaveLength(10);

    const settings = await api('PUT', '/api/admin/settings/messaging', { reminderLeadHours: 48, quietStart: '20:00', quietEnd: '09:00' });
    expect(settings.statusCode, settings.body).toBe(200);
    expect((await api('GET', '/api/admin/settings/messaging')).json().settings).toEqual({ reminderLeadHours: 48, quietStart: '20:00', quietEnd: '09:00' });

    // "Send me a test": the edited, unsaved template with the sample values, to the admin.
    const edited = { subject: 'Soon: {{appointment.date}}', emailBody: 'Hi {{customer.firstName}}, {{technician.firstName}} comes {{appointment.window}}.', smsBody: 'See you {{appointment.date}}' };
    const test = await api('POST', '/api/admin/settings/message-templates/appointment_reminder/test', { ...edited, channel: 'email' });
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json()).toEqual({ channel: 'email', sentTo: 'staff@example.com', subject: '[Test] Soon: Tuesday, December 1' });
    const [testEmail] = await rows<{ recipients: string[]; text_body: string }>(sql`select recipients, text_body from outbound_emails where kind = 'message_test_appointment_reminder'`);
    expect(testEmail!.recipients).toEqual(['staff@example.com']);
    expect(testEmail!.text_body).toContain('Hi Dana, Mike comes 8:00 AM – 10:00 AM.');
    expect(testEmail!.text_body).toContain(`See you Tuesday, December 1${smsOptOutSuffix}`);
    expect((await api('POST', '/api/admin/settings/message-templates/appointment_reminder/test', { subject: 'x', emailBody: '{{nope}}', smsBody: 'y', channel: 'email' })).statusCode).toBe(400);
    expect(
      (await api('POST', '/api/admin/settings/message-templates/appointment_reminder/test', { subject: 'x', emailBody: 'y', smsBody: 'z', channel: 'email' }, { cookie: dispatcherCookie })).statusCode,
    ).toBe(403);

    // A test text goes straight to the number typed, normalised; a number that cannot take texts is a clear 400.
    const textTest = await api('POST', '/api/admin/settings/message-templates/appointment_reminder/test', { ...edited, channel: 'sms', to: '(843) 555-0199' });
    expect(textTest.statusCode, textTest.body).toBe(200);
    expect(textTest.json()).toMatchObject({ channel: 'sms', sentTo: '+18435550199' });
    expect(sms.to('+18435550199').map((text) => text.body)).toEqual([`See you Tuesday, December 1${smsOptOutSuffix}`]);
    const badNumber = await api('POST', '/api/admin/settings/message-templates/appointment_reminder/test', { ...edited, channel: 'sms', to: '12' });
    expect(badNumber.statusCode).toBe(400);
    expect(badNumber.json().error.details).toEqual([{ path: 'to', message: 'Enter a mobile number that can take texts, such as (843) 555-0142.' }]);
    // The provider refusing the test is the answer's error (502), with its reason.
    sms.failures.set('+18435550198', [new SmsRejectedError('the provider refused: not a mobile number', { code: 21614, permanent: true, recipientUnreachable: true })]);
    const refusedTest = await api('POST', '/api/admin/settings/message-templates/appointment_reminder/test', { ...edited, channel: 'sms', to: '843-555-0198' });
    expect(refusedTest.statusCode).toBe(502);
    expect(refusedTest.json().error.message).toContain('not a mobile number');

    // Restore default: the edit is removed (audited); the list shows the built-in template again.
    const reminderEdit = await api('PUT', '/api/admin/settings/message-templates/appointment_reminder', edited);
    expect(reminderEdit.json().template.isDefault).toBe(false);
    const restored = await api('DELETE', '/api/admin/settings/message-templates/appointment_reminder');
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().template).toMatchObject({ type: 'appointment_reminder', isDefault: true, subject: defaultMessageTemplates.appointment_reminder.subject });
    expect((await api('DELETE', '/api/admin/settings/message-templates/appointment_reminder', undefined, { cookie: dispatcherCookie })).statusCode).toBe(403);

    const customer = await newCustomer();
    const workOrder = await newWorkOrder(customer.id);
    await schedule(workOrder, addDays(today, 5), '10:00');
    await run();
    const emails = await emailsOf(workOrder);
    expect(emails[0]!.text_body).toMatch(/^Hello Dana\d+, booked: 10:00 AM – 12:00 PM\.$/);
    const reminder = (await messagesOf(workOrder)).find((message) => message.type === 'appointment_reminder')!;
    expect(at(reminder.send_at)).toBe((await localInstant(addDays(today, 3), '10:00')).getTime());
  });
});

describe('the running runner', () => {
  it('plans and sends on its own when a work order changes (the trigger, NOTIFY, the change feed, a kick)', async () => {
    const customer = await newCustomer();
    const workOrder = await newWorkOrder(customer.id);
    // Started with a sweep far away: only the change feed can start the next run.
    context.app.messaging.start(3_600_000);
    await context.app.messaging.idle();
    await schedule(workOrder, addDays(today, 5), '10:00');
    await expect.poll(async () => (await emailsOf(workOrder)).map((email) => email.kind), { timeout: 10_000, interval: 50 }).toEqual(['message_appointment_confirmed']);
    await context.app.messaging.stop();
  });

  it('a close lets the text in flight finish and gives back the claimed texts it did not start', async () => {
    const customer = await newCustomer({ texts: true, email: null });
    let release: () => void = () => undefined;
    const calls: SmsMessage[] = [];
    const blocking: SmsSender = {
      kind: 'api',
      send: (message) => {
        calls.push(message);
        return new Promise((resolve) => (release = () => resolve({ providerId: 'SM-blocked' })));
      },
    };
    const runner = createMessagingRunner({ db: db(), outbox: context.app.emailOutbox, sms: blocking, company: context.config.company, timeZone, log: context.app.log, now: () => clock });
    const ids = await createMessagingRepository(db()).insertMessages(
      ['first', 'second'].map((name) => ({
        type: 'visit_completed' as const,
        channel: 'sms' as const,
        customerId: customer.id,
        workOrderId: null,
        recipient: customer.number,
        dedupeKey: `drain-${name}`,
        appointmentVersion: null,
        sendAt: new Date(clock.getTime() - (name === 'first' ? 2 : 1) * 60_000),
        respectsQuietHours: false,
      })),
      { reminderLeadHours: 24, quietStart: '21:00', quietEnd: '08:00' },
      timeZone,
      clock,
    );
    runner.start(3_600_000);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const stopping = runner.stop();
    release();
    await stopping;
    const states = await rows<{ dedupe_key: string; status: string; claimed_until: unknown }>(
      sql`select dedupe_key, status, claimed_until from messages where id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)}) order by dedupe_key`,
    );
    expect(states).toEqual([
      { dedupe_key: 'drain-first', status: 'sent', claimed_until: null },
      { dedupe_key: 'drain-second', status: 'scheduled', claimed_until: null },
    ]);
    expect(calls).toHaveLength(1);
  });
});
