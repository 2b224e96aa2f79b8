import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { withAdminClient } from './postgres-admin.ts';

export { withAdminClient } from './postgres-admin.ts';

/**
 * A new database on the PostgreSQL server named by TEST_DATABASE_URL, and how to drop it: empty,
 * or a copy of `template` (a database nobody is connected to).
 */
export async function createPostgresTestDatabase(
  serverUrl: string,
  options: { template?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `hvac_test_${randomBytes(8).toString('hex')}`;
  const template = options.template ? ` template "${options.template}"` : '';
  await withAdminClient(serverUrl, (client) => client.query(`create database "${name}"${template}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await withAdminClient(serverUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

/** The migrated template of this run (tests/support/global-setup.ts), if the run has one. */
function migratedTemplate() {
  try {
    return inject('testDatabaseTemplate');
  } catch {
    // Outside a Vitest worker (a script importing this file): no template, migrate as before.
    return undefined;
  }
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on
 * the PostgreSQL server named by TEST_DATABASE_URL (dropped again on close). Both start from the
 * run's migrated template when there is one (decision 022-c); openDatabase's own migration step
 * still runs and finds everything applied.
 */
export async function createTestDatabase(options: { onPoolError?: (error: Error) => void } = {}): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const template = migratedTemplate();
  if (!serverUrl) {
    return openDatabase({ kind: 'pglite', dataDir: undefined, loadDataDir: template?.kind === 'pglite' ? template.dumpFile : undefined });
  }

  const created = await createPostgresTestDatabase(serverUrl, { template: template?.kind === 'postgres' ? template.name : undefined });
  const handle = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4, onPoolError: options.onPoolError });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await created.drop();
    },
  };
}
