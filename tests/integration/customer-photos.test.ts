import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerPhotoMessages, photoUploadLimits, type CustomerPhoto } from '#shared/customer.ts';
import { createFileStorage } from '#server/adapters/storage/file-storage.ts';
import {
  exifHasGps,
  jpegWithGps,
  largeJpeg,
  multipartBody,
  overFiftyMegapixels,
  png,
  undecodableHeic,
  webp,
  type UploadFile,
} from '#tests/support/images.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

let context: TestContext;
let cookie: string;
let dataDir: string;
let uploadsDir: string;
let customerId: string;
let jpeg: Buffer;

async function upload(files: UploadFile[], options: { customer?: string; signedIn?: boolean } = {}) {
  const { payload, headers } = await multipartBody(files);
  return context.app.inject({
    method: 'POST',
    url: `/api/admin/customers/${options.customer ?? customerId}/photos`,
    payload,
    headers: { ...headers, ...(options.signedIn === false ? {} : { cookie }) },
  });
}

async function uploaded(files: UploadFile[], customer = customerId): Promise<CustomerPhoto[]> {
  const response = await upload(files, { customer });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().photos;
}

const get = (url: string, signedIn = true) => context.app.inject({ method: 'GET', url, headers: signedIn ? { cookie } : {} });
const remove = (url: string) => context.app.inject({ method: 'DELETE', url, headers: { cookie } });

/** Every file under DATA_DIR/uploads, as relative paths. */
function storedFiles(): string[] {
  if (!fs.existsSync(uploadsDir)) return [];
  return (fs.readdirSync(uploadsDir, { recursive: true }) as string[])
    .filter((entry) => fs.statSync(path.join(uploadsDir, entry)).isFile())
    .map((entry) => entry.split(path.sep).join('/'))
    .sort();
}

async function photoRowCount(): Promise<number> {
  return (await context.database.query<{ count: number }>('select count(*)::int as count from customer_photos'))[0]!.count;
}

async function newCustomer(name: string): Promise<string> {
  const response = await context.app.inject({
    method: 'POST',
    url: '/api/admin/customers',
    payload: { name, phone: '843-555-0160', address: '3 Photo Ln' },
    headers: { cookie },
  });
  expect(response.statusCode).toBe(201);
  return response.json().customer.id;
}

/** Runs an upload that must be refused and checks that it stored nothing at all. */
async function expectRefusedAndNothingStored(files: UploadFile[], status: number, message: string) {
  const rowsBefore = await photoRowCount();
  const filesBefore = storedFiles();
  const response = await upload(files);
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().error.message).toBe(message);
  expect(await photoRowCount()).toBe(rowsBefore);
  expect(storedFiles()).toEqual(filesBefore);
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-photos-'));
  uploadsDir = path.join(dataDir, 'uploads');
  context = await createTestApp({ env: { DATA_DIR: dataDir } });
  await createStaff(context.database);
  cookie = await signIn(context.app);
  customerId = await newCustomer('Photo Customer');
  jpeg = await jpegWithGps();
});
afterAll(async () => {
  await context?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('uploading photos', () => {
  it('takes several images at once and answers with the new photos', async () => {
    const photos = await uploaded([
      { name: 'IMG_2041.JPG', bytes: jpeg, type: 'image/jpeg' },
      { name: 'Unit Label (1).png', bytes: await png(), type: 'image/png' },
      { name: 'outdoor.webp', bytes: await webp(), type: 'image/webp' },
    ]);
    expect(photos).toHaveLength(3);
    for (const photo of photos) {
      expect(photo.url).toBe(`/api/admin/customers/${customerId}/photos/${photo.id}/display`);
      expect(photo.thumbnailUrl).toBe(`/api/admin/customers/${customerId}/photos/${photo.id}/thumbnail`);
    }
    expect(photos.map((photo) => [photo.width, photo.height])).toEqual([
      [200, 400],
      [1600, 800],
      [640, 480],
    ]);

    const keys = (await context.database.query<{ object_key: string }>('select object_key from customer_photos where customer_id = $1', [customerId])).map(
      (row) => row.object_key,
    );
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key).toMatch(new RegExp(`^customers/${customerId}/\\d{13}_[a-z0-9-]+-display\\.webp$`));
    expect(keys.some((key) => key.includes('_img-2041-'))).toBe(true);
    expect(keys.some((key) => key.includes('_unit-label-1-'))).toBe(true);
    // A display version and a thumbnail per photo, nothing else.
    expect(storedFiles().filter((file) => file.startsWith(`customers/${customerId}/`))).toHaveLength(6);
  });

  it('re-encodes: no EXIF, GPS, XMP or ICC profile survives, and the pixels are turned upright', async () => {
    const source = await sharp(jpeg).metadata();
    expect(source.exif).toBeDefined();
    expect(exifHasGps(source.exif)).toBe(true);
    expect(source.xmp).toBeDefined();
    expect(source.icc).toBeDefined();
    expect([source.width, source.height, source.orientation]).toEqual([400, 200, 6]);

    const [photo] = await uploaded([{ name: 'with-gps.jpg', bytes: jpeg, type: 'image/jpeg' }]);
    for (const [url, size] of [
      [photo!.url, [200, 400]],
      [photo!.thumbnailUrl, [160, 320]],
    ] as const) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-disposition']).toBe('inline');
      const served = await sharp(response.rawPayload).metadata();
      expect(served.format).toBe('webp');
      expect(served.exif).toBeUndefined();
      expect(served.xmp).toBeUndefined();
      expect(served.icc).toBeUndefined();
      expect(served.orientation).toBeUndefined();
      expect([served.width, served.height]).toEqual(size);
    }
  });

  it('makes the display version at most 1600 px and the thumbnail at most 320 px on the long side', async () => {
    const [photo] = await uploaded([{ name: 'wide.png', bytes: await png(3000, 1000) }]);
    const display = await sharp((await get(photo!.url)).rawPayload).metadata();
    const thumbnail = await sharp((await get(photo!.thumbnailUrl)).rawPayload).metadata();
    expect([display.width, display.height, display.hasAlpha]).toEqual([1600, 533, true]);
    expect([thumbnail.width, thumbnail.height]).toEqual([320, 107]);
  });

  it('never uses the uploaded name as a path', async () => {
    const customer = await newCustomer('Traversal Target');
    await uploaded([{ name: '../../../etc/Évier Crème.jpg', bytes: jpeg }], customer);
    const [row] = await context.database.query<{ object_key: string }>('select object_key from customer_photos where customer_id = $1', [customer]);
    expect(row!.object_key).toMatch(new RegExp(`^customers/${customer}/\\d{13}_evier-creme-[0-9a-f]{8}-display\\.webp$`));
    expect(storedFiles().every((file) => file.startsWith('customers/'))).toBe(true);
  });

  it('shows the newest photos first on the profile', async () => {
    const customer = await newCustomer('Ordering');
    const [first] = await uploaded([{ name: 'first.webp', bytes: await webp() }], customer);
    const [second] = await uploaded([{ name: 'second.webp', bytes: await webp() }], customer);
    const profile = (await get(`/api/admin/customers/${customer}`)).json();
    expect(profile.photos.map((photo: CustomerPhoto) => photo.id)).toEqual([second!.id, first!.id]);
  });
});

describe('refused uploads store nothing', () => {
  it('refuses a text file named .jpg, even beside a good photo', async () => {
    await expectRefusedAndNothingStored(
      [
        { name: 'good.jpg', bytes: jpeg, type: 'image/jpeg' },
        { name: 'photo.jpg', bytes: Buffer.from('This is not an image, whatever its name says.\n'.repeat(20)), type: 'image/jpeg' },
      ],
      400,
      'photo.jpg is not a JPEG, PNG, WebP or HEIC image',
    );
  });

  it('refuses image types outside the list (GIF, SVG)', async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000000' } }).gif().toBuffer();
    await expectRefusedAndNothingStored([{ name: 'anim.gif', bytes: gif, type: 'image/gif' }], 400, customerPhotoMessages.notAnImage('anim.gif'));
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)" width="10" height="10"/>');
    await expectRefusedAndNothingStored([{ name: 'icon.png', bytes: svg, type: 'image/png' }], 400, customerPhotoMessages.notAnImage('icon.png'));
  });

  it('cuts off a file over 15 MB with a 413', async () => {
    const tooBig = await largeJpeg(photoUploadLimits.maxBytes + 1);
    await expectRefusedAndNothingStored(
      [
        { name: 'fine.webp', bytes: await webp() },
        { name: 'huge.jpg', bytes: tooBig, type: 'image/jpeg' },
      ],
      413,
      'huge.jpg is larger than 15 MB. Please upload a smaller photo.',
    );
  });

  it('accepts a file of exactly 15 MB (the limit is inclusive)', async () => {
    const response = await upload([{ name: 'edge.jpg', bytes: await largeJpeg(photoUploadLimits.maxBytes), type: 'image/jpeg' }]);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().photos[0]).toMatchObject({ width: 64, height: 64 });
  });

  it('refuses an image over 50 megapixels', async () => {
    await expectRefusedAndNothingStored(
      [{ name: 'panorama.png', bytes: await overFiftyMegapixels(), type: 'image/png' }],
      400,
      'panorama.png is 50.1 megapixels. Photos can be at most 50 megapixels.',
    );
  });

  it('explains what to do with a HEIC photo it cannot read', async () => {
    await expectRefusedAndNothingStored(
      [{ name: 'IMG_0001.HEIC', bytes: undecodableHeic(), type: 'image/heic' }],
      400,
      'This HEIC photo (IMG_0001.HEIC) could not be read. Please upload it as JPEG (on iPhone: Settings > Camera > Formats > Most Compatible).',
    );
  });

  it('refuses more than 10 files, no files, another field name and a non-multipart body', async () => {
    const small = await webp();
    await expectRefusedAndNothingStored(
      Array.from({ length: photoUploadLimits.maxFilesPerRequest + 1 }, (_, index) => ({ name: `p${index}.webp`, bytes: small })),
      413,
      'Upload at most 10 photos at a time.',
    );
    await expectRefusedAndNothingStored([], 400, 'Choose at least one photo to upload.');
    await expectRefusedAndNothingStored([{ name: 'a.webp', bytes: small, field: 'file' }], 400, 'Send the photos in the "photos" form field.');
    const json = await context.app.inject({ method: 'POST', url: `/api/admin/customers/${customerId}/photos`, payload: { photos: [] }, headers: { cookie } });
    expect(json.statusCode).toBe(400);
    expect(json.json().error.message).toBe('Send the photos as multipart/form-data.');
  });

  it('parses multipart on the photo upload only', async () => {
    const { payload, headers } = await multipartBody([{ name: 'a.webp', bytes: await webp() }]);
    const elsewhere = await context.app.inject({ method: 'POST', url: '/api/admin/customers', payload, headers: { ...headers, cookie } });
    expect(elsewhere.statusCode).toBe(415);
  });

  it('is a 404 for an unknown customer and a 401 for a stranger', async () => {
    const small = await webp();
    const unknown = await upload([{ name: 'a.webp', bytes: small }], { customer: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Customer not found');
    expect((await upload([{ name: 'a.webp', bytes: small }], { customer: 'not-a-uuid' })).statusCode).toBe(404);
    const rowsBefore = await photoRowCount();
    expect((await upload([{ name: 'a.webp', bytes: small }], { signedIn: false })).statusCode).toBe(401);
    expect(await photoRowCount()).toBe(rowsBefore);
  });
});

describe('over a real connection', () => {
  it('a refused upload is answered while the client is still sending, and the connection stays usable', async () => {
    const server = await createTestApp({ env: { DATA_DIR: dataDir } });
    try {
      await createStaff(server.database);
      const staffCookie = await signIn(server.app);
      const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
      const created = await fetch(`${address}/api/admin/customers`, {
        method: 'POST',
        headers: { cookie: staffCookie, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Real Connection', phone: '843-555-0170', address: '8 Socket St' }),
      });
      const id = (await created.json()).customer.id;
      for (const [files, status] of [
        [[{ name: 'huge.jpg', bytes: await largeJpeg(40 * 1024 * 1024) }], 413],
        [[{ name: 'notes.jpg', bytes: Buffer.from('text') }, { name: 'rest.jpg', bytes: await largeJpeg(12 * 1024 * 1024) }], 400],
      ] as const) {
        const { payload, headers } = await multipartBody([...files]);
        const response = await fetch(`${address}/api/admin/customers/${id}/photos`, {
          method: 'POST',
          headers: { ...headers, cookie: staffCookie },
          body: new Uint8Array(payload),
          signal: AbortSignal.timeout(10_000),
        });
        expect(response.status).toBe(status);
        expect((await response.json()).error.message).toMatch(/huge\.jpg is larger than 15 MB|notes\.jpg is not a JPEG/);
      }
      const { payload, headers } = await multipartBody([{ name: 'after.webp', bytes: await webp() }]);
      const after = await fetch(`${address}/api/admin/customers/${id}/photos`, { method: 'POST', headers: { ...headers, cookie: staffCookie }, body: new Uint8Array(payload) });
      expect(after.status).toBe(201);
    } finally {
      // A connection left stuck mid-body would hold this close until the keep-alive timeout (72 s).
      await server.close();
    }
  });
});

describe('serving and removing photos', () => {
  it('serves photos to staff only', async () => {
    const [photo] = await uploaded([{ name: 'private.webp', bytes: await webp() }]);
    const stranger = await get(photo!.url, false);
    expect(stranger.statusCode).toBe(401);
    expect(stranger.headers['content-type']).toContain('application/json');
    expect((await get(photo!.thumbnailUrl, false)).statusCode).toBe(401);
  });

  // Issue 15: the photo answers said 'private, max-age=3600', overriding the staff pages' no-store,
  // so a shared office computer kept customers' photos in its cache after sign-out.
  it('customer photos are sent with no-store, not kept in the browser cache after sign-out', async () => {
    const [photo] = await uploaded([{ name: 'cached.png', bytes: await png(), type: 'image/png' }]);
    for (const url of [photo!.url, photo!.thumbnailUrl]) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.expires).toBeUndefined();
    }
  });

  it('is a 404 for an unknown photo, or a photo asked for under another customer', async () => {
    const [photo] = await uploaded([{ name: 'mine.webp', bytes: await webp() }]);
    const other = await newCustomer('Someone Else');
    expect((await get(`/api/admin/customers/${customerId}/photos/00000000-0000-4000-8000-000000000000/display`)).statusCode).toBe(404);
    expect((await get(`/api/admin/customers/${customerId}/photos/not-a-uuid/thumbnail`)).statusCode).toBe(404);
    const wrongOwner = await get(`/api/admin/customers/${other}/photos/${photo!.id}/display`);
    expect(wrongOwner.statusCode).toBe(404);
    expect(wrongOwner.json().error.message).toBe('Photo not found');
  });

  it('deleting a photo removes its row and both files', async () => {
    const customer = await newCustomer('Photo Remover');
    const [keep, drop] = await uploaded(
      [
        { name: 'keep.webp', bytes: await webp() },
        { name: 'drop.webp', bytes: await webp() },
      ],
      customer,
    );
    expect(storedFiles().filter((file) => file.startsWith(`customers/${customer}/`))).toHaveLength(4);

    const response = await remove(`/api/admin/customers/${customer}/photos/${drop!.id}`);
    expect(response.statusCode).toBe(204);
    const remaining = storedFiles().filter((file) => file.startsWith(`customers/${customer}/`));
    expect(remaining).toHaveLength(2);
    expect(remaining.every((file) => file.includes('_keep-'))).toBe(true);
    expect((await get(drop!.url)).statusCode).toBe(404);
    expect((await get(keep!.url)).statusCode).toBe(200);
    expect((await remove(`/api/admin/customers/${customer}/photos/${drop!.id}`)).statusCode).toBe(404);
  });

  it('deleting the customer removes its photo rows and files, and nobody else’s', async () => {
    const customer = await newCustomer('Leaving Customer');
    await uploaded([{ name: 'a.jpg', bytes: jpeg }, { name: 'b.webp', bytes: await webp() }], customer);
    const othersBefore = storedFiles().filter((file) => !file.startsWith(`customers/${customer}/`));
    expect(fs.existsSync(path.join(uploadsDir, 'customers', customer))).toBe(true);

    expect((await remove(`/api/admin/customers/${customer}`)).statusCode).toBe(204);
    expect(fs.existsSync(path.join(uploadsDir, 'customers', customer))).toBe(false);
    expect(await context.database.query('select 1 from customer_photos where customer_id = $1', [customer])).toEqual([]);
    expect(storedFiles()).toEqual(othersBefore);
  });
});

describe('deleting is admin-only (decision 018-f)', () => {
  // Issue 15: a dispatcher could delete customers and their photos, destroying history others rely on.
  it('dispatchers can delete customers and photos: now refused with 403 and nothing removed, while an admin deletes both', async () => {
    await createStaff(context.database, 'dispatch@example.com', undefined, 'dispatcher');
    const dispatcher = await signIn(context.app, 'dispatch@example.com', undefined, '127.0.0.9');
    const owner = await newCustomer('Admin-only Deletes');
    const [photo] = await uploaded([{ name: 'keep.png', bytes: await png(), type: 'image/png' }], owner);
    const photoUrl = `/api/admin/customers/${owner}/photos/${photo!.id}`;
    const filesBefore = storedFiles();

    for (const url of [photoUrl, `/api/admin/customers/${owner}`]) {
      const refused = await context.app.inject({ method: 'DELETE', url, headers: { cookie: dispatcher } });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'Only an administrator can do this.' } });
    }
    expect(storedFiles()).toEqual(filesBefore);
    expect((await get(photo!.thumbnailUrl)).statusCode).toBe(200);
    // A dispatcher still does everything else with the customer: read, edit, add photos.
    expect((await context.app.inject({ method: 'GET', url: `/api/admin/customers/${owner}`, headers: { cookie: dispatcher } })).statusCode).toBe(200);
    const { payload, headers } = await multipartBody([{ name: 'more.png', bytes: await png(), type: 'image/png' }]);
    const added = await context.app.inject({ method: 'POST', url: `/api/admin/customers/${owner}/photos`, payload, headers: { ...headers, cookie: dispatcher } });
    expect(added.statusCode, added.body).toBe(201);

    expect((await remove(photoUrl)).statusCode).toBe(204);
    expect((await remove(`/api/admin/customers/${owner}`)).statusCode).toBe(204);
    expect((await get(`/api/admin/customers/${owner}`)).statusCode).toBe(404);
  });
});

describe('the file store', () => {
  it('keeps every key inside the uploads folder', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-store-'));
    try {
      const storage = createFileStorage(path.join(root, 'uploads'));
      for (const key of ['../outside.webp', 'customers/../../outside.webp', '/etc/passwd', 'customers/./x.webp', 'Customers/X.webp', 'a\\b.webp', '']) {
        await expect(storage.put(key, Buffer.from('x'), 'image/webp'), key).rejects.toThrow();
        await expect(storage.get(key), key).rejects.toThrow();
      }
      await expect(storage.deletePrefix('customers/..'), 'no trailing slash').rejects.toThrow();
      await storage.put('customers/abc/1_x-display.webp', Buffer.from('bytes'), 'image/webp');
      expect(await storage.get('customers/abc/1_x-display.webp')).toEqual({ bytes: Buffer.from('bytes'), contentType: 'image/webp' });
      expect(await storage.get('customers/abc/missing.webp')).toBeUndefined();
      await storage.deletePrefix('customers/abc/');
      expect(fs.readdirSync(path.join(root, 'uploads', 'customers'))).toEqual([]);
      expect(fs.readdirSync(root)).toEqual(['uploads']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
