import { lt, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { techActions } from '#server/db/schema/index.ts';

/**
 * How long an applied action's idempotency key is kept (decision 022-a, "Later"). A phone replays
 * a key only while the action waits in its queue: for days at most (the app keeps 3 days of
 * visits; a session ends after hours idle, and signing in again sends the queue). Thirty days is
 * far beyond that. A replay older still cannot apply twice: the action changed the visit's
 * version, so its base is stale and the server answers the 409 conflict with the current values.
 */
export const techActionRetentionDays = 30;

/** Deletes the idempotency records applied before the retention window; how many went. */
export async function pruneTechActions(db: Database, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - techActionRetentionDays * 24 * 3_600_000);
  const rows = await db
    .delete(techActions)
    .where(lt(techActions.appliedAt, sql`${before.toISOString()}::timestamptz`))
    .returning({ key: techActions.idempotencyKey });
  return rows.length;
}
