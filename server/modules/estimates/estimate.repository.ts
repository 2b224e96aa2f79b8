import { eq, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { estimateRequests } from '#server/db/schema/index.ts';
import { estimateConfirmationKind } from './estimate-emails.ts';

export type EstimateRequestRow = typeof estimateRequests.$inferSelect;

export function createEstimateRepository(db: Database) {
  return {
    /** Inserts, unless a request with the same idempotency key exists: then returns undefined. */
    async insertOnce(executor: Database, values: typeof estimateRequests.$inferInsert): Promise<EstimateRequestRow | undefined> {
      const rows = await executor
        .insert(estimateRequests)
        .values(values)
        .onConflictDoNothing({ target: estimateRequests.idempotencyKey })
        .returning();
      return rows[0];
    },

    /**
     * Whether one more confirmation may go to `email` (fewer than `perDay` in the last 24 hours),
     * counted in the outbox under a transaction-scoped lock on the address, so parallel requests and
     * other instances count each other. Call in the transaction that queues the confirmation.
     */
    async claimConfirmationSlot(executor: Database, email: string, perDay: number): Promise<boolean> {
      const address = email.trim().toLowerCase();
      await executor.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`estimate-confirmation:${address}`}, 0))`);
      const result = await executor.execute<{ sent: number }>(sql`
        select count(*)::int as sent from outbound_emails
        where kind = ${estimateConfirmationKind} and created_at > now() - interval '24 hours'
          and exists (select 1 from unnest(recipients) as recipient where lower(recipient) = ${address})`);
      const [row] = result.rows;
      return (row?.sent ?? 0) < perDay;
    },

    async findByIdempotencyKey(key: string): Promise<EstimateRequestRow | undefined> {
      const rows = await db.select().from(estimateRequests).where(eq(estimateRequests.idempotencyKey, key)).limit(1);
      return rows[0];
    },
  };
}
