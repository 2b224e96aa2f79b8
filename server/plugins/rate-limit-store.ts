import { createHash } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';

/** Every this many counts, one instance also deletes the counters whose window ended a while ago. */
const sweepEvery = 500;

type Counted = { hits: number; ttl: number };

/**
 * @fastify/rate-limit's store on PostgreSQL (issue 23, decision 028-a): the public routes' limits
 * counted in `rate_limit_counters`, so several instances behind a load balancer share one count
 * per client and route instead of each allowing the limit. One statement per request: an upsert
 * that starts a new window when the last one ended, or counts one more in it. The key is a SHA-256
 * of the route and the client's address (no address is stored). The plugin's `continueExceeding`
 * and `exponentialBackoff` are not used by this product's routes and are not supported here.
 */
export function postgresRateLimitStore(db: Database): FastifyRateLimitStoreCtor {
  let counted = 0;

  async function count(key: string, timeWindowMs: number): Promise<Counted> {
    const result = await db.execute<Counted>(sql`
      insert into rate_limit_counters as c (key, hits, resets_at)
      values (${key}, 1, clock_timestamp() + ${timeWindowMs} * interval '1 millisecond')
      on conflict (key) do update set
        hits = case when c.resets_at <= clock_timestamp() then 1 else c.hits + 1 end,
        resets_at = case when c.resets_at <= clock_timestamp() then excluded.resets_at else c.resets_at end
      returning hits, greatest(0, ceil(extract(epoch from (resets_at - clock_timestamp())) * 1000))::int as ttl`);
    counted += 1;
    if (counted % sweepEvery === 0) {
      // Old windows only: a window that just ended is restarted by the upsert above anyway.
      void db.execute(sql`delete from rate_limit_counters where resets_at < clock_timestamp() - interval '1 hour'`).catch(() => undefined);
    }
    const row = result.rows[0]!;
    return { hits: Number(row.hits), ttl: Number(row.ttl) };
  }

  async function read(key: string): Promise<Counted> {
    const result = await db.execute<Counted>(sql`
      select hits, greatest(0, ceil(extract(epoch from (resets_at - clock_timestamp())) * 1000))::int as ttl
      from rate_limit_counters where key = ${key} and resets_at > clock_timestamp()`);
    const row = result.rows[0];
    return row ? { hits: Number(row.hits), ttl: Number(row.ttl) } : { hits: 0, ttl: 0 };
  }

  class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;

    /** The plugin makes the global store with its options; `child` makes each route's with the route. */
    constructor(prefix: unknown) {
      this.prefix = typeof prefix === 'string' ? prefix : 'global';
    }

    private keyOf(client: string): string {
      return createHash('sha256').update(`${this.prefix}\u0000${client}`).digest('hex');
    }

    incr(client: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      count(this.keyOf(client), timeWindow).then(
        ({ hits, ttl }) => callback(null, { current: hits, ttl }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    read(client: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void): void {
      read(this.keyOf(client)).then(
        ({ hits, ttl }) => callback(null, { current: hits, ttl }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: { method?: string | string[]; url?: string; routeInfo?: { method: string; url: string } }): FastifyRateLimitStore {
      const method = routeOptions.routeInfo?.method ?? [routeOptions.method ?? ''].flat().join(',');
      const url = routeOptions.routeInfo?.url ?? routeOptions.url ?? '';
      return new PostgresRateLimitStore(`${method} ${url}`);
    }
  }

  return PostgresRateLimitStore;
}
