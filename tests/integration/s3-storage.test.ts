import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage } from '#server/adapters/storage/s3-storage.ts';
import { createObjectStorage, type ObjectStorage } from '#server/adapters/storage/index.ts';
import { startFakeS3Server, type FakeS3Server } from '#tests/support/fake-s3-server.ts';
import { testConfig } from '#tests/support/test-app.ts';

let s3: FakeS3Server;
let storage: ObjectStorage;

beforeAll(async () => {
  s3 = await startFakeS3Server();
  storage = createObjectStorage(testConfig(s3.env));
});

afterAll(async () => {
  await s3?.close();
});

async function keys(store: ObjectStorage): Promise<string[]> {
  const found: string[] = [];
  for await (const key of store.list()) found.push(key);
  return found;
}

async function read(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('the S3 store (against a local S3-compatible server)', () => {
  it('is chosen when STORAGE_URL is set, with path-style addressing for a custom endpoint', () => {
    const config = testConfig(s3.env);
    expect(config.storage.s3).toMatchObject({ endpoint: s3.url, bucket: s3.bucket, region: 'us-east-1', forcePathStyle: true });
  });

  it('puts, gets, opens as a stream, lists and deletes objects', async () => {
    const bytes = Buffer.from('RIFF....WEBPVP8 a photo');
    await storage.put('customers/c1/1_plate-a-display.webp', bytes, 'image/webp');
    await storage.put('customers/c1/1_plate-a-thumb.webp', Buffer.from('thumb'), 'image/webp');
    await storage.put('customers/c2/2_unit-b-display.webp', Buffer.from('other'), 'image/webp');

    expect(await storage.get('customers/c1/1_plate-a-display.webp')).toEqual({ bytes, contentType: 'image/webp' });
    const opened = await storage.open('customers/c1/1_plate-a-display.webp');
    expect(opened?.size).toBe(bytes.length);
    expect(opened?.contentType).toBe('image/webp');
    expect(await read(opened!.stream)).toEqual(bytes);
    expect(await keys(storage)).toEqual(['customers/c1/1_plate-a-display.webp', 'customers/c1/1_plate-a-thumb.webp', 'customers/c2/2_unit-b-display.webp']);

    await storage.put('customers/c1/1_plate-a-display.webp', Buffer.from('replaced'), 'image/webp');
    expect((await storage.get('customers/c1/1_plate-a-display.webp'))?.bytes.toString()).toBe('replaced');

    await storage.delete('customers/c2/2_unit-b-display.webp');
    await storage.delete('customers/c2/2_unit-b-display.webp');
    await storage.deletePrefix('customers/c1/');
    expect(await keys(storage)).toEqual([]);
  });

  it('answers undefined for a missing object, as the file store does', async () => {
    expect(await storage.get('customers/none/missing.webp')).toBeUndefined();
    expect(await storage.open('customers/none/missing.webp')).toBeUndefined();
  });

  it('lists past one page of keys', async () => {
    const many = Array.from({ length: 1005 }, (_, index) => `bulk/${String(index).padStart(4, '0')}.webp`);
    // s3rver keeps objects as files: the first write makes the folder, then writes go 20 at a time.
    await storage.put(many[0]!, Buffer.from(many[0]!), 'image/webp');
    for (let start = 1; start < many.length; start += 20) {
      await Promise.all(many.slice(start, start + 20).map((key) => storage.put(key, Buffer.from(key), 'image/webp')));
    }
    expect(await keys(storage)).toEqual(many);
    await storage.deletePrefix('bulk/');
    expect(await keys(storage)).toEqual([]);
  }, 120_000);

  it('refuses keys the server would never make, before any request', async () => {
    const before = s3.requests.length;
    await expect(storage.put('../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow(/Refused storage key/);
    await expect(storage.get('Customers/UPPER.webp')).rejects.toThrow(/Refused storage key/);
    expect(s3.requests.length).toBe(before);
  });

  it('signs every request: the local server refuses a wrong secret, so the checks are real', async () => {
    const wrong = createS3Storage({ endpoint: s3.url, bucket: s3.bucket, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: 'not-the-secret', forcePathStyle: true });
    await expect(wrong.get('customers/c1/any.webp')).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    await expect(wrong.put('customers/c1/any.webp', Buffer.from('x'), 'image/webp')).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    expect(await keys(storage)).toEqual([]);
  });

  it('keeps objects private: an unsigned request is refused', async () => {
    await storage.put('customers/c3/private.webp', Buffer.from('private'), 'image/webp');
    const answer = await fetch(`${s3.url}/${s3.bucket}/customers/c3/private.webp`);
    expect(answer.status).toBe(403);
    await storage.delete('customers/c3/private.webp');
  });
});
