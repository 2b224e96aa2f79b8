import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { EmailSender } from '#server/adapters/email/email-sender.ts';
import type { Database } from '#server/db/client.ts';
import { outboundEmails } from '#server/db/schema/index.ts';

export type QueuedEmail = {
  recipients: string[];
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  relatedType?: string;
  relatedId?: string;
};

/** Minutes to wait after the 1st, 2nd, ... failed attempt; after the last one the message is 'failed'. */
export const retryDelaysMinutes = [1, 5, 15, 60, 180, 360, 720, 1440] as const;
/** A claimed message is invisible to other deliverers for this long (a crash mid-send frees it). */
const claimLeaseMinutes = 10;

type ClaimedRow = {
  id: string;
  recipients: string[];
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: number;
};

/**
 * The e-mail outbox. Messages are written in the same transaction as what caused them, so they
 * exist exactly when it does; delivery happens after, with retries and backoff, so a failing mail
 * server neither fails nor loses the request. Claiming uses SKIP LOCKED: several instances on one
 * PostgreSQL deliver each message once.
 */
export function createEmailOutbox(options: { db: Database; sender: EmailSender; from: string; log: FastifyBaseLogger }) {
  const { db, sender, from, log } = options;
  let running: Promise<void> | undefined;
  let isRerunWanted = false;
  let timer: NodeJS.Timeout | undefined;

  async function deliverDue(limit = 20): Promise<{ sent: number; failed: number }> {
    const claimed = await db.execute<ClaimedRow>(sql`
      update outbound_emails set next_attempt_at = now() + make_interval(mins => ${claimLeaseMinutes})
      where id in (
        select id from outbound_emails
        where status = 'pending' and next_attempt_at <= now()
        order by next_attempt_at
        limit ${limit}
        for update skip locked
      )
      returning id, recipients, reply_to, subject, text_body, html_body, attempts`);
    const rows = (claimed as unknown as { rows: ClaimedRow[] }).rows;
    let sent = 0;
    let failed = 0;
    for (const row of rows) {
      try {
        await sender.send({
          from,
          to: row.recipients,
          replyTo: row.reply_to ?? undefined,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body ?? undefined,
        });
        await db.execute(sql`update outbound_emails set status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = null where id = ${row.id}`);
        sent += 1;
      } catch (error) {
        failed += 1;
        const attempts = row.attempts + 1;
        const delay = retryDelaysMinutes[attempts - 1];
        const message = error instanceof Error ? error.message : String(error);
        log.warn({ emailId: row.id, attempts, err: error }, 'e-mail delivery failed; the message stays queued');
        await db.execute(sql`
          update outbound_emails
          set attempts = ${attempts}, last_error = ${message.slice(0, 1000)},
              status = ${delay === undefined ? 'failed' : 'pending'},
              next_attempt_at = now() + make_interval(mins => ${delay ?? 0})
          where id = ${row.id}`);
      }
    }
    return { sent, failed };
  }

  /** Delivers in the background; calls while a run is going coalesce into one more run. */
  function kick(): void {
    if (running) {
      isRerunWanted = true;
      return;
    }
    running = (async () => {
      do {
        isRerunWanted = false;
        await deliverDue().catch((error: unknown) => log.error({ err: error }, 'e-mail outbox run failed'));
      } while (isRerunWanted);
    })().finally(() => {
      running = undefined;
    });
  }

  return {
    /** Queues messages; pass the transaction the causing write is in. */
    async enqueue(executor: Pick<Database, 'insert'>, messages: QueuedEmail[]): Promise<void> {
      if (messages.length === 0) return;
      await executor.insert(outboundEmails).values(
        messages.map((message) => ({
          recipients: message.recipients,
          replyTo: message.replyTo,
          subject: message.subject,
          textBody: message.text,
          htmlBody: message.html,
          relatedType: message.relatedType,
          relatedId: message.relatedId,
        })),
      );
    },
    deliverDue,
    kick,
    /** Resolves when no background delivery is running (tests and shutdown wait on it). */
    async idle(): Promise<void> {
      while (running) await running;
    },
    /** Periodic sweep for retries and for messages queued by other instances. */
    start(intervalMs = 30_000): void {
      timer = setInterval(kick, intervalMs);
      timer.unref();
      kick();
    },
    /** Stops the sweep and waits for a delivery in progress. */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      await this.idle();
      sender.close();
    },
  };
}

export type EmailOutbox = ReturnType<typeof createEmailOutbox>;
