import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStorage } from '#server/adapters/storage/file-storage.ts';
import { createBackup, restoreBackup, schemaTables, type BackupManifest } from '#server/db/backup.ts';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { seedDemoData } from '#server/db/seed/demo-data.ts';
import { createStaff } from '#tests/support/test-app.ts';
import { createPostgresTestDatabase } from '#tests/support/test-database.ts';
import { png } from '#tests/support/images.ts';

// npm run db:backup / db:restore (issue 10): a round trip from a seeded database with an uploaded
// photo into a new, empty target compares every table of the schema row by row, every sequence
// and every file byte for byte. PGlite data directories by default; PostgreSQL databases (a fresh
// source and a fresh target) when TEST_DATABASE_URL is set.
const isPostgres = Boolean(process.env.TEST_DATABASE_URL);
let workDir: string;
const cleanups: (() => Promise<void>)[] = [];

type Target = { dataDir: string; databaseUrl: string | undefined; open: () => Promise<DatabaseHandle> };

/** A new, empty place to put data: a data directory, plus a new database on PostgreSQL. */
async function newTarget(name: string): Promise<Target> {
  const dataDir = path.join(workDir, name);
  if (!isPostgres) return { dataDir, databaseUrl: undefined, open: () => openDatabase({ kind: 'pglite', dataDir }) };
  const created = await createPostgresTestDatabase(process.env.TEST_DATABASE_URL!);
  cleanups.push(created.drop);
  return { dataDir, databaseUrl: created.url, open: () => openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 }) };
}

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-backup-'));
});
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** Every row of every table in primary-key order, as PostgreSQL's JSON text; and each sequence's state. */
async function snapshotOf(database: DatabaseHandle): Promise<{ tables: Record<string, string[]>; sequences: unknown[] }> {
  const tables: Record<string, string[]> = {};
  for (const table of await schemaTables(database.db)) {
    const order = table.primaryKey.map((column) => `"${column}"`).join(', ');
    const rows = await database.query<{ row: string }>(`select row_to_json(t)::text as row from "${table.name}" t order by ${order}`);
    tables[table.name] = rows.map((row) => row.row);
  }
  const sequences = await database.query(`select last_value::text, is_called from work_order_number_seq`);
  return { tables, sequences };
}

function filesUnder(root: string): Record<string, Buffer> {
  if (!fs.existsSync(root)) return {};
  const files: Record<string, Buffer> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files[path.relative(root, path.join(entry.parentPath, entry.name))] = fs.readFileSync(path.join(entry.parentPath, entry.name));
  }
  return files;
}

function run(script: string, args: string[], target: Target): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      env: { ...process.env, DATA_DIR: target.dataDir, LOG_LEVEL: 'silent', DATABASE_URL: target.databaseUrl ?? '', INIT_CWD: workDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('backup and restore', () => {
  let source: Target;
  let archive: string;
  let manifest: BackupManifest;
  let expected: Awaited<ReturnType<typeof snapshotOf>>;
  let expectedFiles: Record<string, Buffer>;

  beforeAll(async () => {
    source = await newTarget('source');
    const database = await source.open();
    try {
      await seedDemoData(database.db, { customers: 40, workOrders: 160 });
      await createStaff(database);
      // A photo as the upload pipeline stores it: the file under DATA_DIR/uploads and its row.
      const [customer] = await database.query<{ id: string }>('select id from customers order by id limit 1');
      const key = `customers/${customer!.id}/1700000000000_front-yard.png`;
      const bytes = await png(64, 48);
      await createFileStorage(path.join(source.dataDir, 'uploads')).put(key, bytes, 'image/png');
      await database.query('insert into customer_photos (customer_id, object_key, content_type, width, height, size_bytes) values ($1, $2, $3, 64, 48, $4)', [
        customer!.id,
        key,
        'image/png',
        bytes.length,
      ]);
      // Messaging (issue 18): a consent and a planned message come back as they were; the planner's
      // queue (message_triggers, filled by the updates below) comes back as it was, not refilled by the load.
      await database.query(`insert into customer_message_consents (customer_id, channel, status, source) values ($1, 'sms', 'opted_in', 'form')`, [customer!.id]);
      await database.query(
        `insert into messages (type, channel, customer_id, recipient, dedupe_key, send_at) values ('appointment_reminder', 'sms', $1, '+18432712001', 'backup-test', now())`,
        [customer!.id],
      );
      // A status that dropped to zero keeps its counter row: the restore must bring it back too.
      await database.query(`update work_orders set status = 'cancelled' where id = (select id from work_orders order by id limit 1)`);
      await database.query(`update work_orders set status = 'completed' where status = 'cancelled'`);

      archive = path.join(workDir, 'backup.tar.gz');
      ({ manifest } = await createBackup({ database, uploadsDir: path.join(source.dataDir, 'uploads'), outFile: archive, appVersion: '0.1.0-test' }));
      expected = await snapshotOf(database);
    } finally {
      await database.close();
    }
    expectedFiles = filesUnder(path.join(source.dataDir, 'uploads'));
  });

  it('writes one archive whose manifest lists every table with its rows, the migration level and each file with its checksum', async () => {
    expect(fs.existsSync(archive)).toBe(true);
    expect(fs.existsSync(`${archive}.partial`)).toBe(false);
    expect(manifest.format).toBe('lowcountry-hvac-backup');
    expect(manifest.source).toBe(isPostgres ? 'postgres' : 'pglite');
    expect(manifest.migrations.count).toBeGreaterThan(10);
    expect(Object.fromEntries(manifest.tables.map((table) => [table.name, table.rows]))).toEqual(
      Object.fromEntries(Object.entries(expected.tables).map(([name, rows]) => [name, rows.length])),
    );
    // Referenced before referencing; the trigger-kept counters last.
    const order = manifest.tables.map((table) => table.name);
    expect(order.indexOf('customers')).toBeLessThan(order.indexOf('work_orders'));
    expect(order.indexOf('work_orders')).toBeLessThan(order.indexOf('work_order_tasks'));
    expect(order.at(-1)).toBe('work_order_status_counts');
    expect(manifest.files).toHaveLength(1);
    expect(manifest.files[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(expected.tables.work_orders!.length).toBe(160);
    expect(expected.tables.work_order_status_counts!.some((row) => JSON.parse(row).count === 0)).toBe(true);
    expect(expected.tables.message_triggers!.length).toBeGreaterThan(0);
    expect(expected.tables.message_triggers!.length).toBeLessThan(160);
  });

  it('restores into a new, empty target: every table, sequence and file the same', { timeout: 120_000 }, async () => {
    const target = await newTarget('restored');
    const database = await target.open();
    try {
      const result = await restoreBackup({ database, uploadsDir: path.join(target.dataDir, 'uploads'), archive });
      expect(result.rows).toBe(manifest.tables.reduce((sum, table) => sum + table.rows, 0));
      const restored = await snapshotOf(database);
      expect(Object.keys(restored.tables).sort()).toEqual(Object.keys(expected.tables).sort());
      for (const name of Object.keys(expected.tables)) expect({ name, rows: restored.tables[name] }).toEqual({ name, rows: expected.tables[name] });
      expect(restored.sequences).toEqual(expected.sequences);
      // The restored database goes on numbering where the source stopped.
      const [next] = await database.query<{ number: string }>(`select 'WO-' || nextval('work_order_number_seq') as number`);
      const numbers = expected.tables.work_orders!.map((row) => Number((JSON.parse(row) as { work_order_number: string }).work_order_number.slice(3)));
      expect(Number(next!.number.slice(3))).toBe(Math.max(...numbers) + 1);

      // Restoring again into the now non-empty target is refused, naming what is there.
      await expect(restoreBackup({ database, uploadsDir: path.join(target.dataDir, 'uploads'), archive })).rejects.toThrow(
        /Refusing to restore: the target is not empty \(the database has rows in .*customers.*; .* holds 1 file\(s\)\)/,
      );
    } finally {
      await database.close();
    }
    const restoredFiles = filesUnder(path.join(target.dataDir, 'uploads'));
    expect(Object.keys(restoredFiles)).toEqual(Object.keys(expectedFiles));
    for (const [name, bytes] of Object.entries(expectedFiles)) expect(restoredFiles[name]!.equals(bytes)).toBe(true);
  });

  it.runIf(isPostgres)('moves a PostgreSQL backup into the embedded database (the dump is plain SQL values)', { timeout: 120_000 }, async () => {
    const dataDir = path.join(workDir, 'pglite-from-postgres');
    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      await restoreBackup({ database, uploadsDir: path.join(dataDir, 'uploads'), archive });
      const restored = await snapshotOf(database);
      for (const name of Object.keys(expected.tables)) expect({ name, rows: restored.tables[name] }).toEqual({ name, rows: expected.tables[name] });
      expect(restored.sequences).toEqual(expected.sequences);
    } finally {
      await database.close();
    }
  });

  it('refuses a damaged archive before writing anything', async () => {
    const damaged = path.join(workDir, 'damaged.tar.gz');
    const bytes = fs.readFileSync(archive);
    fs.writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const target = await newTarget('damaged-target');
    const database = await target.open();
    try {
      await expect(restoreBackup({ database, uploadsDir: path.join(target.dataDir, 'uploads'), archive: damaged })).rejects.toThrow(/Could not read .* as a \.tar\.gz backup/);
      const [row] = await database.query<{ count: number }>('select count(*)::int as count from customers');
      expect(row!.count).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('npm run db:backup and db:restore: the commands, their messages and their refusals', { timeout: 120_000 }, async () => {
    const cliArchive = 'cli-backup.tar.gz';
    const backup = await run('scripts/db-backup.ts', ['--out', cliArchive], source);
    expect(backup.stderr).toBe('');
    expect(backup.stdout).toMatch(new RegExp(`^Backed up \\d+ rows in ${manifest.tables.length} tables and 1 uploaded files .* to ${path.join(workDir, cliArchive).replace(/[.]/g, '\\.')}`));
    expect(backup.code).toBe(0);

    const again = await run('scripts/db-backup.ts', ['--out', cliArchive], source);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists; not overwriting it');

    const target = await newTarget('cli-restored');
    const restore = await run('scripts/db-restore.ts', [cliArchive], target);
    expect(restore.stderr).toBe('');
    expect(restore.stdout).toMatch(/^Restored \d+ rows and 1 uploaded files from the backup of /);
    expect(restore.code).toBe(0);

    const refused = await run('scripts/db-restore.ts', [cliArchive], target);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Refusing to restore: the target is not empty');

    const database = await target.open();
    try {
      const restored = await snapshotOf(database);
      for (const name of Object.keys(expected.tables)) expect(restored.tables[name]).toHaveLength(expected.tables[name]!.length);
    } finally {
      await database.close();
    }
  });

  it.skipIf(isPostgres)('db:backup is refused, with what to do, while the server holds the embedded database', async () => {
    const holder = await source.open();
    try {
      const result = await run('scripts/db-backup.ts', ['--out', 'while-running.tar.gz'], source);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/Cannot back up .*: the server \(pid \d+\) has the embedded database open.*Stop the server, run npm run db:backup, start it again/);
      expect(fs.existsSync(path.join(workDir, 'while-running.tar.gz'))).toBe(false);
    } finally {
      await holder.close();
    }
  });
});
