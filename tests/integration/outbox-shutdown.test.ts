import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSmtpSender } from '#server/adapters/email/email-sender.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { createEmailOutbox, outcomeUnknownError } from '#server/modules/email/email-outbox.ts';
import { startTestSmtpServer } from '#tests/support/smtp-server.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';

// Issue 15 (should fix): at shutdown the SMTP socket timeout (20 s) outlived the forced exit
// (10 s): the close waited on a mail server that had the message but had not confirmed it, the
// process died with the row still claimed, and after the lease the message was sent again.
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
let database: DatabaseHandle;
const log = pino({ level: 'silent' });

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  database = await createTestDatabase();
});
afterAll(async () => {
  smtp.release();
  await database.close();
  await smtp.close();
});

describe('closing mid-send', () => {
  it('the close does not wait on an unconfirmed send past its bound, and the message is not delivered a second time after the restart', async () => {
    await database.query(`insert into outbound_emails (recipients, subject, text_body) values ('{once@example.com}', 'only once', 'hello')`);
    smtp.hold();
    const first = createEmailOutbox({ db: database.db, sender: createSmtpSender(smtp.url), from: 'office@example.com', log, drainMs: 300 });
    first.kick();
    // The mail server has the whole message and holds its answer.
    await vi.waitFor(() => expect(smtp.received.filter((mail) => mail.subject === 'only once')).toHaveLength(1), { timeout: 10_000 });

    let isClosed = false;
    const closing = first.stop().then(() => (isClosed = true));
    // The close ends within its bound although the server still has not answered.
    await vi.waitFor(() => expect(isClosed).toBe(true), { timeout: 3_000 });
    await closing;
    const [row] = await database.query<{ status: string; last_error: string | null }>(`select status, last_error from outbound_emails where subject = 'only once'`);
    expect(row).toEqual({ status: 'failed', last_error: outcomeUnknownError });

    // The process is gone; the server answers late. A new process, after any lease, sends nothing again.
    smtp.release();
    await database.query(`update outbound_emails set next_attempt_at = now() where status = 'pending'`);
    const second = createEmailOutbox({ db: database.db, sender: createSmtpSender(smtp.url), from: 'office@example.com', log });
    await second.deliverDue();
    await second.stop();
    expect(smtp.received.filter((mail) => mail.subject === 'only once')).toHaveLength(1);
  });

  it('messages claimed but not started when the close begins go back to the queue at once', async () => {
    await database.query(`insert into outbound_emails (recipients, subject, text_body) select '{many@example.com}', 'batch ' || n, 'hi' from generate_series(1, 3) n`);
    smtp.hold();
    const outbox = createEmailOutbox({ db: database.db, sender: createSmtpSender(smtp.url), from: 'office@example.com', log, drainMs: 5_000 });
    outbox.kick();
    await vi.waitFor(() => expect(smtp.received.filter((mail) => mail.subject.startsWith('batch'))).toHaveLength(1), { timeout: 10_000 });
    const closing = outbox.stop();
    smtp.release();
    await closing;
    await outbox.idle();
    const rows = await database.query<{ status: string; due: boolean }>(
      `select status, next_attempt_at <= now() as due from outbound_emails where subject like 'batch %' order by status`,
    );
    expect(rows.filter((row) => row.status === 'sent')).toHaveLength(1);
    expect(rows.filter((row) => row.status === 'pending' && row.due)).toHaveLength(2);
    expect(smtp.received.filter((mail) => mail.subject.startsWith('batch'))).toHaveLength(1);
  });
});
