import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerPhoto } from '#shared/customer.ts';
import { createObjectStorage, type ObjectStorage } from '#server/adapters/storage/index.ts';
import { jpegWithGps, multipartBody, webp, type UploadFile } from '#tests/support/images.ts';
import { startFakeS3Server, type FakeS3Server } from '#tests/support/fake-s3-server.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// Customer photos with STORAGE_URL set (issue 23, decision 028-b): uploaded into the bucket, sent
// to staff only through the guarded route, streamed with their length, and removed from the
// bucket with their rows. The secret access key never reaches a log line or an answer.
let s3: FakeS3Server;
let context: TestContext;
let bucket: ObjectStorage;
let cookie: string;
let customerId: string;
const logLines: string[] = [];

async function upload(files: UploadFile[], customer = customerId): Promise<CustomerPhoto[]> {
  const { payload, headers } = await multipartBody(files);
  const response = await context.app.inject({ method: 'POST', url: `/api/admin/customers/${customer}/photos`, payload, headers: { ...headers, cookie } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().photos;
}

async function keysIn(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of bucket.list()) if (key.startsWith(prefix)) keys.push(key);
  return keys;
}

async function newCustomer(name: string): Promise<string> {
  const response = await context.app.inject({ method: 'POST', url: '/api/admin/customers', payload: { name, phone: '843-555-0161', address: '4 Bucket Ln' }, headers: { cookie } });
  expect(response.statusCode).toBe(201);
  return response.json().customer.id;
}

beforeAll(async () => {
  s3 = await startFakeS3Server();
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  context = await createTestApp({ env: { ...s3.env, LOG_LEVEL: 'trace' }, logStream });
  bucket = createObjectStorage(context.config);
  await createStaff(context.database);
  cookie = await signIn(context.app);
  customerId = await newCustomer('Bucket Customer');
});
afterAll(async () => {
  await context?.close();
  await s3?.close();
});

describe('customer photos in an S3 bucket', () => {
  it('stores the display version and the thumbnail in the bucket, nothing on disk', async () => {
    const photos = await upload([
      { name: 'IMG_2041.JPG', bytes: await jpegWithGps(), type: 'image/jpeg' },
      { name: 'outdoor.webp', bytes: await webp() },
    ]);
    expect(photos).toHaveLength(2);
    const keys = await keysIn(`customers/${customerId}/`);
    expect(keys).toHaveLength(4);
    expect(keys.filter((key) => key.endsWith('-display.webp'))).toHaveLength(2);
    expect(keys.filter((key) => key.endsWith('-thumb.webp'))).toHaveLength(2);
    expect(s3.requests.filter((request) => request.method === 'PUT' && request.status === 200)).toHaveLength(4);
    expect(fs.existsSync(path.join(context.config.dataDir, 'uploads', 'customers', customerId))).toBe(false);
  });

  it('streams a photo to staff with its type and length, and refuses a stranger', async () => {
    const [photo] = await upload([{ name: 'plate.webp', bytes: await webp() }]);
    const [row] = await context.database.query<{ object_key: string }>('select object_key from customer_photos where id = $1', [photo!.id]);
    const stored = (await bucket.get(row!.object_key))!;

    const response = await context.app.inject({ method: 'GET', url: photo!.url, headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload).toEqual(stored.bytes);
    expect(response.headers['content-type']).toBe('image/webp');
    expect(response.headers['content-length']).toBe(String(stored.bytes.length));
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toBe('inline');
    const thumbnail = await context.app.inject({ method: 'GET', url: photo!.thumbnailUrl, headers: { cookie } });
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    expect(thumbnail.headers['content-length']).toBe(String(thumbnail.rawPayload.length));

    const reads = s3.requests.length;
    expect((await context.app.inject({ method: 'GET', url: photo!.url })).statusCode).toBe(401);
    expect(s3.requests.length).toBe(reads);
  });

  it('is a 404 when the bucket has lost the object', async () => {
    const [photo] = await upload([{ name: 'lost.webp', bytes: await webp() }]);
    const [row] = await context.database.query<{ object_key: string }>('select object_key from customer_photos where id = $1', [photo!.id]);
    await bucket.delete(row!.object_key);
    const response = await context.app.inject({ method: 'GET', url: photo!.url, headers: { cookie } });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe('Photo not found');
  });

  it('deleting a photo, then the customer, removes their objects from the bucket', async () => {
    const customer = await newCustomer('Leaving Bucket Customer');
    const [keep, drop] = await upload([{ name: 'keep.webp', bytes: await webp() }, { name: 'drop.webp', bytes: await webp() }], customer);
    expect(await keysIn(`customers/${customer}/`)).toHaveLength(4);
    expect((await context.app.inject({ method: 'DELETE', url: `/api/admin/customers/${customer}/photos/${drop!.id}`, headers: { cookie } })).statusCode).toBe(204);
    const remaining = await keysIn(`customers/${customer}/`);
    expect(remaining).toHaveLength(2);
    expect(remaining.every((key) => key.includes('_keep-'))).toBe(true);
    expect(keep).toBeDefined();

    const others = await keysIn(`customers/${customerId}/`);
    expect((await context.app.inject({ method: 'DELETE', url: `/api/admin/customers/${customer}`, headers: { cookie } })).statusCode).toBe(204);
    expect(await keysIn(`customers/${customer}/`)).toEqual([]);
    expect(await keysIn(`customers/${customerId}/`)).toEqual(others);
  });

  it('never writes the secret access key to a log line, even when the configuration is logged', () => {
    context.app.log.info({ storage: context.config.storage }, 'storage settings');
    const logged = logLines.join('\n');
    expect(logged).toContain('storage settings');
    expect(logged).toContain('[Redacted]');
    expect(logged).toContain(s3.bucket);
    expect(logged).not.toContain(s3.secretAccessKey);
  });
});
