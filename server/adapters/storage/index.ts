import path from 'node:path';
import type { AppConfig } from '#server/config.ts';
import { createFileStorage } from './file-storage.ts';
import type { ObjectStorage } from './object-storage.ts';

export type { ObjectStorage, StoredObject } from './object-storage.ts';

/** The photo store: files under DATA_DIR/uploads (the only store for now; see decision 010). */
export function createObjectStorage(config: Pick<AppConfig, 'dataDir'>): ObjectStorage {
  return createFileStorage(path.join(config.dataDir, 'uploads'));
}
