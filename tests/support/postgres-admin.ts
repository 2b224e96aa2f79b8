import pg from 'pg';

/**
 * Runs `work` on one connection to `url` (creating and dropping test databases). Imports nothing
 * from Vitest, so the global setup (tests/support/global-setup.ts) uses it too.
 */
export async function withAdminClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
