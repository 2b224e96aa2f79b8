import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * The committed state the next statement will see (`xmin:xmax:in-progress ids`). Two equal
 * snapshots see exactly the same rows: no transaction committed or aborted in between.
 */
export const snapshotQuery = (db: Database) => db.select({ snapshot: sql<string>`pg_current_snapshot()::text` }).from(sql`(values (1)) as "now"`);

/**
 * Answers kept per database snapshot (decision 013). A read answer depends only on the committed
 * rows (and its key), so while the snapshot is unchanged a kept answer is exactly what computing
 * again would give; any commit changes the snapshot and empties the cache, so a change is seen by
 * the very next read. Concurrent reads of one key share one computation; a failed one is not kept.
 * Each server instance keeps its own answers; the snapshot is the database's, so several instances
 * on one PostgreSQL database stay exact. The cost of a read while nothing commits: one trivial query.
 */
export function createSnapshotCache<Answer>(
  db: Database,
  options: {
    maxEntries: number;
    /** Told of each kept answer the cache lets go (a commit, or too many keys): to free what it holds elsewhere. */
    onDrop?: (answer: Promise<Answer>) => void;
  },
) {
  let snapshot: string | undefined;
  const answers = new Map<string, Promise<Answer>>();

  return {
    async get(key: string, compute: () => Promise<Answer>): Promise<Answer> {
      // Read before computing: the answer is of this snapshot or a later one, never an earlier one.
      return this.at((await snapshotQuery(db))[0]!.snapshot, key, compute);
    },

    /**
     * `get` with the snapshot already read by a statement of the same request, before computing
     * (a page's `pg_current_snapshot()`, server/db/json-rows.ts): one round trip fewer.
     */
    at(current: string, key: string, compute: () => Promise<Answer>): Promise<Answer> {
      if (current !== snapshot) {
        snapshot = current;
        const dropped = [...answers.values()];
        answers.clear();
        if (options.onDrop) for (const answer of dropped) options.onDrop(answer);
      }
      const kept = answers.get(key);
      if (kept) return kept;
      const answer = compute();
      answers.set(key, answer);
      // The oldest key goes first (a Map keeps insertion order).
      if (answers.size > options.maxEntries) {
        const [oldestKey, oldest] = answers.entries().next().value!;
        answers.delete(oldestKey);
        options.onDrop?.(oldest);
      }
      answer.catch(() => {
        if (answers.get(key) === answer) answers.delete(key);
      });
      return answer;
    },
  };
}
