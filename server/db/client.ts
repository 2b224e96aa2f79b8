import type { PGlite } from '@electric-sql/pglite';
import { sql, type ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction, PgTransactionConfig } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { launchPglite, migrationsFolder, type LaunchedPglite } from './pglite-launch.ts';
import type { ListenHandlers } from './postgres-listener.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;

/** What both drivers answer raw SQL with (`db.execute`): PGlite's Results and node-postgres' QueryResult both carry `rows`. */
type RowsResult<Row> = { rows: Row[] };
/** The query-result type of our executors: `db.execute<Row>(query)` is typed `{ rows: Row[] }` without a cast. */
export interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsResult<this['row']>;
}

/**
 * What repositories and audit writers run queries on: the database itself or a transaction
 * (a Drizzle transaction is a PgDatabase, so `Tx` is assignable to it). Repository factories take
 * `db: DbExecutor`, so the same repository works inside and outside `withTransaction`.
 */
export type DbExecutor = PgDatabase<RowsResultHKT, Schema>;
/** The application's database (the handle opened at start); the same type as any executor. */
export type Database = DbExecutor;
/** How a service receives a repository: built on whichever executor it runs on (the database, or a transaction). */
export type RepositoryFactory<Repository> = (db: DbExecutor) => Repository;
/** A transaction of either driver, as `withTransaction` gives it. */
export type Tx = PgTransaction<RowsResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

/**
 * Runs `work` in one transaction (a savepoint when `db` is already a transaction): committed when
 * it resolves, rolled back when it throws. The typed replacement for `db.transaction` plus a cast.
 */
export function withTransaction<T>(db: DbExecutor, work: (tx: Tx) => Promise<T>, config?: PgTransactionConfig): Promise<T> {
  return db.transaction(work, config);
}
export type DatabaseKind = 'pglite' | 'postgres';

export type DatabaseHandle = {
  db: Database;
  kind: DatabaseKind;
  /** Runs raw SQL on the driver itself (benchmarks measure the database's own ceiling with it). */
  query: <Row = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<Row[]>;
  /**
   * Receives the NOTIFY payloads of `channel` (PGlite: the instance's own listener; PostgreSQL: one
   * dedicated connection that reconnects by itself). Resolves with the function that stops it;
   * close() stops every listener still running.
   */
  listen: (channel: string, handlers: ListenHandlers) => Promise<() => Promise<void>>;
  close: () => Promise<void>;
};

export type { ListenHandlers } from './postgres-listener.ts';

export type OpenOptions =
  /**
   * PGlite in dataDir (`undefined` = in memory, tests), on its own worker thread;
   * `onThreadExit` hears that thread stop without being closed. `loadDataDir` (in memory only):
   * a dump file (PGlite's dumpDataDir) the database starts from, the tests' migrated template.
   */
  | { kind: 'pglite'; dataDir: string | undefined; loadDataDir?: string; onThreadExit?: (error: Error) => void }
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** statement_timeout of the pool's connections, 0 for none (default 30 s); see openPostgres. */
      statementTimeoutMs?: number;
      onPoolError?: (error: Error) => void;
    };

export const defaultStatementTimeoutMs = 30_000;
/** The client-side query_timeout waits this much longer, so the server's clear cancellation normally comes first. */
export const queryTimeoutMarginMs = 5_000;

export { migrationsFolder } from './pglite-launch.ts';

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.kind === 'postgres') return openPostgres(options);
  const launched = launchPglite(options);
  await launched.ready;
  return pgliteHandle(launched);
}

/**
 * The handle of an embedded database whose thread is starting (pglite-launch.ts): usable at once,
 * its requests wait in the thread until the database has opened and migrated.
 */
export function pgliteHandle({ thread, release }: LaunchedPglite): DatabaseHandle {
  // Drizzle's PGlite driver is typed for the PGlite class but calls only `query(text, params,
  // config)` and `transaction(work)`, which the thread answers as PGlite does (pglite-thread.ts,
  // tests/integration/pglite-thread.test.ts).
  // eslint-disable-next-line no-restricted-syntax -- the one place the thread stands in for PGlite
  const db: Database = drizzlePglite({ client: thread as unknown as PGlite, schema });
  return {
    db,
    kind: 'pglite',
    query: async (text, params) => (await thread.query(text, params)).rows as never,
    listen: async (channel, handlers) => {
      const unlisten = await thread.listen(channel, handlers.onNotification);
      handlers.onConnected?.(false);
      return unlisten;
    },
    close: async () => {
      try {
        await thread.close();
      } finally {
        release();
      }
    },
  };
}

/**
 * The pool's connections cancel a statement after `statementTimeoutMs` (server side, SQLSTATE
 * 57014 "canceling statement due to statement timeout"), and the client gives up waiting a little
 * later (query_timeout: a lost network answer), so a hung query cannot hold every connection.
 * Long work runs outside those limits: migrations on their own connection, LISTEN on its own
 * connection (postgres-listener.ts), backup and restore with the limit off (their scripts open
 * the database with 0, and their transactions `set local statement_timeout = 0`). CSV exports
 * are one short query per page, within the limit.
 */
async function openPostgres(options: Extract<OpenOptions, { kind: 'postgres' }>): Promise<DatabaseHandle> {
  // The PostgreSQL driver loads only when it is the configured database (decision 023-b).
  const [{ default: pg }, { drizzle: drizzleNodePostgres }, { migrate: migrateNodePostgres }, { listenOnPostgres }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
    import('./postgres-listener.ts'),
  ]);
  const statementTimeoutMs = options.statementTimeoutMs ?? defaultStatementTimeoutMs;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + queryTimeoutMarginMs } : {}),
  });
  // An idle client losing its connection (database restart) emits here; without a listener the
  // process would crash. The pool replaces the client on the next checkout.
  pool.on('error', (error) => options.onPoolError?.(error));

  // Several instances may start at once: one migrates while the others wait. Its own connection,
  // without the pool's timeouts: a migration (an index on a large table) may take minutes.
  const migrationClient = new pg.Client({ connectionString: options.url, connectionTimeoutMillis: 5_000 });
  try {
    await migrationClient.connect();
    await migrationClient.query('select pg_advisory_lock(727001)');
    const migrationDb = drizzleNodePostgres(migrationClient, { schema });
    await migrateNodePostgres(migrationDb, { migrationsFolder });
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  } finally {
    await migrationClient.query('select pg_advisory_unlock(727001)').catch(() => undefined);
    await migrationClient.end().catch(() => undefined);
  }
  const db: Database = drizzleNodePostgres(pool, { schema });
  const listeners = new Set<{ stop: () => Promise<void> }>();
  return {
    db,
    kind: 'postgres',
    query: async (text, params) => (await pool.query(text, params)).rows as never,
    listen: async (channel, handlers) => {
      // Resolves once LISTEN is in place (or the first attempt failed and retries go on), like
      // PGlite's listen: a notification sent after this returns is heard.
      let firstAttempt = () => undefined as void;
      const attempted = new Promise<void>((resolve) => (firstAttempt = resolve));
      const listener = listenOnPostgres(options.url, channel, {
        onNotification: handlers.onNotification,
        onConnected: (isReconnect) => {
          firstAttempt();
          handlers.onConnected?.(isReconnect);
        },
        onConnectionError: (error, retryInMs) => {
          firstAttempt();
          handlers.onConnectionError?.(error, retryInMs);
        },
      });
      listeners.add(listener);
      await attempted;
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    close: async () => {
      await Promise.all([...listeners].map((listener) => listener.stop()));
      listeners.clear();
      await pool.end();
    },
  };
}

export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const result = await db.execute<{ present: boolean }>(
    sql`select exists (select 1 from customers) or exists (select 1 from work_orders) as present`,
  );
  return !result.rows[0]?.present;
}
