import { eq } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { estimateRequests } from '#server/db/schema/index.ts';
import { claimRecipientSlot } from '#server/modules/email/index.ts';
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
      return claimRecipientSlot(executor, estimateConfirmationKind, email, perDay);
    },

    async findByIdempotencyKey(key: string): Promise<EstimateRequestRow | undefined> {
      const rows = await db.select().from(estimateRequests).where(eq(estimateRequests.idempotencyKey, key)).limit(1);
      return rows[0];
    },
  };
}
