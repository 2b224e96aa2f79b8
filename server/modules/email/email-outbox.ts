import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { EmailOutcomeUnknownError, isOutcomeUnknown, type EmailSender } from '#server/adapters/email/email-sender.ts';
import type { Database } from '#server/db/client.ts';
import { outboundEmails } from '#server/db/schema/index.ts';
import { createCoalescedRunner } from '#server/lib/coalesced-runner.ts';

export type QueuedEmail = {
  recipients: string[];
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  relatedType?: string;
  relatedId?: string;
  /** The body holds a secret (a one-time link): blanked once sent or failed for good, and in every backup. */
  carriesSecret?: boolean;
  /** Where a rule counts messages of a kind (e.g. 'estimate_confirmation'). */
  kind?: string;
};

/** Minutes to wait after the 1st, 2nd, ... failed attempt; after the last one the message is 'failed'. */
export const retryDelaysMinutes = [1, 5, 15, 60, 180, 360, 720, 1440] as const;
/**
 * A claimed message is invisible to other deliverers for this long (a crash mid-send frees it).
 * Far longer than one send can last (the SMTP sender's timeouts end a hung send in seconds), so a
 * message is never claimed again while a live process may still be sending it.
 */
export const claimLeaseMinutes = 10;
/** What a secret-carrying body becomes once it is no longer needed (and in backups). */
export const removedSecretBody = '(removed: this message carried a one-time link)';
/** How long a close waits for the message being sent (main.ts exits by force after 10 s). */
export const defaultDrainMs = 7_000;
export const outcomeUnknownError =
  'outcome unknown: the mail server took the message but did not confirm it; not sent again, so it cannot arrive twice';

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
 *
 * Delivery is at most once per message once the mail server has it: a send that fails after the
 * server accepted the message data without confirming it (a timeout, a lost connection) is not
 * retried ('failed', outcome unknown). Failures the server answered, and failures before the data
 * was handed over, are retried. At close the outbox claims nothing more, gives back what it claimed
 * but has not started, and waits for the send in flight at most `drainMs` (decision 018-d).
 *
 * Secret-carrying bodies are blanked as soon as the message is sent or has failed for good, and
 * finished messages are deleted `retentionDays` after they were queued.
 */
export function createEmailOutbox(options: {
  db: Database;
  sender: EmailSender;
  from: string;
  log: FastifyBaseLogger;
  retentionDays?: number;
  drainMs?: number;
}) {
  const { db, sender, from, log } = options;
  const retentionDays = options.retentionDays ?? 30;
  const drainMs = options.drainMs ?? defaultDrainMs;
  let isStopping = false;
  let timer: NodeJS.Timeout | undefined;
  let purgeTimer: NodeJS.Timeout | undefined;
  /** The message being sent now, and whether the mail server already has all of it. */
  let current: { row: ClaimedRow; isHandedOver: boolean; isSettled: boolean } | undefined;

  const blankSecret = sql`text_body = case when carries_secret then ${removedSecretBody} else text_body end,
              html_body = case when carries_secret then null else html_body end`;

  async function markSent(id: string): Promise<void> {
    await db.execute(sql`update outbound_emails set status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = null, ${blankSecret} where id = ${id}`);
  }

  async function markFailed(row: ClaimedRow, error: unknown): Promise<void> {
    const attempts = row.attempts + 1;
    const isUnknown = isOutcomeUnknown(error);
    const delay = isUnknown ? undefined : retryDelaysMinutes[attempts - 1];
    const message = isUnknown ? outcomeUnknownError : error instanceof Error ? error.message : String(error);
    log.warn({ emailId: row.id, attempts, err: error }, isUnknown ? 'e-mail outcome unknown; not sent again' : 'e-mail delivery failed; the message stays queued');
    await db.execute(sql`
      update outbound_emails
      set attempts = ${attempts}, last_error = ${message.slice(0, 1000)},
          status = ${delay === undefined ? 'failed' : 'pending'},
          next_attempt_at = now() + make_interval(mins => ${delay ?? 0})
          ${delay === undefined ? sql`, ${blankSecret}` : sql``}
      where id = ${row.id}`);
  }

  async function deliverDue(limit = 20): Promise<{ sent: number; failed: number }> {
    if (isStopping) return { sent: 0, failed: 0 };
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
    const rows = claimed.rows;
    let sent = 0;
    let failed = 0;
    for (const [index, row] of rows.entries()) {
      if (isStopping) {
        // Closing: what this run claimed but has not started goes back at once (another instance, or the next start, sends it).
        const unstarted = rows.slice(index).map((rest) => rest.id);
        await db.execute(sql`update outbound_emails set next_attempt_at = now() where id in (${sql.join(unstarted.map((id) => sql`${id}::uuid`), sql`, `)}) and status = 'pending'`);
        break;
      }
      const sending = { row, isHandedOver: false, isSettled: false };
      current = sending;
      try {
        await sender.send(
          {
            from,
            to: row.recipients,
            replyTo: row.reply_to ?? undefined,
            subject: row.subject,
            text: row.text_body,
            html: row.html_body ?? undefined,
          },
          { onHandedOver: () => (sending.isHandedOver = true) },
        );
        sending.isSettled = true;
        await markSent(row.id);
        sent += 1;
      } catch (error) {
        failed += 1;
        if (!sending.isSettled) await markFailed(row, error);
      } finally {
        sending.isSettled = true;
        if (current === sending) current = undefined;
      }
    }
    return { sent, failed };
  }

  /** Deletes finished (sent or failed) messages queued more than `retentionDays` ago, and old outbox files. */
  async function purgeFinished(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
    const deleted = await db.execute<{ id: string }>(sql`delete from outbound_emails where status <> 'pending' and created_at < ${cutoff.toISOString()}::timestamptz returning id`);
    const files = (await sender.purgeOlderThan?.(cutoff)) ?? 0;
    const rows = deleted.rows.length;
    if (rows + files > 0) log.info({ rows, files, retentionDays }, 'purged old e-mail');
    return rows;
  }

  /** Delivers in the background; calls while a run is going coalesce into one more run. */
  const runner = createCoalescedRunner({
    run: async () => {
      await deliverDue();
    },
    onError: (error) => log.error({ err: error }, 'e-mail outbox run failed'),
    canRun: () => !isStopping,
  });
  const { kick } = runner;

  return {
    /** Queues messages; pass the transaction the causing write is in. Answers their ids, in order. */
    async enqueue(executor: Pick<Database, 'insert'>, messages: QueuedEmail[]): Promise<string[]> {
      if (messages.length === 0) return [];
      const rows = await executor.insert(outboundEmails).values(
        messages.map((message) => ({
          recipients: message.recipients,
          replyTo: message.replyTo,
          subject: message.subject,
          textBody: message.text,
          htmlBody: message.html,
          relatedType: message.relatedType,
          relatedId: message.relatedId,
          carriesSecret: message.carriesSecret ?? false,
          kind: message.kind,
        })),
      ).returning({ id: outboundEmails.id });
      return rows.map((row) => row.id);
    },
    deliverDue,
    purgeFinished,
    kick,
    /** Resolves when no background delivery is running (tests wait on it). */
    idle: runner.idle,
    /** Periodic sweep for retries and for messages queued by other instances; hourly purge of old mail. */
    start(intervalMs = 30_000): void {
      timer = setInterval(kick, intervalMs);
      timer.unref();
      const purge = () => void purgeFinished().catch((error: unknown) => log.warn({ err: error }, 'e-mail purge failed'));
      purgeTimer = setInterval(purge, 3_600_000);
      purgeTimer.unref();
      purge();
      kick();
    },
    /**
     * Stops claiming, gives back claimed rows not yet started, and waits for the send in flight at
     * most `drainMs`. A send still running then keeps its claim (lease) or, if the server already
     * has the data, ends 'failed' with an unknown outcome when the sender gives up.
     */
    async stop(): Promise<void> {
      isStopping = true;
      if (timer) clearInterval(timer);
      if (purgeTimer) clearInterval(purgeTimer);
      const isDrained = await runner.drain(drainMs);
      const sending = current;
      if (!isDrained && sending && !sending.isSettled) {
        if (sending.isHandedOver) {
          // The server has the message and has not confirmed it; the process may exit before it
          // does. Settled now as an unknown outcome, so no one sends it again after the restart.
          sending.isSettled = true;
          await markFailed(sending.row, new EmailOutcomeUnknownError(new Error(`no answer within ${drainMs} ms of the close`)));
        } else {
          log.warn({ drainMs, emailId: sending.row.id }, 'closing with an e-mail send in flight; it keeps its claim until the lease ends');
        }
      }
      sender.close();
    },
  };
}

export type EmailOutbox = ReturnType<typeof createEmailOutbox>;
