import fs from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import { createFileStorage } from '#server/adapters/storage/file-storage.ts';
import type { ObjectStorage } from '#server/adapters/storage/object-storage.ts';
import { createBackup, type BackupManifest } from '#server/db/backup.ts';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { seedDemoData } from '#server/db/seed/demo-data.ts';
import { createStaff } from '#tests/support/test-app.ts';
import { createPostgresTestDatabase } from '#tests/support/test-database.ts';
import { png } from '#tests/support/images.ts';

/**
 * Backups for tests: a place to back up from or restore into (a data directory, plus a new
 * PostgreSQL database when TEST_DATABASE_URL is set), a small source backup with staff, customers
 * and one photo, and an archive rewritten as someone tampering with it would.
 */
export type BackupPlace = { dataDir: string; uploadsDir: string; databaseUrl: string | undefined; open: () => Promise<DatabaseHandle> };

export async function newBackupPlace(workDir: string, name: string, cleanups: (() => Promise<void>)[]): Promise<BackupPlace> {
  const dataDir = path.join(workDir, name);
  const uploadsDir = path.join(dataDir, 'uploads');
  if (!process.env.TEST_DATABASE_URL) return { dataDir, uploadsDir, databaseUrl: undefined, open: () => openDatabase({ kind: 'pglite', dataDir }) };
  const created = await createPostgresTestDatabase(process.env.TEST_DATABASE_URL);
  cleanups.push(created.drop);
  return { dataDir, uploadsDir, databaseUrl: created.url, open: () => openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 }) };
}

/** Seeds the place (a staff account, a few customers and work orders, one photo: in `storage` when given) and backs it up to `archive`. */
export async function seedAndBackUp(place: BackupPlace, archive: string, storage?: ObjectStorage): Promise<BackupManifest> {
  const database = await place.open();
  try {
    await seedDemoData(database.db, { customers: 5, workOrders: 10 });
    await createStaff(database);
    const [customer] = await database.query<{ id: string }>('select id from customers order by id limit 1');
    const key = `customers/${customer!.id}/1700000000000_front.png`;
    const bytes = await png(16, 16);
    await (storage ?? createFileStorage(place.uploadsDir)).put(key, bytes, 'image/png');
    await database.query('insert into customer_photos (customer_id, object_key, content_type, width, height, size_bytes) values ($1, $2, $3, 16, 16, $4)', [
      customer!.id,
      key,
      'image/png',
      bytes.length,
    ]);
    return (await createBackup({ database, uploadsDir: place.uploadsDir, storage, outFile: archive, appVersion: '0.1.0-test' })).manifest;
  } finally {
    await database.close();
  }
}

/** Extracts `archive`, lets `edit` change the files (the manifest is passed parsed and written back), packs it as `out`. */
export async function tamperWith(archive: string, out: string, edit: (folder: string, manifest: BackupManifest) => void): Promise<string> {
  const folder = fs.mkdtempSync(`${out}.dir-`);
  try {
    await tar.x({ file: archive, cwd: folder });
    const manifestFile = path.join(folder, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
    edit(folder, manifest);
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    await tar.c({ gzip: true, file: out, cwd: folder, portable: true }, fs.readdirSync(folder));
    return out;
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** What a refused restore must have left: no row in any table, no uploaded file. */
export async function isUntouched(database: DatabaseHandle, uploadsDir: string): Promise<boolean> {
  const [row] = await database.query<{ count: number }>(
    `select ((select count(*) from customers) + (select count(*) from staff_users) + (select count(*) from work_orders) + (select count(*) from customer_photos))::int as count`,
  );
  const files = fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir, { recursive: true }) : [];
  return row!.count === 0 && files.length === 0;
}
