import { sql } from 'drizzle-orm';
import type { DbExecutor } from '#server/db/client.ts';

/**
 * Whether one more e-mail of `kind` may go to `email` (fewer than `perDay` in the last 24 hours),
 * counted in the outbox under a transaction-scoped lock on the kind and address, so parallel
 * requests and other instances count each other. Call in the transaction that queues the e-mail:
 * it keeps a public form from being used to flood someone's inbox.
 */
export async function claimRecipientSlot(executor: DbExecutor, kind: string, email: string, perDay: number): Promise<boolean> {
  const address = email.trim().toLowerCase();
  await executor.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${kind}:${address}`}, 0))`);
  const result = await executor.execute<{ sent: number }>(sql`
    select count(*)::int as sent from outbound_emails
    where kind = ${kind} and created_at > now() - interval '24 hours'
      and exists (select 1 from unnest(recipients) as recipient where lower(recipient) = ${address})`);
  const [row] = result.rows;
  return (row?.sent ?? 0) < perDay;
}
