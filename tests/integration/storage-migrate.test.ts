import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStorage } from '#server/adapters/storage/file-storage.ts';
import { createObjectStorage, type ObjectStorage } from '#server/adapters/storage/index.ts';
import { migrateUploadsToBucket, StorageMigrationError } from '#server/adapters/storage/migrate-uploads.ts';
import { startFakeS3Server, type FakeS3Server } from '#tests/support/fake-s3-server.ts';
import { testConfig } from '#tests/support/test-app.ts';

// npm run storage:migrate (issue 23, decision 028-b): DATA_DIR/uploads into the bucket, every
// object read back and checked, safe to run twice.
let s3: FakeS3Server;
let dataDir: string;
let bucket: ObjectStorage;
const files = {
  'customers/a1/1700000000000_plate-x1-display.webp': Buffer.from('display bytes of a rating plate'),
  'customers/a1/1700000000000_plate-x1-thumb.webp': Buffer.from('thumb'),
  'signatures/visit-7.png': Buffer.from('a signature png'),
};

beforeAll(async () => {
  s3 = await startFakeS3Server();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-migrate-'));
  const disk = createFileStorage(path.join(dataDir, 'uploads'));
  for (const [key, bytes] of Object.entries(files)) await disk.put(key, bytes, 'image/webp');
  bucket = createObjectStorage(testConfig({ ...s3.env, DATA_DIR: dataDir }));
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const config = () => testConfig({ ...s3.env, DATA_DIR: dataDir });

function runScript(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.resolve('node_modules/.bin/tsx'), ['scripts/storage-migrate.ts'], {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('npm run storage:migrate', () => {
  it('refuses clearly when no bucket is configured, and copies nothing', async () => {
    await expect(migrateUploadsToBucket(testConfig({ DATA_DIR: dataDir }))).rejects.toThrow(StorageMigrationError);
    const { code, out } = await runScript({});
    expect(code).toBe(1);
    expect(out).toContain('No bucket to copy into: set STORAGE_URL, STORAGE_BUCKET, STORAGE_ACCESS_KEY_ID and STORAGE_SECRET_ACCESS_KEY');
  }, 60_000);

  it('copies every file and verifies it; a second run finds them all identical and writes nothing', async () => {
    const { code, out } = await runScript(s3.env);
    expect(out).toContain('3 files in');
    expect(out).toContain('3 copied, 0 replaced (other bytes were there), 0 already identical, 0 failed');
    expect(out).not.toContain(s3.secretAccessKey);
    expect(code).toBe(0);
    for (const [key, bytes] of Object.entries(files)) expect((await bucket.get(key))?.bytes).toEqual(bytes);
    expect((await bucket.get('signatures/visit-7.png'))?.contentType).toBe('image/png');

    const writes = s3.requests.filter((request) => request.method === 'PUT').length;
    expect(await migrateUploadsToBucket(config())).toEqual({ files: 3, copied: 0, identical: 3, replaced: 0, failed: [] });
    expect(s3.requests.filter((request) => request.method === 'PUT').length).toBe(writes);
  }, 60_000);

  it('replaces an object whose bytes differ from the file', async () => {
    await bucket.put('customers/a1/1700000000000_plate-x1-thumb.webp', Buffer.from('something else'), 'image/webp');
    expect(await migrateUploadsToBucket(config())).toEqual({ files: 3, copied: 0, identical: 2, replaced: 1, failed: [] });
    expect((await bucket.get('customers/a1/1700000000000_plate-x1-thumb.webp'))?.bytes).toEqual(files['customers/a1/1700000000000_plate-x1-thumb.webp']);
  });

  it('detects an object the store damaged: reported by key with both checksums, and a non-zero exit', async () => {
    const key = 'signatures/visit-7.png';
    await bucket.delete(key);
    s3.corruptNextWrite(key);
    const report = await migrateUploadsToBucket(config());
    expect(report).toMatchObject({ files: 3, copied: 0, identical: 2, replaced: 0 });
    expect(report.failed).toEqual([{ key, problem: expect.stringMatching(/^read back with SHA-256 [0-9a-f]{64}, the file has [0-9a-f]{64}$/) }]);

    s3.corruptNextWrite(key);
    const { code, out } = await runScript(s3.env);
    expect(code).toBe(1);
    expect(out).toContain(`FAILED ${key}: read back with SHA-256`);
    expect(out).toContain('0 copied, 0 replaced (other bytes were there), 2 already identical, 1 failed');

    // Run again on a healthy store: repaired.
    expect(await migrateUploadsToBucket(config())).toEqual({ files: 3, copied: 0, identical: 2, replaced: 1, failed: [] });
  }, 60_000);
});
