import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmsMessage, SmsSender } from '#server/adapters/sms/sms-sender.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { customerMessageConsents, customers } from '#server/db/schema/index.ts';
import { createEmailOutbox } from '#server/modules/email/email-outbox.ts';
import { createMessagingRepository } from '#server/modules/messaging/index.ts';
import { createDispatcher, messageLeaseMinutes } from '#server/modules/messaging/messaging.dispatcher.ts';
import { companyEnvSchema, companyProfileFrom } from '#shared/company.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';

/**
 * A claimed batch sent at once (decision 021-b): its e-mails go into the outbox in one transaction
 * that marks them sent, and a message whose claim another sender took meanwhile gets no e-mail;
 * texts go through the sender; a closing sender starts nothing and gives the batch back.
 */

const company = companyProfileFrom(companyEnvSchema.parse({}));
const log = pino({ level: 'silent' });
const settings = { reminderLeadHours: 24, quietStart: '21:00', quietEnd: '08:00' };
let database: DatabaseHandle;

class RecordingSmsSender implements SmsSender {
  readonly kind = 'api' as const;
  readonly sent: SmsMessage[] = [];
  async send(message: SmsMessage) {
    this.sent.push(message);
    return { providerId: `SM${String(this.sent.length).padStart(32, '0')}` };
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

async function newCustomer(index: number, options: { email: boolean; texts: boolean }): Promise<string> {
  const [row] = await database.db
    .insert(customers)
    .values({ name: `Casey${index} Marsh`, phone: `(843) 271-${3000 + index}`, email: options.email ? `casey${index}@example.com` : null, address: `${index} Oyster Way` })
    .returning({ id: customers.id });
  if (options.texts) await database.db.insert(customerMessageConsents).values({ customerId: row!.id, channel: 'sms', status: 'opted_in', source: 'form' });
  return row!.id;
}

function setUp(sms: SmsSender) {
  const outbox = createEmailOutbox({ db: database.db, sender: { kind: 'file', send: () => Promise.reject(new Error('not started')), close: () => undefined }, from: company.email, log });
  const kicks: number[] = [];
  const dispatcher = createDispatcher({
    db: database.db,
    repository: createMessagingRepository,
    outbox: { enqueue: outbox.enqueue, kick: () => void kicks.push(Date.now()) },
    sms,
    company,
    timeZone: company.timeZone,
    log,
  });
  return { dispatcher, kicks };
}

async function insertDue(rows: { key: string; customerId: string; channel: 'email' | 'sms'; recipient: string }[], now: Date): Promise<string[]> {
  return createMessagingRepository(database.db).insertMessages(
    rows.map((row) => ({
      type: 'visit_completed' as const,
      channel: row.channel,
      customerId: row.customerId,
      workOrderId: null,
      recipient: row.recipient,
      dedupeKey: row.key,
      appointmentVersion: null,
      sendAt: new Date(now.getTime() - 60_000),
      respectsQuietHours: false,
    })),
    settings,
    company.timeZone,
    now,
  );
}

type Row = { id: string; dedupe_key: string; status: string; email_id: string | null; provider_id: string | null; attempts: number };
async function messages(keys: string[]): Promise<Row[]> {
  const result = await database.db.execute<Row>(
    sql`select id, dedupe_key, status, email_id, provider_id, attempts from messages where dedupe_key in (${sql.join(keys.map((key) => sql`${key}`), sql`, `)}) order by dedupe_key`,
  );
  return result.rows;
}

describe('a claimed batch', () => {
  it('queues its e-mails in one transaction, none for a message another sender took, and sends its texts', async () => {
    const now = new Date('2026-03-02T15:00:00Z');
    const [first, second, third] = [await newCustomer(1, { email: true, texts: false }), await newCustomer(2, { email: true, texts: false }), await newCustomer(3, { email: false, texts: true })];
    const keys = ['batch-a', 'batch-b', 'batch-c'];
    await insertDue(
      [
        { key: keys[0]!, customerId: first, channel: 'email', recipient: 'casey1@example.com' },
        { key: keys[1]!, customerId: second, channel: 'email', recipient: 'casey2@example.com' },
        { key: keys[2]!, customerId: third, channel: 'sms', recipient: '+18432713003' },
      ],
      now,
    );
    const repository = createMessagingRepository(database.db);
    const claimed = await repository.claimDue(now, 10, messageLeaseMinutes);
    expect(claimed).toHaveLength(3);
    // Another sender took the first e-mail after this one's lease ran out (its own, later claim).
    const [taken] = await messages([keys[0]!]);
    await database.db.execute(sql`update messages set claimed_until = claimed_until + interval '1 minute' where id = ${taken!.id}::uuid`);

    const sms = new RecordingSmsSender();
    const { dispatcher, kicks } = setUp(sms);
    const result = await dispatcher.dispatchBatch(claimed, () => now, { concurrency: 2, isStopping: () => false });

    expect(result).toEqual({ outcomes: { sent: 2, lost: 1 }, unstarted: [] });
    const [a, b, c] = await messages(keys);
    expect(a).toMatchObject({ status: 'sending', email_id: null, attempts: 0 });
    expect(b).toMatchObject({ status: 'sent', attempts: 1 });
    expect(c).toMatchObject({ status: 'sent', provider_id: 'SM00000000000000000000000000000001', attempts: 1 });
    const emails = await database.db.execute<{ id: string; recipients: string[]; related_id: string; kind: string }>(
      sql`select id, recipients, related_id, kind from outbound_emails where related_id in (${a!.id}::uuid, ${b!.id}::uuid)`,
    );
    expect(emails.rows).toEqual([{ id: b!.email_id, recipients: ['casey2@example.com'], related_id: b!.id, kind: 'message_visit_completed' }]);
    expect(sms.sent).toEqual([{ to: '+18432713003', body: expect.stringContaining(company.name) as string }]);
    expect(kicks).toHaveLength(1);
  });

  it('a closing sender starts nothing and lists the whole batch as not started', async () => {
    const now = new Date('2026-03-03T15:00:00Z');
    const customerId = await newCustomer(4, { email: true, texts: true });
    const keys = ['closing-email', 'closing-sms'];
    await insertDue(
      [
        { key: keys[0]!, customerId, channel: 'email', recipient: 'casey4@example.com' },
        { key: keys[1]!, customerId, channel: 'sms', recipient: '+18432713004' },
      ],
      now,
    );
    const claimed = await createMessagingRepository(database.db).claimDue(now, 10, messageLeaseMinutes);
    expect(claimed).toHaveLength(2);
    const sms = new RecordingSmsSender();
    const { dispatcher, kicks } = setUp(sms);

    const result = await dispatcher.dispatchBatch(claimed, () => now, { concurrency: 1, isStopping: () => true });

    expect(result.outcomes).toEqual({});
    expect(result.unstarted.sort()).toEqual(claimed.map((message) => message.id).sort());
    expect((await messages(keys)).map((row) => [row.dedupe_key, row.status, row.email_id])).toEqual([
      ['closing-email', 'sending', null],
      ['closing-sms', 'sending', null],
    ]);
    expect(sms.sent).toEqual([]);
    expect(kicks).toEqual([]);
  });
});
