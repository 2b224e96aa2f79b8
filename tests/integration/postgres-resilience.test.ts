import { describe, expect, it } from 'vitest';
import { createTestDatabase, withAdminClient } from '#tests/support/test-database.ts';

// PostgreSQL only: a restarted database (every connection cut) must not crash the server, and the
// pool reconnects for the next query.
describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL connection loss', () => {
  it('reports the lost connections instead of crashing, then answers again', async () => {
    let reportPoolError: (error: Error) => void = () => undefined;
    const poolErrorReported = new Promise<Error>((resolve) => (reportPoolError = resolve));
    const database = await createTestDatabase({ onPoolError: (error) => reportPoolError(error) });
    try {
      const [{ name }] = (await database.query<{ name: string }>('select current_database() as name')) as [{ name: string }];
      // Keep an idle client in the pool, then cut every connection to this database.
      await database.query('select 1');
      await withAdminClient(process.env.TEST_DATABASE_URL!, (client) =>
        client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]),
      );
      expect((await poolErrorReported).message).toMatch(/terminat/i);
      const rows = await database.query<{ answer: number }>('select 42 as answer');
      expect(rows[0]!.answer).toBe(42);
    } finally {
      await database.close();
    }
  });
});
