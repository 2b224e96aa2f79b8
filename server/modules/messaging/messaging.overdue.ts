import { sql } from 'drizzle-orm';
import { withTransaction, type Database } from '#server/db/client.ts';
import { queueDocumentMessages } from './messaging.documents.ts';

/** Days after the due date of each overdue reminder when billing settings have no row (decision 024-c). */
export const defaultReminderDays: readonly number[] = [7, 14, 30];

/**
 * Overdue invoices' reminders (issue 20): an open invoice (sent or partially paid, a balance left)
 * that has reached a further step of the schedule (step k: `reminder_days[k-1]` days past its due
 * date, company time) than its reminders so far gets one `invoice_overdue` message, queued like any document message (its
 * link made when it is sent; the dispatcher cancels it if the invoice is paid or voided by then).
 * One reminder per invoice per run, never two of the same step (the send key is the step), the
 * invoices locked (SKIP LOCKED) so two instances never queue the same one. Answers how many queued.
 */
export async function planOverdueReminders(db: Database, options: { timeZone: string; now: Date; batchSize?: number }): Promise<number> {
  const batchSize = options.batchSize ?? 100;
  let queued = 0;
  for (;;) {
    const taken = await withTransaction(db, async (tx) => {
      const settings = await tx.execute<{ enabled: boolean; days: number[] }>(sql`
        select reminders_enabled as enabled, reminder_days as days from billing_settings where id = 1`);
      const row = settings.rows[0];
      if (row && !row.enabled) return 0;
      const days = [...(row?.days ?? defaultReminderDays)].sort((a, b) => a - b);
      if (days.length === 0) return 0;
      const today = sql`(${options.now.toISOString()}::timestamptz at time zone ${options.timeZone})::date`;
      const steps = sql.raw(`array[${days.map((day) => Math.trunc(day)).join(',')}]::integer[]`);
      // The step an invoice has reached: how many reminder days have passed since it was due. One
      // found late (the server was off) gets only its latest step's reminder, not every one missed.
      const due = await tx.execute<{ id: string; customer_id: string; work_order_id: string | null; step: number }>(sql`
        select i.id, i.customer_id, i.work_order_id, reached.step
          from invoices i,
               lateral (select count(*)::int as step from unnest(${steps}) as day where i.due_on + day <= ${today}) as reached
         where i.status in ('sent', 'partially_paid') and i.kind = 'invoice' and i.balance_cents > 0
           and i.due_on <= ${today} - ${days[0]!}::integer
           and reached.step > i.reminders_sent
         order by i.due_on, i.id
         limit ${batchSize}
         for update of i skip locked`);
      for (const invoice of due.rows) {
        await queueDocumentMessages(tx, {
          type: 'invoice_overdue',
          documentType: 'invoice',
          documentId: invoice.id,
          customerId: invoice.customer_id,
          workOrderId: invoice.work_order_id,
          sendKey: `overdue-${invoice.step}`,
          timeZone: options.timeZone,
          now: options.now,
        });
      }
      if (due.rows.length > 0) {
        await tx.execute(sql`
          update invoices i set reminders_sent = v.step, last_reminder_at = ${options.now.toISOString()}::timestamptz
            from (values ${sql.join(due.rows.map((invoice) => sql`(${invoice.id}::uuid, ${invoice.step}::integer)`), sql`, `)}) as v (id, step)
           where i.id = v.id`);
      }
      return due.rows.length;
    });
    queued += taken;
    if (taken < batchSize) return queued;
  }
}
