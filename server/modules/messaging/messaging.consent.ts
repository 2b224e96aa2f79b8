import { sql } from 'drizzle-orm';
import type { DbExecutor } from '#server/db/client.ts';

/**
 * A public form's "text me" box, ticked (issue 18): the customer's consent to appointment texts,
 * source 'form', as of when the form was sent. Called inside the transaction that creates the
 * customer (chat booking) or attaches a request to one (lead conversion). A later choice wins: a
 * STOP or a staff change made after the form was sent is kept.
 */
export async function recordFormSmsConsent(executor: DbExecutor, customerId: string, at: Date): Promise<void> {
  await executor.execute(sql`
    insert into customer_message_consents (customer_id, channel, status, source, changed_at)
    values (${customerId}::uuid, 'sms', 'opted_in', 'form', ${at.toISOString()}::timestamptz)
    on conflict (customer_id, channel) do update set status = excluded.status, source = excluded.source,
      changed_at = excluded.changed_at, changed_by = null
    where customer_message_consents.changed_at < excluded.changed_at`);
}

/**
 * Staff decided a booking's new customer is a stored one ("Same customer", decision 018-a): the
 * consent the visitor gave on the form goes with the booking to the stored customer (as of when it
 * was given, so a later choice stored for that customer is kept).
 */
export async function carryFormSmsConsent(executor: DbExecutor, fromCustomerId: string, toCustomerId: string): Promise<void> {
  const given = await executor.execute<{ changed_at: string | Date }>(sql`
    select changed_at from customer_message_consents
     where customer_id = ${fromCustomerId}::uuid and channel = 'sms' and status = 'opted_in' and source = 'form'`);
  const row = given.rows[0];
  if (row) await recordFormSmsConsent(executor, toCustomerId, new Date(row.changed_at));
}
