import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStorage } from '#server/adapters/storage/file-storage.ts';
import { createObjectStorage, type ObjectStorage } from '#server/adapters/storage/index.ts';
import { restoreBackup } from '#server/db/backup.ts';
import { newBackupPlace, seedAndBackUp } from '#tests/support/backup-fixture.ts';
import { startFakeS3Server, type FakeS3Server } from '#tests/support/fake-s3-server.ts';
import { testConfig } from '#tests/support/test-app.ts';

// Backups with photos in S3 (issue 23, decision 028-b): the archive holds every object with its
// checksum, and restores into an S3 store or a file store alike; PGlite, or PostgreSQL with
// TEST_DATABASE_URL.
let workDir: string;
const cleanups: (() => Promise<void>)[] = [];
let s3: FakeS3Server;
let bucket: ObjectStorage;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-backup-s3-'));
  s3 = await startFakeS3Server();
  bucket = createObjectStorage(testConfig(s3.env));
});
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  await s3?.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

async function objectsOf(store: ObjectStorage): Promise<Record<string, Buffer>> {
  const objects: Record<string, Buffer> = {};
  for await (const key of store.list()) objects[key] = (await store.get(key))!.bytes;
  return objects;
}

async function emptyBucket(): Promise<void> {
  for await (const key of bucket.list()) await bucket.delete(key);
}

describe('backup and restore with photos in S3', () => {
  it('backs up the bucket’s objects with checksums, never the keys, and restores them into a file store', async () => {
    const source = await newBackupPlace(workDir, 'from-s3', cleanups);
    const archive = path.join(workDir, 'from-s3.tar.gz');
    const manifest = await seedAndBackUp(source, archive, bucket);
    const objects = await objectsOf(bucket);
    expect(Object.keys(objects)).toHaveLength(1);
    expect(manifest.files).toEqual([{ path: `uploads/${Object.keys(objects)[0]}`, bytes: Object.values(objects)[0]!.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(fs.existsSync(source.uploadsDir)).toBe(false);
    const text = gunzipSync(fs.readFileSync(archive)).toString('latin1');
    expect(text).not.toContain(s3.secretAccessKey);

    const target = await newBackupPlace(workDir, 'into-files', cleanups);
    const database = await target.open();
    try {
      const result = await restoreBackup({ database, uploadsDir: target.uploadsDir, archive });
      expect(result.files).toBe(1);
    } finally {
      await database.close();
    }
    expect(await objectsOf(createFileStorage(target.uploadsDir))).toEqual(objects);
    await emptyBucket();
  });

  it('restores a file store’s backup into an empty bucket, and refuses a bucket that holds objects', async () => {
    const source = await newBackupPlace(workDir, 'from-files', cleanups);
    const archive = path.join(workDir, 'from-files.tar.gz');
    await seedAndBackUp(source, archive);
    const photos = await objectsOf(createFileStorage(source.uploadsDir));
    expect(Object.keys(photos)).toHaveLength(1);

    await bucket.put('customers/someone/left-over.webp', Buffer.from('x'), 'image/webp');
    const refused = await newBackupPlace(workDir, 'refused', cleanups);
    let database = await refused.open();
    try {
      await expect(restoreBackup({ database, uploadsDir: refused.uploadsDir, storage: bucket, archive })).rejects.toThrow(/the photos' bucket holds 1 object/);
    } finally {
      await database.close();
    }
    await emptyBucket();

    const target = await newBackupPlace(workDir, 'into-s3', cleanups);
    database = await target.open();
    try {
      const result = await restoreBackup({ database, uploadsDir: target.uploadsDir, storage: bucket, archive });
      expect(result.files).toBe(1);
      const [row] = await database.query<{ object_key: string; content_type: string }>('select object_key, content_type from customer_photos');
      const stored = await bucket.get(row!.object_key);
      expect(stored).toEqual({ bytes: photos[row!.object_key], contentType: 'image/png' });
    } finally {
      await database.close();
    }
    expect(await objectsOf(bucket)).toEqual(photos);
    expect(fs.existsSync(target.uploadsDir)).toBe(false);
    await emptyBucket();
  });

  it('a restore into a bucket that fails, in the bucket or in the rows, leaves neither rows nor objects, and can be run again', async () => {
    const source = await newBackupPlace(workDir, 'for-failures', cleanups);
    const archive = path.join(workDir, 'for-failures.tar.gz');
    await seedAndBackUp(source, archive);
    const photos = await objectsOf(createFileStorage(source.uploadsDir));
    const target = await newBackupPlace(workDir, 'failing-target', cleanups);
    const database = await target.open();
    const through = (put: ObjectStorage['put']): ObjectStorage => ({
      put,
      get: (key) => bucket.get(key),
      delete: (key) => bucket.delete(key),
      deletePrefix: (prefix) => bucket.deletePrefix(prefix),
      open: (key) => bucket.open(key),
      list: () => bucket.list(),
    });
    const customerRows = async () => (await database.query('select 1 from customers')).length;
    try {
      // The store takes the object, then the connection drops before it answers.
      const dropped = through(async (key, bytes, contentType) => {
        await bucket.put(key, bytes, contentType);
        throw new Error('socket hang up');
      });
      await expect(restoreBackup({ database, uploadsDir: target.uploadsDir, storage: dropped, archive })).rejects.toThrow(/Could not write the photos into the bucket \(socket hang up\); nothing was restored/);
      expect(await objectsOf(bucket)).toEqual({});
      expect(await customerRows()).toBe(0);

      // The objects are written, then the rows' transaction fails (a row of the same id appeared meanwhile).
      let conflictingId = '';
      const raced = through(async (key, bytes, contentType) => {
        await bucket.put(key, bytes, contentType);
        conflictingId = key.split('/')[1]!;
        await database.query("insert into customers (id, name, phone, address, city, state, zip) values ($1, 'Written meanwhile', '(843) 555-0199', '1 Bay St', 'Beaufort', 'SC', '29902')", [conflictingId]);
      });
      await expect(restoreBackup({ database, uploadsDir: target.uploadsDir, storage: raced, archive })).rejects.toThrow();
      expect(await objectsOf(bucket)).toEqual({});
      expect(await database.query('select name from customers')).toEqual([{ name: 'Written meanwhile' }]);
      await database.query('delete from customers where id = $1', [conflictingId]);

      // Run again on the same empty target: everything arrives.
      const result = await restoreBackup({ database, uploadsDir: target.uploadsDir, storage: bucket, archive });
      expect(result.files).toBe(1);
      expect(await objectsOf(bucket)).toEqual(photos);
      expect(await customerRows()).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
    await emptyBucket();
  });
});
