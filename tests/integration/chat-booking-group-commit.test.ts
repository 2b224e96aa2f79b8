/**
 * Chat bookings written together (group commit, decision 024-a): bookings that arrive while one is
 * being written share the next transaction. These tests drive the chat service on a real database
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL) and start several bookings in one tick, so the
 * first is written alone and the others arrive while it is: the group they form is certain, not a
 * matter of timing.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatBookingSchema, chatMessages, type ChatBookingInput } from '#shared/chat.ts';
import { todayIn } from '#shared/dates.ts';
import { createChatResponder } from '#server/adapters/chat/index.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { createChatService, type ChatService } from '#server/modules/chat/chat.service.ts';
import { createCustomerRepository } from '#server/modules/customers/customer.repository.ts';
import { testConfig } from '#tests/support/test-app.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';

const config = testConfig();
let database: DatabaseHandle;
let chat: ChatService;
const logLines: { msg: string; size?: number }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(JSON.parse(chunk.toString('utf8')) as { msg: string; size?: number });
        done();
      },
    }),
  );
  chat = createChatService({
    db: database.db,
    ...createChatResponder(config, log),
    company: config.company,
    timeZone: config.businessTimeZone,
    log,
    customerRepository: createCustomerRepository,
  });
});
afterAll(() => database.close());

let nextVisitor = 100;
/** A booking as the route passes it (parsed by the shared schema), from a visitor nobody has seen. */
function visitor(overrides: Partial<ChatBookingInput> = {}) {
  nextVisitor += 1;
  return chatBookingSchema(todayIn(config.businessTimeZone)).parse({
    sessionId: `group-session-${nextVisitor}`,
    name: `Visitor ${nextVisitor}`,
    phone: `843-555-${String(nextVisitor).padStart(4, '0')}`,
    email: `visitor.${nextVisitor}@example.com`,
    address: `${nextVisitor} Marsh Rd, Bluffton, SC 29910`,
    serviceType: 'repair',
    description: 'The heat pump blows cold air',
    ...overrides,
  });
}

const settle = <T>(promise: Promise<T>) => promise.then((value) => ({ value }), (error: Error) => ({ error }));

type StoredBooking = { work_order_id: string; customer_id: string; created_at: string; possible_customer_id: string | null };
async function stored(workOrderNumber: string): Promise<StoredBooking> {
  const [row] = await database.query<StoredBooking>(
    `select id as work_order_id, customer_id, created_at::text as created_at, possible_customer_id from work_orders where work_order_number = $1`,
    [workOrderNumber],
  );
  if (!row) throw new Error(`no work order ${workOrderNumber}`);
  return row;
}

/** Every row one booking writes, for its work order: customer, lead, conversation, notification, three audit entries. */
async function rowsOf(workOrderNumber: string) {
  const { work_order_id: workOrderId, customer_id: customerId } = await stored(workOrderNumber);
  const [counts] = await database.query<Record<string, number>>(
    `select
       (select count(*)::int from customers where id = $1::uuid) as customers,
       (select count(*)::int from ai_leads where work_order_id = $2::uuid and customer_id = $1::uuid) as leads,
       (select count(*)::int from ai_conversations where customer_id = $1 and intent = 'schedule_service' and ai_response like '%' || $3 || '%') as conversations,
       (select count(*)::int from admin_notifications where data->>'work_order_number' = $3 and data->>'customer_id' = $1::text) as notifications,
       (select count(*)::int from audit_log where entity_id in ($1::text, $2::text) or entity_id in (select id::text from ai_leads where work_order_id = $2)) as audits`,
    [customerId, workOrderId, workOrderNumber],
  );
  return counts;
}

const tables = ['customers', 'work_orders', 'ai_leads', 'ai_conversations', 'admin_notifications', 'audit_log'];
const countAll = async () =>
  Object.fromEntries(await Promise.all(tables.map(async (table) => [table, (await database.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n])));

describe('chat bookings written together', () => {
  it('bookings that arrive while one is written share the next transaction, each with all its own rows and its own number', async () => {
    const bookings = Array.from({ length: 6 }, () => visitor());
    const answers = await Promise.all(bookings.map((booking) => chat.book(booking, undefined)));
    expect(answers.every((answer) => !answer.isReplay)).toBe(true);
    const numbers = answers.map((answer) => answer.workOrderNumber);
    expect(new Set(numbers).size).toBe(6);
    for (const answer of answers) expect(answer.message).toBe(chatMessages.bookingSuccess(answer.workOrderNumber, config.company.phone));
    const rows = await Promise.all(numbers.map(stored));
    // The first was written alone; the five that arrived meanwhile in one transaction (one now()).
    expect(new Set(rows.slice(1).map((row) => row.created_at)).size).toBe(1);
    expect(rows[0]!.created_at).not.toBe(rows[1]!.created_at);
    for (const number of numbers) expect(await rowsOf(number)).toEqual({ customers: 1, leads: 1, conversations: 1, notifications: 1, audits: 3 });
    // Each booking is its own visitor's: the customer record carries what that visitor typed.
    for (const [index, row] of rows.entries()) {
      const [customer] = await database.query<{ name: string; phone: string }>('select name, phone from customers where id = $1', [row.customer_id]);
      expect(customer).toEqual({ name: bookings[index]!.name, phone: bookings[index]!.phone });
    }
  });

  it('a booking the database refuses in a group gets its own failure and leaves nothing; the others of its group are all stored', async () => {
    await database.query(`
      create or replace function refuse_one_visitor() returns trigger language plpgsql as $$
      begin raise exception 'this visitor is refused'; end $$`);
    await database.query(
      `create trigger refuse_one_visitor before insert on customers for each row when (new.name = 'Refused Visitor') execute function refuse_one_visitor()`,
    );
    try {
      const before = await countAll();
      logLines.length = 0;
      const bookings = [visitor(), visitor(), visitor(), visitor({ name: 'Refused Visitor', address: '13 Refused Ct, Bluffton' }), visitor(), visitor()];
      const results = await Promise.all(bookings.map((booking) => settle(chat.book(booking, undefined))));

      const refused = results[3]!;
      expect('error' in refused && refused.error.message).toBe(chatMessages.bookingFailure(config.company.phone));
      const booked = results.filter((result) => 'value' in result).map((result) => result.value.workOrderNumber);
      expect(booked).toHaveLength(5);
      for (const number of booked) expect(await rowsOf(number)).toEqual({ customers: 1, leads: 1, conversations: 1, notifications: 1, audits: 3 });
      // Exactly five bookings' rows were added: nothing of the refused one, nothing twice.
      const after = await countAll();
      expect(after).toEqual({
        customers: before.customers + 5,
        work_orders: before.work_orders + 5,
        ai_leads: before.ai_leads + 5,
        ai_conversations: before.ai_conversations + 5,
        admin_notifications: before.admin_notifications + 5,
        audit_log: before.audit_log + 15,
      });
      const leftovers = await database.query(
        `select 1 from ai_conversations where user_message like '%13 Refused Ct%'
         union all select 1 from admin_notifications where message like 'Refused Visitor%'
         union all select 1 from audit_log where entity_label = 'Refused Visitor'
         union all select 1 from work_orders where service_address = '13 Refused Ct, Bluffton'`,
      );
      expect(leftovers).toEqual([]);
      // The refused booking was written in a group with the four after the first, which failed
      // together and were then written one by one.
      expect(logLines.filter((line) => line.msg.startsWith('a group of chat bookings failed together'))).toEqual([
        expect.objectContaining({ size: 5 }),
      ]);
    } finally {
      await database.query('drop trigger refuse_one_visitor on customers');
      await database.query('drop function refuse_one_visitor()');
    }
  });

  it('in a group, a later booking with an earlier one\'s new contact has it as its possible match, as one after another would; a stored customer matching wins', async () => {
    const storedCustomer = visitor({ phone: '843-555-7001', email: 'returning@example.com' });
    const { workOrderNumber: storedNumber } = await chat.book(storedCustomer, undefined);
    const { customer_id: storedCustomerId } = await stored(storedNumber);

    const starter = visitor();
    const first = visitor({ phone: '(843) 555-7002', email: null });
    const samePhone = visitor({ phone: '+1 843 555 7002', email: null });
    const sameEmailAsFirst = visitor({ phone: '843-555-7003', email: 'FIRST.7002@example.com' });
    const firstWithEmail = visitor({ phone: '843-555-7004', email: 'first.7002@example.com' });
    const alsoStored = visitor({ phone: '843-555-7002', email: 'Returning@Example.com' });
    const answers = await Promise.all([starter, first, samePhone, firstWithEmail, sameEmailAsFirst, alsoStored].map((booking) => chat.book(booking, undefined)));
    const [, firstRow, samePhoneRow, firstWithEmailRow, sameEmailRow, alsoStoredRow] = await Promise.all(answers.map((answer) => stored(answer.workOrderNumber)));
    // One group (one transaction) after the starter.
    expect(new Set([firstRow, samePhoneRow, firstWithEmailRow, sameEmailRow, alsoStoredRow].map((row) => row!.created_at)).size).toBe(1);

    expect(firstRow!.possible_customer_id).toBeNull();
    expect(samePhoneRow!.possible_customer_id).toBe(firstRow!.customer_id);
    expect(firstWithEmailRow!.possible_customer_id).toBeNull();
    expect(sameEmailRow!.possible_customer_id).toBe(firstWithEmailRow!.customer_id);
    // The stored customer matches by e-mail and is older than the group's first with that phone.
    expect(alsoStoredRow!.possible_customer_id).toBe(storedCustomerId);
    // The lead carries the same match as its work order.
    const [lead] = await database.query<{ possible_customer_id: string }>('select possible_customer_id from ai_leads where work_order_id = $1', [
      samePhoneRow!.work_order_id,
    ]);
    expect(lead!.possible_customer_id).toBe(firstRow!.customer_id);
  });

  it('one idempotency key twice among bookings written together books once; the other answers that booking as a replay', async () => {
    const key = 'group-commit-key-000001';
    const twice = visitor();
    const answers = await Promise.all([chat.book(visitor(), undefined), chat.book(twice, key), chat.book(twice, key), chat.book(visitor(), 'group-commit-key-000002')]);
    const [, one, other, unrelated] = answers;
    expect([one!.isReplay, other!.isReplay].sort()).toEqual([false, true]);
    expect(other!.workOrderNumber).toBe(one!.workOrderNumber);
    expect(unrelated!.isReplay).toBe(false);
    expect(await database.query('select 1 from work_orders where idempotency_key = $1', [key])).toHaveLength(1);
    expect(await rowsOf(one!.workOrderNumber)).toEqual({ customers: 1, leads: 1, conversations: 1, notifications: 1, audits: 3 });
  });
});
