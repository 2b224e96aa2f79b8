import type { FastifyBaseLogger } from 'fastify';
import type { SmsSender } from '#server/adapters/sms/sms-sender.ts';
import type { Database } from '#server/db/client.ts';
import { createCoalescedRunner } from '#server/lib/coalesced-runner.ts';
import type { EmailOutbox } from '#server/modules/email/index.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { createDispatcher, messageLeaseMinutes, type CreateDocumentLink } from './messaging.dispatcher.ts';
import { planOverdueReminders } from './messaging.overdue.ts';
import { planPendingBatch } from './messaging.planner.ts';
import { createMessagingRepository } from './messaging.repository.ts';

/** How long a close waits for the send in flight (main.ts exits by force after 10 s; the e-mail outbox drains too). */
export const defaultMessagingDrainMs = 5_000;
/**
 * Texts one runner sends at once. One (a close has at most one text in flight); more lets a text's
 * wait on the provider overlap the next one's database work (decision 021-b measures 1 and 4).
 */
export const defaultMessagingConcurrency = 1;

/**
 * The messaging runner (decision 021-a): plans queued work orders, then sends what is due, in the
 * background. Like the e-mail outbox: a timer sweeps (retries, reminders coming due, work of other
 * instances), `kick()` runs at once (app.ts calls it when work orders change), calls during a run
 * coalesce into one more run, and `stop()` claims nothing more, gives back claimed rows it has not
 * started and waits for the send in flight at most `drainMs`. `now` is the clock of every
 * decision (tests move it instead of sleeping).
 */
export function createMessagingRunner(options: {
  db: Database;
  outbox: Pick<EmailOutbox, 'enqueue' | 'kick'>;
  sms: SmsSender;
  company: CompanyProfile;
  timeZone: string;
  log: FastifyBaseLogger;
  now?: () => Date;
  batchSize?: number;
  /** Texts of a claimed batch sent at once (default 1). */
  concurrency?: number;
  drainMs?: number;
  /**
   * The instance's change feed (table changes committed by any instance): once started, a change
   * of work_orders runs the planner at once instead of at the next sweep.
   */
  changes?: { subscribe: (subscriber: { onChange: (change: { topic: string }) => void; onResync: () => void }) => () => void };
  /** Makes the customer links that quote and invoice messages carry (issue 20). */
  createDocumentLink?: CreateDocumentLink;
}) {
  const { db, log, timeZone } = options;
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? 100;
  const concurrency = Math.max(1, options.concurrency ?? defaultMessagingConcurrency);
  const drainMs = options.drainMs ?? defaultMessagingDrainMs;
  const repository = createMessagingRepository;
  const messaging = repository(db);
  const dispatcher = createDispatcher({
    db,
    repository,
    outbox: options.outbox,
    sms: options.sms,
    company: options.company,
    timeZone,
    log,
    ...(options.createDocumentLink ? { createDocumentLink: options.createDocumentLink } : {}),
  });
  let isStopping = false;
  let isStarted = false;
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;

  /** Plans every queued work order, a batch per transaction. */
  async function planPending(): Promise<{ workOrders: number; inserted: number }> {
    const total = { workOrders: 0, inserted: 0 };
    while (!isStopping) {
      const batch = await planPendingBatch({ db, repository, timeZone, now: now(), batchSize });
      total.workOrders += batch.workOrders;
      total.inserted += batch.inserted;
      if (batch.taken === 0) break;
    }
    return total;
  }

  /**
   * Sends every due message, a claimed batch at a time (decision 021-b: what a batch needs is read
   * once, its e-mails are queued together, up to `concurrency` texts go at once).
   */
  async function dispatchDue(): Promise<Record<string, number>> {
    const outcomes: Record<string, number> = {};
    await messaging.releaseExpiredClaims(now());
    while (!isStopping) {
      const claimed = await messaging.claimDue(now(), batchSize, messageLeaseMinutes);
      if (claimed.length === 0) break;
      const batch = await dispatcher.dispatchBatch(claimed, now, { concurrency, isStopping: () => isStopping }).catch(async (error: unknown) => {
        // Reading the batch failed (the database): give it all back, the next run tries again.
        log.error({ err: error }, 'message dispatch failed');
        await messaging.unclaim(claimed.map((message) => message.id), now());
        throw error;
      });
      for (const [outcome, count] of Object.entries(batch.outcomes)) outcomes[outcome] = (outcomes[outcome] ?? 0) + count;
      // Closing: what was claimed but not started goes back at once.
      await messaging.unclaim(batch.unstarted, now());
    }
    return outcomes;
  }

  /** Overdue invoices' reminders are looked for at most this often (they move by the day). */
  const overdueIntervalMs = 15 * 60_000;
  let overdueCheckedAt = Number.NEGATIVE_INFINITY;
  async function planOverdue(): Promise<number> {
    overdueCheckedAt = now().getTime();
    return planOverdueReminders(db, { timeZone, now: now() });
  }

  /** Runs in the background once started (before: nothing; tests call planPending and dispatchDue themselves). */
  const runner = createCoalescedRunner({
    run: async () => {
      await planPending().catch((error: unknown) => log.error({ err: error }, 'message planning failed'));
      if (now().getTime() - overdueCheckedAt >= overdueIntervalMs) {
        await planOverdue().catch((error: unknown) => log.error({ err: error }, 'overdue reminder planning failed'));
      }
      await dispatchDue().catch((error: unknown) => log.error({ err: error }, 'message sending failed'));
    },
    onError: (error) => log.error({ err: error }, 'messaging run failed'),
    canRun: () => isStarted && !isStopping,
  });
  const { kick } = runner;

  return {
    planPending,
    planOverdue,
    dispatchDue,
    kick,
    /** Resolves when no background run is going (tests wait on it). */
    idle: runner.idle,
    start(intervalMs = 30_000): void {
      isStarted = true;
      timer = setInterval(kick, intervalMs);
      timer.unref();
      unsubscribe = options.changes?.subscribe({
        onChange: (change) => {
          // Work orders plan messages; an estimate request may queue its text; a quote or an
          // invoice sent queues its messages (issue 20).
          if (['work_orders', 'estimate_requests', 'quotes', 'invoices'].includes(change.topic)) kick();
        },
        onResync: kick,
      });
      kick();
    },
    async stop(): Promise<void> {
      isStopping = true;
      if (timer) clearInterval(timer);
      unsubscribe?.();
      const isDrained = await runner.drain(drainMs);
      if (!isDrained) log.warn({ drainMs }, 'closing with a message send in flight; it keeps its claim until the lease ends');
    },
  };
}

export type MessagingRunner = ReturnType<typeof createMessagingRunner>;
