import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceBookMessages, type PriceBookListResponse } from '#shared/price-book.ts';
import { technicians } from '#server/db/schema/index.ts';
import { multipartBody } from '#tests/support/images.ts';
import { createStaff, createTechnicianStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// Decision 024-f: the price book's CSV import is the first upload that rewrites many records at
// once. What an attacker (or a careless staff member) would try: a cross-site form post from a
// page the admin visits, a dispatcher or technician uploading, several files, a huge file, a file
// that is not text, and cells meant to run in a spreadsheet or a browser.

let context: TestContext;
let admin: string;
let dispatcher: string;
let technician: string;
const csv = (rows: string[]) => Buffer.from(['code,name,kind,price', ...rows].join('\r\n') + '\r\n');

async function importAs(cookie: string, files: { name: string; bytes: Buffer; type?: string; field?: string }[], extraHeaders: Record<string, string> = {}, dryRun = false) {
  const { payload, headers } = await multipartBody(files.map((file) => ({ field: 'file', type: 'text/csv', ...file })));
  return context.app.inject({ method: 'POST', url: `/api/admin/price-book/import?dryRun=${dryRun}`, payload, headers: { ...headers, cookie, ...extraHeaders } });
}

async function codes(query: string): Promise<string[]> {
  const response = await context.app.inject({ method: 'GET', url: `/api/admin/price-book?active=all&q=${encodeURIComponent(query)}`, headers: { cookie: admin } });
  return (response.json() as PriceBookListResponse).items.map((item) => item.code);
}

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database, 'admin@example.com', undefined, 'admin');
  await createStaff(context.database, 'dispatch@example.com', undefined, 'dispatcher');
  const [tech] = await context.database.db.insert(technicians).values({ name: 'Import Tech', color: '#16a34a' }).returning();
  await createTechnicianStaff(context.database, tech!.id, 'tech@example.com');
  admin = await signIn(context.app, 'admin@example.com', undefined, '127.0.17.1');
  dispatcher = await signIn(context.app, 'dispatch@example.com', undefined, '127.0.17.2');
  technician = await signIn(context.app, 'tech@example.com', undefined, '127.0.17.3');
});
afterAll(() => context?.close());

describe('price book import', () => {
  it('refuses a cross-site form post carrying the admin cookie (multipart is a simple request, so the Origin check must catch it)', async () => {
    for (const origin of ['https://evil.example', 'null']) {
      const response = await importAs(admin, [{ name: 'x.csv', bytes: csv(['SEC-CSRF,Planted,part,0.01']) }], { origin });
      expect(response.statusCode, origin).toBe(403);
    }
    expect(await codes('SEC-CSRF')).toEqual([]);
  });

  it('refuses dispatchers and technicians, whatever the spelling of the path', async () => {
    for (const cookie of [dispatcher, technician]) {
      for (const url of ['/api/admin/price-book/import', '/api/admin/price-book/import/', '/api/admin/PRICE-BOOK/import', '/api/admin/price-book/%69mport']) {
        const { payload, headers } = await multipartBody([{ field: 'file', name: 'x.csv', bytes: csv(['SEC-ROLE,Planted,part,0.01']), type: 'text/csv' }]);
        const response = await context.app.inject({ method: 'POST', url: `${url}?dryRun=false`, payload, headers: { ...headers, cookie } });
        expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, url).toBeLessThan(500);
      }
    }
    expect(await codes('SEC-ROLE')).toEqual([]);
  });

  it('takes one file only, and nothing from a second', async () => {
    const response = await importAs(admin, [
      { name: 'a.csv', bytes: csv(['SEC-ONE,First,part,1.00']) },
      { name: 'b.csv', bytes: csv(['SEC-TWO,Second,part,1.00']) },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(priceBookMessages.oneFile);
    expect(await codes('SEC-ONE')).toEqual([]);
    expect(await codes('SEC-TWO')).toEqual([]);
  });

  it('cuts off a file over 1 MB with 413 and the connection still answers the next request', async () => {
    const rows = Array.from({ length: 9000 }, (_, index) => `SEC-BIG-${index},${'x'.repeat(100)},part,1.00`);
    const response = await importAs(admin, [{ name: 'big.csv', bytes: csv(rows) }]);
    expect(response.statusCode).toBe(413);
    expect(response.json().error.message).toBe(priceBookMessages.tooLarge);
    expect(await codes('SEC-BIG')).toEqual([]);
  });

  it('refuses bytes that are not UTF-8 text, whatever the declared type', async () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00]);
    for (const type of ['text/csv', 'application/octet-stream', 'application/vnd.ms-excel']) {
      const response = await importAs(admin, [{ name: 'book.xlsx', bytes: zip, type }]);
      expect(response.statusCode, type).toBe(400);
      expect(response.json().error.message).toBe(priceBookMessages.notText);
    }
  });

  it('stores formula and markup cells as plain text, answers JSON, and exports them neutralised', async () => {
    const response = await importAs(admin, [{ name: 'x.csv', bytes: csv(['SEC-XSS,"<img src=x onerror=alert(1)>",part,1.00', 'SEC-FORMULA,"@SUM(1+1)*cmd|\' /C calc\'!A0",part,1.00']) }]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const list = await context.app.inject({ method: 'GET', url: '/api/admin/price-book?q=SEC-&sort=code', headers: { cookie: admin } });
    expect((list.json() as PriceBookListResponse).items.map((item) => item.name)).toEqual(["@SUM(1+1)*cmd|' /C calc'!A0", '<img src=x onerror=alert(1)>']);
    const exported = await context.app.inject({ method: 'GET', url: '/api/admin/price-book/export.csv?q=SEC-', headers: { cookie: dispatcher } });
    expect(exported.headers['x-content-type-options']).toBe('nosniff');
    expect(exported.headers['content-disposition']).toMatch(/^attachment;/);
    expect(exported.body).toContain(`,'@SUM(1+1)*cmd|' /C calc'!A0,`);
    expect(exported.body).not.toMatch(/(^|,)@SUM/m);
  });
});
