import { eq } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { estimateRequests } from '#server/db/schema/index.ts';

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

    async findByIdempotencyKey(key: string): Promise<EstimateRequestRow | undefined> {
      const rows = await db.select().from(estimateRequests).where(eq(estimateRequests.idempotencyKey, key)).limit(1);
      return rows[0];
    },
  };
}
