import type { Readable } from 'node:stream';

/**
 * Where uploaded files (customer photos) live. Keys are made by the server only, never from user
 * input: lower-case letters, digits, '-', '_', '.' and '/' as a separator, no '..' segment.
 * Offline default: files under DATA_DIR/uploads (file-storage.ts); with STORAGE_URL set, a
 * private bucket of an S3-compatible store (s3-storage.ts, decision 028-b).
 */
export type StoredObject = { bytes: Buffer; contentType: string };

/** An object being read: its bytes as a stream (read it to the end or destroy it) and its length. */
export type OpenedObject = { stream: Readable; contentType: string; size: number };

export interface ObjectStorage {
  /** Stores the bytes under the key, replacing what was there; a reader never sees a half-written object. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The object, or undefined when there is none. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with the prefix (which must end with '/'). */
  deletePrefix(prefix: string): Promise<void>;
  /** The object as a stream, or undefined when there is none (the photo routes send it as it comes). */
  open(key: string): Promise<OpenedObject | undefined>;
  /** Every key of the store, sorted (backups and npm run storage:migrate read them all). */
  list(): AsyncIterable<string>;
}

const contentTypes: Record<string, string> = {
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
};

/** The content type a key's ending says (the server names every object it writes with one of these). */
export function contentTypeOfKey(key: string): string {
  const dot = key.lastIndexOf('.');
  return (dot === -1 ? undefined : contentTypes[key.slice(dot).toLowerCase()]) ?? 'application/octet-stream';
}

const keyPattern = /^[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)*$/;

/** Throws unless the key has the shape the server makes (a defence in depth: callers build keys themselves). */
export function assertSafeKey(key: string): void {
  if (key.length > 512 || !keyPattern.test(key) || key.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new Error(`Refused storage key ${JSON.stringify(key)}`);
  }
}
