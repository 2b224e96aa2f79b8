import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { assertSafeKey, type ObjectStorage, type OpenedObject, type StoredObject } from './object-storage.ts';

/** The settings of an S3-compatible store (config.storage.s3). The secret never leaves this adapter. */
export type S3StorageSettings = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
};

/** A missing object: S3 answers NoSuchKey (GET) or a bare 404 (HEAD, and some compatible stores). */
function isMissing(error: unknown): boolean {
  return error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket');
}

/**
 * Objects in one private bucket of an S3-compatible store (AWS S3, Cloudflare R2, Backblaze B2,
 * MinIO) through the official SDK (decision 028-b). Objects are written without an ACL (private,
 * the bucket's default) and read only by the server: staff get them through the guarded routes.
 * A PUT replaces an object at once, so a reader never sees half of one. Checksums are sent and
 * checked only where the operation requires them: several compatible stores refuse the SDK's
 * newer default (CRC32 on every request).
 */
export function createS3Storage(settings: S3StorageSettings): ObjectStorage {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
  const Bucket = settings.bucket;

  async function getObject(key: string): Promise<GetObjectCommandOutput | undefined> {
    assertSafeKey(key);
    try {
      return await client.send(new GetObjectCommand({ Bucket, Key: key }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async function* keys(prefix?: string): AsyncGenerator<string> {
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
      for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  return {
    async put(key, bytes, contentType) {
      assertSafeKey(key);
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.length }));
    },

    async get(key): Promise<StoredObject | undefined> {
      const object = await getObject(key);
      if (!object?.Body) return undefined;
      const bytes = Buffer.from(await object.Body.transformToByteArray());
      return { bytes, contentType: object.ContentType ?? 'application/octet-stream' };
    },

    async open(key): Promise<OpenedObject | undefined> {
      const object = await getObject(key);
      if (!object?.Body) return undefined;
      const body = object.Body;
      const stream = body instanceof Readable ? body : Readable.from(Buffer.from(await body.transformToByteArray()));
      return { stream, contentType: object.ContentType ?? 'application/octet-stream', size: object.ContentLength ?? 0 };
    },

    async delete(key) {
      assertSafeKey(key);
      // S3 answers 204 for a missing key too.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async deletePrefix(prefix) {
      if (!prefix.endsWith('/')) throw new Error(`A storage prefix ends with '/' (got ${JSON.stringify(prefix)})`);
      assertSafeKey(prefix.slice(0, -1));
      // One at a time: a customer has a handful of photos, and DeleteObjects needs a checksum some stores refuse.
      for await (const key of keys(prefix)) await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async *list() {
      // ListObjectsV2 returns keys in UTF-8 binary order: for server-made keys, the same as sort().
      yield* keys();
    },
  };
}
