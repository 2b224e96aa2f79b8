import { createHash } from 'node:crypto';
import path from 'node:path';
import type { AppConfig } from '#server/config.ts';
import { createFileStorage } from './file-storage.ts';
import { contentTypeOfKey, type ObjectStorage } from './object-storage.ts';
import { createS3Storage } from './s3-storage.ts';

export type MigrationReport = {
  /** Files found under DATA_DIR/uploads. */
  files: number;
  /** Written to the bucket and verified. */
  copied: number;
  /** Already in the bucket with the same SHA-256: not written again. */
  identical: number;
  /** In the bucket with other bytes: written again and verified. */
  replaced: number;
  /** Keys whose object did not read back with the file's SHA-256 (or could not be written), with why. */
  failed: { key: string; problem: string }[];
};

export class StorageMigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StorageMigrationError';
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Copies every file of `source` into `target` (npm run storage:migrate, decision 028-b): an object
 * already holding the same bytes is skipped, any other is written, then read back and its SHA-256
 * compared with the file's. Safe to run again: a second run finds every object identical. A
 * failure is reported per key and the others go on; nothing is deleted from either side.
 */
export async function copyUploads(source: ObjectStorage, target: ObjectStorage, onProgress?: (done: number) => void): Promise<MigrationReport> {
  const report: MigrationReport = { files: 0, copied: 0, identical: 0, replaced: 0, failed: [] };
  for await (const key of source.list()) {
    report.files += 1;
    const file = await source.get(key);
    if (!file) continue;
    const expected = sha256(file.bytes);
    try {
      const existing = await target.get(key);
      if (existing && sha256(existing.bytes) === expected) {
        report.identical += 1;
      } else {
        await target.put(key, file.bytes, contentTypeOfKey(key));
        const written = await target.get(key);
        if (!written) throw new Error('not found when read back');
        const actual = sha256(written.bytes);
        if (actual !== expected) throw new Error(`read back with SHA-256 ${actual}, the file has ${expected}`);
        if (existing) report.replaced += 1;
        else report.copied += 1;
      }
    } catch (error) {
      report.failed.push({ key, problem: (error as Error).message });
    }
    onProgress?.(report.files);
  }
  return report;
}

/** The configured migration: DATA_DIR/uploads into the configured bucket; refused when no bucket is configured. */
export async function migrateUploadsToBucket(config: Pick<AppConfig, 'dataDir' | 'storage'>, onProgress?: (done: number) => void): Promise<MigrationReport> {
  if (!config.storage.s3) {
    throw new StorageMigrationError(
      'No bucket to copy into: set STORAGE_URL, STORAGE_BUCKET, STORAGE_ACCESS_KEY_ID and STORAGE_SECRET_ACCESS_KEY (see README), then run npm run storage:migrate again. ' +
        `Nothing was copied; the photos stay in ${path.join(config.dataDir, 'uploads')}.`,
    );
  }
  return copyUploads(createFileStorage(path.join(config.dataDir, 'uploads')), createS3Storage(config.storage.s3), onProgress);
}
