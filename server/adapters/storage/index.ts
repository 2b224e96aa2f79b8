import path from 'node:path';
import type { AppConfig } from '#server/config.ts';
import { createFileStorage } from './file-storage.ts';
import type { ObjectStorage } from './object-storage.ts';
import { createS3Storage } from './s3-storage.ts';

export type { ObjectStorage, OpenedObject, StoredObject } from './object-storage.ts';

/**
 * The photo store: a private bucket of an S3-compatible store when STORAGE_URL is set (decision
 * 028-b), else files under DATA_DIR/uploads (decision 010).
 */
export function createObjectStorage(config: Pick<AppConfig, 'dataDir' | 'storage'>): ObjectStorage {
  if (config.storage.s3) return createS3Storage(config.storage.s3);
  return createFileStorage(path.join(config.dataDir, 'uploads'));
}

/** Where the photos are, for messages: the bucket (never the keys) or the folder. */
export function describeObjectStorage(config: Pick<AppConfig, 'dataDir' | 'storage'>): string {
  const s3 = config.storage.s3;
  return s3 ? `bucket ${s3.bucket} at ${s3.endpoint}` : path.join(config.dataDir, 'uploads');
}
