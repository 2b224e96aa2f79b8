import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { lockDataDir, type DataDirLock } from './data-dir-lock.ts';
import { listenOnPostgres, type ListenHandlers } from './postgres-listener.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
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
  /** PGlite in dataDir; `undefined` dataDir = in memory (tests). */
  | { kind: 'pglite'; dataDir: string | undefined }
  | { kind: 'postgres'; url: string; poolSize?: number; onPoolError?: (error: Error) => void };

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Works from the source tree and from the bundled server (build/server), both two levels down. */
export const migrationsFolder = path.join(projectRoot, 'server/db/migrations');

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.kind === 'pglite') return openPglite(options.dataDir);
  return openPostgres(options);
}

async function openPglite(dataDir: string | undefined): Promise<DatabaseHandle> {
  let lock: DataDirLock | undefined;
  if (dataDir) lock = lockDataDir(dataDir);
  try {
    const client = await PGlite.create({
      dataDir: dataDir ? path.join(dataDir, 'pglite') : undefined,
      extensions: { pg_trgm },
    });
    const db = drizzlePglite(client, { schema }) as unknown as Database;
    await migratePglite(db as never, { migrationsFolder });
    return {
      db,
      kind: 'pglite',
      query: async (text, params) => (await client.query(text, params)).rows as never,
      listen: async (channel, handlers) => {
        const unlisten = await client.listen(channel, handlers.onNotification);
        handlers.onConnected?.(false);
        return () => (client.closed ? Promise.resolve() : unlisten());
      },
      close: async () => {
        await client.close();
        lock?.release();
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function openPostgres(options: Extract<OpenOptions, { kind: 'postgres' }>): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client losing its connection (database restart) emits here; without a listener the
  // process would crash. The pool replaces the client on the next checkout.
  pool.on('error', (error) => options.onPoolError?.(error));

  // Several instances may start at once: one migrates while the others wait.
  const migrationClient = await pool.connect();
  try {
    await migrationClient.query('select pg_advisory_lock(727001)');
    const migrationDb = drizzleNodePostgres(migrationClient, { schema });
    await migrateNodePostgres(migrationDb, { migrationsFolder });
  } finally {
    await migrationClient.query('select pg_advisory_unlock(727001)').catch(() => undefined);
    migrationClient.release();
  }
  const db = drizzleNodePostgres(pool, { schema }) as unknown as Database;
  const listeners = new Set<{ stop: () => Promise<void> }>();
  return {
    db,
    kind: 'postgres',
    query: async (text, params) => (await pool.query(text, params)).rows as never,
    listen: async (channel, handlers) => {
      const listener = listenOnPostgres(options.url, channel, handlers);
      listeners.add(listener);
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
  return !(result as unknown as { rows: { present: boolean }[] }).rows[0]?.present;
}
