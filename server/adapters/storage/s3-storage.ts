import { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { GetObjectCommandOutput, S3Client } from '@aws-sdk/client-s3';
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

/** A missing object: S3 answers NoSuchKey (GET) or a bare 404 (HEAD, and some compatible stores); a missing bucket is an error. */
function isMissing(error: unknown): boolean {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return failure.name === 'NoSuchKey' || (failure.$metadata?.httpStatusCode === 404 && failure.name !== 'NoSuchBucket');
}

/** The SDK is loaded with the first request (about 200 ms of start-up saved for every install that keeps photos on disk). */
let sdkLoading: Promise<typeof S3Sdk> | undefined;
const loadSdk = () => (sdkLoading ??= import('@aws-sdk/client-s3'));

/**
 * Objects in one private bucket of an S3-compatible store (AWS S3, Cloudflare R2, Backblaze B2,
 * MinIO) through the official SDK (decision 028-b). Objects are written without an ACL (private,
 * the bucket's default) and read only by the server: staff get them through the guarded routes.
 * A PUT replaces an object at once, so a reader never sees half of one. Checksums are sent and
 * checked only where the operation requires them: several compatible stores refuse the SDK's
 * newer default (CRC32 on every request).
 */
export function createS3Storage(settings: S3StorageSettings): ObjectStorage {
  let connecting: Promise<{ client: S3Client; sdk: typeof S3Sdk }> | undefined;
  const connect = () =>
    (connecting ??= loadSdk().then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint: settings.endpoint,
        region: settings.region,
        forcePathStyle: settings.forcePathStyle,
        credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 3,
      }),
    })));
  const Bucket = settings.bucket;

  async function getObject(key: string): Promise<GetObjectCommandOutput | undefined> {
    assertSafeKey(key);
    const { client, sdk } = await connect();
    try {
      return await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async function* keys(prefix?: string): AsyncGenerator<string> {
    const { client, sdk } = await connect();
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
      for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  return {
    async put(key, bytes, contentType) {
      assertSafeKey(key);
      const { client, sdk } = await connect();
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.length }));
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
      const { client, sdk } = await connect();
      // S3 answers 204 for a missing key too.
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },

    async deletePrefix(prefix) {
      if (!prefix.endsWith('/')) throw new Error(`A storage prefix ends with '/' (got ${JSON.stringify(prefix)})`);
      assertSafeKey(prefix.slice(0, -1));
      // One at a time: a customer has a handful of photos, and DeleteObjects needs a checksum some stores refuse.
      const { client, sdk } = await connect();
      for await (const key of keys(prefix)) await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },

    async *list() {
      // ListObjectsV2 returns keys in UTF-8 binary order: for server-made keys, the same as sort().
      yield* keys();
    },
  };
}
