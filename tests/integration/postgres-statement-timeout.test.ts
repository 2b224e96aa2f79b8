import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { createPostgresTestDatabase } from '#tests/support/test-database.ts';

// Issue 15, should fix: the PostgreSQL pool had no statement_timeout nor query_timeout, so a hung
// query held its connection forever and a few of them held every connection of the pool.
describe('DATABASE_STATEMENT_TIMEOUT_MS', () => {
  it('defaults to 30 s, 0 turns it off, a negative value is refused', () => {
    expect(loadConfig({}).databaseStatementTimeoutMs).toBe(30_000);
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0' }).databaseStatementTimeoutMs).toBe(0);
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '-1' })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
  });
});

const skipReason = 'PostgreSQL only (set TEST_DATABASE_URL): PGlite runs one statement at a time in this process and has no pool';
describe.skipIf(!process.env.TEST_DATABASE_URL)(`PostgreSQL pool timeouts${process.env.TEST_DATABASE_URL ? '' : ` (skipped: ${skipReason})`}`, () => {
  let url: string;
  let drop: () => Promise<void>;
  const opened: DatabaseHandle[] = [];
  beforeAll(async () => {
    ({ url, drop } = await createPostgresTestDatabase(process.env.TEST_DATABASE_URL!));
  });
  afterAll(async () => {
    for (const database of opened) await database.close();
    await drop?.();
  });

  it('a hung query no longer holds every pool connection: pg_sleep(5) is cancelled after 500 ms and the pool answers again', async () => {
    const database = await openDatabase({ kind: 'postgres', url, poolSize: 2, statementTimeoutMs: 500 });
    opened.push(database);
    const started = performance.now();
    // As many hung queries as the pool has connections.
    const hung = await Promise.allSettled([database.query('select pg_sleep(5)'), database.query('select pg_sleep(5)')]);
    expect(performance.now() - started).toBeLessThan(4_000);
    for (const outcome of hung) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: '57014', message: expect.stringMatching(/statement timeout/) });
    }
    const [row] = await database.query<{ answer: number }>('select 42 as answer');
    expect(row!.answer).toBe(42);
  });

  it('migrations run on their own connection, outside the limit', async () => {
    // A new database, so every migration runs; 1 ms would cancel them if they went through the pool.
    const fresh = await createPostgresTestDatabase(process.env.TEST_DATABASE_URL!);
    const previousDrop = drop;
    drop = async () => {
      await previousDrop();
      await fresh.drop();
    };
    const database = await openDatabase({ kind: 'postgres', url: fresh.url, poolSize: 1, statementTimeoutMs: 1 });
    opened.push(database);
    await expect(database.query('select pg_sleep(0.1)')).rejects.toMatchObject({ code: '57014' });
  });
});
