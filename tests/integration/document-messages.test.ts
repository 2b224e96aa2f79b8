import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTwilioSender } from '#server/adapters/sms/twilio-sender.ts';
import { withTransaction, type DatabaseHandle } from '#server/db/client.ts';
import { customerMessageConsents, customers, invoices } from '#server/db/schema/index.ts';
import { createDocumentLinkRepository } from '#server/modules/document-links/document-links.repository.ts';
import { createDocumentLinkService } from '#server/modules/document-links/index.ts';
import { createEmailOutbox } from '#server/modules/email/email-outbox.ts';
import { createMessagingRepository, linkNotKept, queueDocumentMessages } from '#server/modules/messaging/index.ts';
import { createDispatcher } from '#server/modules/messaging/messaging.dispatcher.ts';
import { companyEnvSchema, companyProfileFrom } from '#shared/company.ts';
import { startFakeSmsServer, type FakeSmsServer } from '#tests/support/fake-sms-server.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';

// Quotes and invoices sent through the messaging layer (issue 20): the dispatcher makes a customer
// link per send; the link goes out by e-mail (an outbox copy that carries a secret) and text, and
// is never kept in the message history; a document no longer sendable cancels its message.

const company = companyProfileFrom(companyEnvSchema.parse({ COMPANY_SITE_URL: 'https://comfort.example' }));
const log = pino({ level: 'silent' });
let database: DatabaseHandle;
let smsServer: FakeSmsServer;
const now = new Date('2026-11-27T15:00:00Z'); // 10:00 in Bluffton: not in the quiet hours

beforeAll(async () => {
  [database, smsServer] = await Promise.all([createTestDatabase(), startFakeSmsServer()]);
});
afterAll(async () => {
  await Promise.all([database?.close(), smsServer?.close()]);
});

function setUp() {
  const outbox = createEmailOutbox({ db: database.db, sender: { kind: 'file', send: () => Promise.reject(new Error('not started')), close: () => undefined }, from: company.email, log });
  const links = createDocumentLinkService({ repository: createDocumentLinkRepository(database.db), now: () => now });
  const dispatcher = createDispatcher({
    db: database.db,
    repository: createMessagingRepository,
    outbox: { enqueue: outbox.enqueue, kick: () => undefined },
    sms: createTwilioSender({ apiUrl: smsServer.url, accountSid: smsServer.accountSid, authToken: smsServer.authToken, from: '+18435550100', timeoutMs: 5_000 }),
    company,
    timeZone: company.timeZone,
    log,
    createDocumentLink: (executor, link) => links.create(executor, link),
  });
  return { dispatcher, links };
}

async function newInvoice(options: { texts: boolean; status?: 'sent' | 'void'; email?: string | null }) {
  const [customer] = await database.db
    .insert(customers)
    .values({ name: 'Dana Whitfield', phone: '(843) 271-4100', email: options.email === undefined ? 'dana@example.com' : options.email, address: '14 Marsh Hen Lane' })
    .returning({ id: customers.id });
  if (options.texts) await database.db.insert(customerMessageConsents).values({ customerId: customer!.id, channel: 'sms', status: 'opted_in', source: 'staff' });
  const count = await database.query<{ n: number }>('select count(*)::int as n from invoices');
  const [invoice] = await database.db
    .insert(invoices)
    .values({
      customerId: customer!.id,
      invoiceNumber: `INV-${String(count[0]!.n + 1).padStart(6, '0')}`,
      status: options.status ?? 'sent',
      voidReason: options.status === 'void' ? 'Entered twice' : null,
      issuedOn: '2026-11-27',
      dueOn: '2026-12-27',
      billingName: 'Dana Whitfield',
      totalCents: 128_400,
      subtotalCents: 120_000,
      taxCents: 8_400,
    })
    .returning({ id: invoices.id, number: invoices.invoiceNumber });
  return { customerId: customer!.id, invoiceId: invoice!.id, number: invoice!.number! };
}

async function claimAll() {
  return createMessagingRepository(database.db).claimDue(new Date(now.getTime() + 1_000), 100, 10);
}

describe('quote and invoice messages', () => {
  it('send the invoice link by e-mail and text, make one link per send, and keep no link in the history', async () => {
    const { customerId, invoiceId, number } = await newInvoice({ texts: true });
    const queued = await withTransaction(database.db, (tx) =>
      queueDocumentMessages(tx, { type: 'invoice_sent', documentType: 'invoice', documentId: invoiceId, customerId, sendKey: 'send-1', timeZone: company.timeZone, now }),
    );
    expect(queued).toEqual({ queued: ['email', 'sms'], skipped: [] });

    const { dispatcher, links } = setUp();
    const result = await dispatcher.dispatchBatch(await claimAll(), () => now, { concurrency: 1, isStopping: () => false });
    expect(result.outcomes).toEqual({ sent: 2 });

    const [email] = await database.query<{ text_body: string; subject: string; carries_secret: boolean; recipients: string[] }>(
      `select text_body, subject, carries_secret, recipients from outbound_emails where kind = 'message_invoice_sent'`,
    );
    expect(email!.subject).toBe(`Invoice ${number} from ${company.name}`);
    expect(email!.carries_secret).toBe(true);
    expect(email!.text_body).toContain('$1,284.00');
    expect(email!.text_body).toContain('Sunday, December 27');
    const emailLink = /https:\/\/comfort\.example\/invoice\/([A-Za-z0-9_-]{43})/.exec(email!.text_body);
    expect(emailLink).not.toBeNull();

    expect(smsServer.messages).toHaveLength(1);
    const textLink = /https:\/\/comfort\.example\/invoice\/([A-Za-z0-9_-]{43})/.exec(smsServer.messages[0]!.body);
    expect(textLink).not.toBeNull();
    expect(textLink![1]).not.toBe(emailLink![1]);

    // Both links open this invoice; the history shows the messages without them.
    const version = async () => 1;
    await expect(links.open(emailLink![1]!, 'invoice', version)).resolves.toMatchObject({ documentId: invoiceId });
    await expect(links.open(textLink![1]!, 'invoice', version)).resolves.toMatchObject({ documentId: invoiceId });
    const history = await database.query<{ channel: string; status: string; body: string }>(
      `select channel, status, body from messages where document_id = $1 order by channel`,
      [invoiceId],
    );
    expect(history.map((row) => [row.channel, row.status])).toEqual([
      ['email', 'sent'],
      ['sms', 'sent'],
    ]);
    for (const row of history) {
      expect(row.body).toContain(linkNotKept);
      expect(row.body).not.toContain(emailLink![1]);
      expect(row.body).not.toContain(textLink![1]);
    }

    // The same send key again queues nothing more.
    const again = await withTransaction(database.db, (tx) =>
      queueDocumentMessages(tx, { type: 'invoice_sent', documentType: 'invoice', documentId: invoiceId, customerId, sendKey: 'send-1', timeZone: company.timeZone, now }),
    );
    expect(again.queued).toEqual(['email', 'sms']);
    expect(await claimAll()).toEqual([]);
  });

  it('say why a channel is not used, and cancel the message of a document voided before it went out', async () => {
    const { customerId, invoiceId } = await newInvoice({ texts: false, email: null });
    const none = await withTransaction(database.db, (tx) =>
      queueDocumentMessages(tx, { type: 'invoice_sent', documentType: 'invoice', documentId: invoiceId, customerId, sendKey: 'a', timeZone: company.timeZone, now }),
    );
    expect(none).toEqual({
      queued: [],
      skipped: [
        { channel: 'email', reason: 'the customer has no e-mail address' },
        { channel: 'sms', reason: 'the customer has not agreed to texts' },
      ],
    });

    const voided = await newInvoice({ texts: false });
    await withTransaction(database.db, (tx) =>
      queueDocumentMessages(tx, { type: 'invoice_overdue', documentType: 'invoice', documentId: voided.invoiceId, customerId: voided.customerId, sendKey: 'b', timeZone: company.timeZone, now }),
    );
    await database.db.execute(sql`update invoices set status = 'void', void_reason = 'Entered twice' where id = ${voided.invoiceId}::uuid`);
    const linksBefore = await database.query<{ n: number }>('select count(*)::int as n from document_links');
    const { dispatcher } = setUp();
    const result = await dispatcher.dispatchBatch(await claimAll(), () => now, { concurrency: 1, isStopping: () => false });
    expect(result.outcomes).toEqual({ cancelled: 1 });
    const [row] = await database.query<{ status: string; last_error: string }>('select status, last_error from messages where document_id = $1', [voided.invoiceId]);
    expect(row).toEqual({ status: 'cancelled', last_error: 'the invoice is no longer open' });
    const linksAfter = await database.query<{ n: number }>('select count(*)::int as n from document_links');
    expect(linksAfter[0]!.n).toBe(linksBefore[0]!.n);
  });
});

describe('overdue invoice reminders', () => {
  it('queue one reminder per step of the schedule, only the latest step for one found late, none for a paid one', async () => {
    const { planOverdueReminders } = await import('#server/modules/messaging/messaging.overdue.ts');
    const late = await newInvoice({ texts: false });
    const paid = await newInvoice({ texts: false });
    const notYet = await newInvoice({ texts: false });
    // Due 2026-11-01: on 2026-11-27 the 7- and 14-day steps have passed, not the 30-day one.
    await database.db.execute(sql`update invoices set due_on = '2026-11-01' where id in (${late.invoiceId}::uuid, ${paid.invoiceId}::uuid)`);
    await database.db.execute(sql`update invoices set paid_cents = total_cents, status = 'paid' where id = ${paid.invoiceId}::uuid`);
    await database.db.execute(sql`update invoices set due_on = '2026-11-25' where id = ${notYet.invoiceId}::uuid`);
    const reminders = async (id: string) =>
      database.query<{ type: string; dedupe_key: string }>(`select type, dedupe_key from messages where document_id = $1 and type = 'invoice_overdue' order by created_at`, [id]);

    expect(await planOverdueReminders(database.db, { timeZone: company.timeZone, now })).toBe(1);
    expect(await reminders(late.invoiceId)).toEqual([{ type: 'invoice_overdue', dedupe_key: `invoice_overdue:${late.invoiceId}:overdue-2:email` }]);
    expect(await reminders(paid.invoiceId)).toEqual([]);
    expect(await reminders(notYet.invoiceId)).toEqual([]);
    // Again the same day: nothing more.
    expect(await planOverdueReminders(database.db, { timeZone: company.timeZone, now })).toBe(0);
    // Thirty days past due: the last step.
    const later = new Date('2026-12-01T15:00:00Z');
    expect(await planOverdueReminders(database.db, { timeZone: company.timeZone, now: later })).toBe(1);
    expect((await reminders(late.invoiceId)).map((row) => row.dedupe_key)).toEqual([
      `invoice_overdue:${late.invoiceId}:overdue-2:email`,
      `invoice_overdue:${late.invoiceId}:overdue-3:email`,
    ]);
    expect(await reminders(notYet.invoiceId)).toEqual([]);
    // Seven days past its due date (company time) the other one gets its first.
    expect(await planOverdueReminders(database.db, { timeZone: company.timeZone, now: new Date('2026-12-02T05:30:00Z') })).toBe(1);
    expect(await reminders(notYet.invoiceId)).toHaveLength(1);

    // Turned off in the billing settings: nothing.
    await database.db.execute(sql`insert into billing_settings (id, reminders_enabled) values (1, false)`);
    expect(await planOverdueReminders(database.db, { timeZone: company.timeZone, now: new Date('2027-01-30T15:00:00Z') })).toBe(0);
  });
});
