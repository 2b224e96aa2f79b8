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
});
