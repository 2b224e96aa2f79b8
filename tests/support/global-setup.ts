/**
 * Migrates once per test run (decision 022-c): every test file's database starts from a migrated
 * template instead of running the 27 migrations itself.
 *
 * - PGlite: one in-memory database, created as the worker thread creates its own
 *   (pgliteCreateOptions), migrated, and dumped to a file; createTestDatabase opens each test's
 *   database from it (openDatabase's `loadDataDir`), which skips initdb (about 2 s of the 2.5 s
 *   a fresh migrated database took).
 * - PostgreSQL (TEST_DATABASE_URL): a database `hvac_tpl_<random>` migrated by openDatabase and
 *   closed again (CREATE DATABASE … TEMPLATE refuses a template anyone is connected to); each
 *   test database is a copy of it. Dropped at the end of the run.
 *
 * openDatabase still runs its migration step on every test database and finds everything applied.
 * Tests of the migrations themselves use an empty database (createPostgresTestDatabase, or
 * openDatabase on PGlite directly), as before.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { migrationsFolder, openDatabase } from '#server/db/client.ts';
import { pgliteCreateOptions } from '#server/db/pglite-options.ts';
import { withAdminClient } from './postgres-admin.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template createTestDatabase starts from (see tests/support/global-setup.ts). */
    testDatabaseTemplate: { kind: 'pglite'; dumpFile: string } | { kind: 'postgres'; name: string } | undefined;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `hvac_tpl_${randomBytes(8).toString('hex')}`;
    const admin = (statement: string) => withAdminClient(serverUrl, (client) => client.query(statement));
    const drop = async () => {
      await admin(`drop database if exists "${name}" with (force)`);
    };
    await admin(`create database "${name}"`);
    try {
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
      await database.close();
    } catch (error) {
      await drop();
      throw error;
    }
    project.provide('testDatabaseTemplate', { kind: 'postgres', name });
    return drop;
  }

  const directory = await mkdtemp(path.join(os.tmpdir(), 'hvac-test-template-'));
  try {
    const client = await PGlite.create(pgliteCreateOptions);
    try {
      await migrate(drizzle({ client }), { migrationsFolder });
      // Uncompressed: each test file reads it from the page cache; gzip saves no time there.
      const dump = await client.dumpDataDir('none');
      const dumpFile = path.join(directory, 'migrated.tar');
      await writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
      project.provide('testDatabaseTemplate', { kind: 'pglite', dumpFile });
    } finally {
      await client.close();
    }
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return () => rm(directory, { recursive: true, force: true });
}
