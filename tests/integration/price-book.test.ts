import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditListResponse } from '#shared/audit.ts';
import { billingSettingsMessages, type BillingSettingsPage, type TaxRate } from '#shared/billing-settings.ts';
import {
  priceBookMessages,
  type PriceBookImportResult,
  type PriceBookItem,
  type PriceBookItemCreateInput,
  type PriceBookListResponse,
} from '#shared/price-book.ts';
import { parseCsv } from '#server/lib/csv.ts';
import { demoPriceBook, seedPriceBook } from '#server/db/seed/price-book.ts';
import { createStaff, createTechnicianStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';
import { customers, quoteLines, quoteOptions, quotes, technicians } from '#server/db/schema/index.ts';

let context: TestContext;
let admin: string;
let dispatcher: string;
let technician: string;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function api(cookie: string | undefined, method: Method, url: string, payload?: unknown) {
  return context.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), headers: cookie ? { cookie } : {} });
}

const item = (overrides: Partial<PriceBookItemCreateInput> = {}): PriceBookItemCreateInput => ({
  kind: 'part',
  code: 'CAP-TEST-1',
  name: 'Test capacitor',
  category: 'Electrical',
  unit: 'each',
  priceCents: 8900,
  costCents: 1400,
  taxable: true,
  ...overrides,
});

async function create(overrides: Partial<PriceBookItemCreateInput> = {}): Promise<PriceBookItem> {
  const response = await api(admin, 'POST', '/api/admin/price-book', item(overrides));
  expect(response.statusCode, response.body).toBe(201);
  return response.json().item;
}

async function list(query: string, cookie = admin): Promise<PriceBookListResponse> {
  const response = await api(cookie, 'GET', `/api/admin/price-book?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function activity(id: string) {
  return ((await api(admin, 'GET', `/api/admin/settings/activity?entityType=price_book_item&entityId=${id}`)).json() as AuditListResponse).entries.reverse();
}

/** A real multipart/form-data body as a browser sends it. */
function upload(cookie: string, csv: string | Buffer, dryRun: boolean, options: { field?: string; contentType?: string; fileName?: string } = {}) {
  const boundary = '----pricebookBoundary7MA4YWxkTrZu0gW';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.fileName ?? 'prices.csv'}"\r\nContent-Type: ${options.contentType ?? 'text/csv'}\r\n\r\n`,
    ),
    typeof csv === 'string' ? Buffer.from(csv, 'utf8') : csv,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return context.app.inject({
    method: 'POST',
    url: `/api/admin/price-book/import?dryRun=${dryRun}`,
    payload: body,
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database, 'admin@example.com');
  await createStaff(context.database, 'dispatch@example.com', undefined, 'dispatcher');
  const [tech] = await context.database.db.insert(technicians).values({ name: 'Pat Tech', color: '#2563eb' }).returning();
  await createTechnicianStaff(context.database, tech!.id, 'tech@example.com');
  admin = await signIn(context.app, 'admin@example.com');
  dispatcher = await signIn(context.app, 'dispatch@example.com');
  technician = await signIn(context.app, 'tech@example.com');
  // The demo price book (the seed's), as a fresh demo database has it.
  expect(await seedPriceBook(context.database.db)).toEqual({ items: demoPriceBook.length, taxRates: 3 });
});
afterAll(() => context?.close());

describe('price book items', () => {
  it('creates, reads and lists an item; codes are unique ignoring case with a 409 naming the code', async () => {
    const created = await create({ code: 'CAP-UNIQ', name: '  Dual   capacitor 45/5 ' });
    expect(created).toMatchObject({ code: 'CAP-UNIQ', name: 'Dual capacitor 45/5', priceCents: 8900, costCents: 1400, active: true });
    const read = await api(dispatcher, 'GET', `/api/admin/price-book/${created.id}`);
    expect(read.json()).toEqual({ item: created, inUse: false });
    const twin = await api(admin, 'POST', '/api/admin/price-book', item({ code: 'cap-uniq' }));
    expect(twin.statusCode).toBe(409);
    expect(twin.json().error.message).toBe(priceBookMessages.codeTaken('cap-uniq'));
    expect(twin.json().error.details).toContainEqual({ path: 'code', message: priceBookMessages.codeTaken('cap-uniq') });
    expect(await activity(created.id)).toMatchObject([{ action: 'created', entityLabel: 'CAP-UNIQ · Dual capacitor 45/5', changes: { priceCents: [null, 8900] } }]);
  });

  it('refuses bad input with the field named: a code with spaces, a fractional cent, a negative cost, an unknown kind', async () => {
    const response = await api(admin, 'POST', '/api/admin/price-book', { ...item(), code: 'has space', priceCents: 10.5, costCents: -1, kind: 'gizmo' });
    expect(response.statusCode).toBe(400);
    const paths = (response.json().error.details as { path: string }[]).map((detail) => detail.path).sort();
    expect(paths).toEqual(['code', 'costCents', 'kind', 'priceCents']);
    expect((await api(admin, 'GET', '/api/admin/price-book/not-a-uuid')).statusCode).toBe(404);
    expect((await api(admin, 'GET', '/api/admin/price-book/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('edits with the updatedAt read: a stale edit is a 409 with the current item, and each change is audited', async () => {
    const created = await create({ code: 'FR-EDIT', kind: 'task', name: 'Coil cleaning', priceCents: 18900 });
    const first = await api(admin, 'PUT', `/api/admin/price-book/${created.id}`, { ...item({ code: 'FR-EDIT', kind: 'task', name: 'Coil cleaning' }), priceCents: 19900, expectedUpdatedAt: created.updatedAt });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().item.priceCents).toBe(19900);
    const stale = await api(admin, 'PUT', `/api/admin/price-book/${created.id}`, { ...item({ code: 'FR-EDIT', kind: 'task', name: 'Coil cleaning' }), priceCents: 9900, expectedUpdatedAt: created.updatedAt });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.message).toBe(priceBookMessages.stale);
    expect(stale.json().error.details.current.priceCents).toBe(19900);
    const entries = await activity(created.id);
    expect(entries.map((entry) => entry.action)).toEqual(['created', 'updated']);
    expect(entries[1]!.changes).toEqual({ priceCents: [18900, 19900] });
  });

  it('lets admins and dispatchers read; only admins change; a technician gets 403, a stranger 401', async () => {
    const created = await create({ code: 'ROLE-1' });
    expect((await api(dispatcher, 'GET', '/api/admin/price-book')).statusCode).toBe(200);
    expect((await api(dispatcher, 'GET', `/api/admin/price-book/lookup?ids=${created.id}`)).json().items).toHaveLength(1);
    expect((await api(dispatcher, 'GET', '/api/admin/price-book/export.csv')).statusCode).toBe(200);
    const body = { ...item({ code: 'ROLE-1' }), priceCents: 1, expectedUpdatedAt: created.updatedAt };
    expect((await api(dispatcher, 'PUT', `/api/admin/price-book/${created.id}`, body)).statusCode).toBe(403);
    expect((await api(dispatcher, 'POST', '/api/admin/price-book', item({ code: 'ROLE-2' }))).statusCode).toBe(403);
    expect((await api(dispatcher, 'POST', `/api/admin/price-book/${created.id}/status`, { active: false })).statusCode).toBe(403);
    expect((await api(dispatcher, 'DELETE', `/api/admin/price-book/${created.id}`)).statusCode).toBe(403);
    expect((await upload(dispatcher, 'code,name,kind,price\r\nX-1,X,part,1.00\r\n', false)).statusCode).toBe(403);
    expect((await api(dispatcher, 'PUT', '/api/admin/settings/billing', {})).statusCode).toBe(403);
    expect((await api(dispatcher, 'GET', '/api/admin/tax-rates')).statusCode).toBe(200);
    for (const [method, url] of [
      ['GET', '/api/admin/price-book'],
      ['GET', `/api/admin/price-book/${created.id}`],
      ['GET', '/api/admin/price-book/export.csv'],
      ['GET', '/api/admin/tax-rates'],
    ] as const) {
      expect((await api(technician, method, url)).statusCode).toBe(403);
      expect((await api(undefined, method, url)).statusCode).toBe(401);
    }
    expect((await api(undefined, 'POST', '/api/admin/price-book', item({ code: 'ANON' }))).statusCode).toBe(401);
    expect((await api(admin, 'GET', `/api/admin/price-book/${created.id}`)).json().item.priceCents).toBe(8900);
  });

  it('deactivates and activates (audited), deletes a never-used item, refuses to delete one on a quote', async () => {
    const created = await create({ code: 'DEL-1' });
    const off = await api(admin, 'POST', `/api/admin/price-book/${created.id}/status`, { active: false });
    expect(off.json().item.active).toBe(false);
    expect((await list('q=DEL-1&active=active')).total).toBe(0);
    expect((await list('q=DEL-1&active=inactive')).total).toBe(1);
    await api(admin, 'POST', `/api/admin/price-book/${created.id}/status`, { active: true });
    expect((await activity(created.id)).map((entry) => entry.action)).toEqual(['created', 'deactivated', 'activated']);

    const used = await create({ code: 'USED-1' });
    await putOnQuote(used.id);
    expect((await api(admin, 'GET', `/api/admin/price-book/${used.id}`)).json().inUse).toBe(true);
    const refused = await api(admin, 'DELETE', `/api/admin/price-book/${used.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(priceBookMessages.inUse);
    expect((await api(admin, 'POST', `/api/admin/price-book/${used.id}/status`, { active: false })).json().item.active).toBe(false);
    expect((await api(admin, 'DELETE', `/api/admin/price-book/${created.id}`)).statusCode).toBe(204);
    expect((await api(admin, 'GET', `/api/admin/price-book/${created.id}`)).statusCode).toBe(404);
    expect((await activity(created.id)).at(-1)).toMatchObject({ action: 'deleted', entityLabel: 'DEL-1 · Test capacitor' });
  });
});

/** Puts the item on a quote's line, as the quotes module will: the item is then in use. */
async function putOnQuote(itemId: string): Promise<void> {
  const db = context.database.db;
  const [customer] = await db.insert(customers).values({ name: 'Used Item Customer', phone: '(843) 555-0100', address: '1 May River Rd' }).returning();
  const [quote] = await db.insert(quotes).values({ customerId: customer!.id, title: 'New condenser' }).returning();
  const [option] = await db.insert(quoteOptions).values({ quoteId: quote!.id, position: 1, name: 'Good' }).returning();
  await db.insert(quoteLines).values({ optionId: option!.id, position: 1, priceBookItemId: itemId, name: 'Used line', quantityMilli: 1000, unitPriceCents: 8900, amountCents: 8900 });
}

describe('search and paging', () => {

  it('searches code, name, category and description, any case; filters by kind, category and active', async () => {
    expect((await list('q=r-410a')).items.map((entry) => entry.code)).toContain('R410A-LB');
    expect((await list('q=cap-45')).items.map((entry) => entry.code)).toContain('CAP-45-5');
    expect((await list('q=charged by the pound')).items.map((entry) => entry.code)).toEqual(['R410A-LB']);
    expect((await list('q=100%25')).total).toBe(0);
    const heatPumps = await list('category=Heat%20pumps&pageSize=100');
    expect(heatPumps.items.length).toBe(demoPriceBook.filter((row) => row[3] === 'Heat pumps').length);
    expect(heatPumps.categories).toContain('Refrigerant');
    const labor = await list('kind=labor&pageSize=100');
    expect(labor.items.every((entry) => entry.kind === 'labor' && !entry.taxable)).toBe(true);
    expect((await list('kind=equipment&pageSize=100')).items.every((entry) => entry.taxable)).toBe(true);
  });

  it('pages on the server with a total, in the order asked', async () => {
    const first = await list('pageSize=25&page=1&sort=price&dir=desc');
    const second = await list('pageSize=25&page=2&sort=price&dir=desc');
    expect(first.total).toBeGreaterThanOrEqual(demoPriceBook.length);
    expect(first.items).toHaveLength(25);
    expect(first.items[0]!.code).toBe('HP-5T-20');
    const prices = [...first.items, ...second.items].map((entry) => entry.priceCents);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    expect(new Set([...first.items, ...second.items].map((entry) => entry.id)).size).toBe(50);
    expect((await api(admin, 'GET', '/api/admin/price-book?pageSize=1000')).statusCode).toBe(400);
  });

  it('seeds the advertised prices and a 7% default tax rate only once', async () => {
    const diag = (await list('q=DIAG-STD')).items[0]!;
    expect(diag.priceCents).toBe(8900);
    const plans = (await list('category=Maintenance%20plans')).items.map((entry) => [entry.code, entry.priceCents]);
    expect(plans).toEqual(expect.arrayContaining([['PLAN-ESS', 15000], ['PLAN-ADV', 25000], ['PLAN-PREM', 35000]]));
    expect(await seedPriceBook(context.database.db)).toEqual({ items: 0, taxRates: 0 });
    const rates = (await api(dispatcher, 'GET', '/api/admin/tax-rates')).json().taxRates as TaxRate[];
    expect(rates[0]).toMatchObject({ ratePpm: 70_000, isDefault: true });
  });
});

describe('CSV import and export', () => {
  const header = 'code,name,kind,category,unit,price,cost,taxable,active,description';

  it('exports CSV with a BOM, CRLF, dollars and neutralised formulas, and imports it back unchanged', async () => {
    await create({ code: 'EXP-FORMULA', name: '=HYPERLINK("http://x","click")', priceCents: -2500, costCents: 0, kind: 'service', taxable: false, category: 'Zz export' });
    const response = await api(dispatcher, 'GET', '/api/admin/price-book/export.csv?category=Zz%20export&active=all');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.body.startsWith('\uFEFF' + header + '\r\n')).toBe(true);
    expect(response.body).toContain(`EXP-FORMULA,"'=HYPERLINK(""http://x"",""click"")",service,Zz export,each,'-25.00,0.00,no,yes,`);
    const again = await upload(admin, response.body, true);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ created: 0, updated: 0, unchanged: 1, errors: [] });
  });

  it('checks every row: a bad price on line 7, a duplicate code, a bad kind; nothing is imported, errors by line and column', async () => {
    const rows = [
      header,
      'IMP-1,Capacitor 35/5,part,Electrical,each,89.00,14.00,yes,yes,',
      'IMP-2,Contactor,part,Electrical,each,89.00,15.00,,,',
      'IMP-3,"Filter, 1 in",part,Filters,each,18.00,5.00,,,"Pleated, MERV 8"',
      'IMP-4,Flush,task,Flat-rate repairs,each,149,8,no,yes,',
      'IMP-5,Labor,labor,Labor,hour,125.00,45.00,no,yes,',
      'IMP-6,Bad price,part,Electrical,each,12.345,1.00,yes,yes,',
      'imp-1,Duplicate,part,Electrical,each,1.00,1.00,yes,yes,',
      'IMP-8,Bad kind,widget,Electrical,each,1.00,1.00,maybe,yes,',
    ];
    const csv = '\uFEFF' + rows.join('\r\n') + '\r\n';
    const preview = await upload(admin, csv, true);
    expect(preview.statusCode, preview.body).toBe(200);
    const result = preview.json() as PriceBookImportResult;
    expect([result.rows, result.created, result.updated]).toEqual([8, 5, 0]);
    expect(result.errors).toEqual([
      { line: 7, column: 'price', message: priceBookMessages.priceInvalid },
      { line: 8, column: 'code', message: priceBookMessages.duplicateInFile('imp-1', 2) },
      { line: 9, column: 'taxable', message: priceBookMessages.booleanInvalid },
      { line: 9, column: 'kind', message: priceBookMessages.kindInvalid },
    ]);
    const confirmed = await upload(admin, csv, false);
    expect(confirmed.statusCode).toBe(400);
    expect(confirmed.json().error.message).toBe(priceBookMessages.importFailed(4));
    expect(confirmed.json().error.details.errors).toHaveLength(4);
    expect((await list('q=IMP-')).total).toBe(0);

    // Fixed: the good rows import in one go; a row for an existing code updates it.
    const existing = await create({ code: 'IMP-9', name: 'Old name', priceCents: 100 });
    const fixed = [...rows.slice(0, 6), 'IMP-9,New name,part,Electrical,each,2.50,1.00,yes,yes,'].join('\n');
    const dry = (await upload(admin, fixed, true)).json() as PriceBookImportResult;
    expect(dry).toMatchObject({ dryRun: true, imported: false, created: 5, updated: 1, errors: [] });
    expect((await list('q=IMP-')).total).toBe(1);
    const done = await upload(admin, fixed, false);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ imported: true, created: 5, updated: 1 });
    const imported = await list('q=IMP-&sort=code');
    expect(imported.items.map((entry) => [entry.code, entry.priceCents, entry.taxable])).toEqual([
      ['IMP-1', 8900, true],
      ['IMP-2', 8900, true],
      ['IMP-3', 1800, true],
      ['IMP-4', 14900, false],
      ['IMP-5', 12500, false],
      ['IMP-9', 250, true],
    ]);
    expect(imported.items[2]!.description).toBe('Pleated, MERV 8');
    expect((await activity(existing.id)).at(-1)).toMatchObject({ action: 'imported', changes: { name: ['Old name', 'New name'], priceCents: [100, 250] } });
  });

  it('keeps a formula-looking cell as plain text, and a file of code and price changes only prices', async () => {
    const csv = 'code,name,kind,price\r\nIMP-F,"=cmd|\' /C calc\'!A0",part,5.00\r\n';
    expect((await upload(admin, csv, false)).statusCode).toBe(200);
    expect((await list('q=IMP-F')).items[0]!.name).toBe("=cmd|' /C calc'!A0");
    const exported = (await api(admin, 'GET', '/api/admin/price-book/export.csv?q=IMP-F')).body;
    expect(parseCsv(exported)[1]!.fields[1]).toBe("'=cmd|' /C calc'!A0");

    const before = (await list('q=IMP-1&sort=code')).items[0]!;
    const prices = await upload(admin, 'code,name,kind,price\nIMP-1,Capacitor 35/5,part,92.00\n', false);
    expect(prices.json()).toMatchObject({ updated: 1 });
    const after = (await list('q=IMP-1&sort=code')).items[0]!;
    expect([after.priceCents, after.costCents, after.category]).toEqual([9200, before.costCents, before.category]);
  });

  it('refuses files that are not CSV text, lack columns, or are too large', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    const binary = await upload(admin, png, true, { contentType: 'text/csv' });
    expect(binary.statusCode).toBe(400);
    expect(binary.json().error.message).toBe(priceBookMessages.notText);
    expect((await upload(admin, 'x', true, { contentType: 'image/png' })).json().error.message).toBe(priceBookMessages.notText);
    const latin1 = await upload(admin, Buffer.from('code,name,kind,price\nA,Caf\xe9,part,1.00\n', 'latin1'), true);
    expect(latin1.json().error.message).toBe(priceBookMessages.notText);
    const missing = (await upload(admin, 'code,name\nA,B\n', true)).json() as PriceBookImportResult;
    expect(missing.errors).toEqual([{ line: 1, column: null, message: priceBookMessages.headerMissing(['kind', 'price']) }]);
    expect((await upload(admin, 'code,name,kind,price\n', true)).json().error.message).toBe(priceBookMessages.empty);
    const big = await upload(admin, 'code,name,kind,price\n' + 'A,B,part,1.00,'.padEnd(200, 'x') .concat('\n').repeat(6000), true);
    expect(big.statusCode).toBe(413);
    expect((await upload(admin, 'code,name,kind,price\nA,B,part,1\n', true, { field: 'other' })).statusCode).toBe(400);
    const json = await api(admin, 'POST', '/api/admin/price-book/import', { code: 'x' });
    expect(json.statusCode).toBe(400);
    const unclosed = (await upload(admin, 'code,name,kind,price\nA,"B,part,1\n', true)).json() as PriceBookImportResult;
    expect(unclosed.errors).toEqual([{ line: 2, column: null, message: priceBookMessages.unclosedQuote }]);
  });
});

describe('billing settings and tax rates', () => {
  it('reads defaults while nothing is saved, saves (admin only, audited) and validates', async () => {
    const first = (await api(admin, 'GET', '/api/admin/settings/billing')).json() as BillingSettingsPage;
    expect(first.updatedAt).toBeNull();
    expect(first.settings).toEqual({ paymentTermsDays: 30, quoteValidityDays: 30, invoiceFooter: '', remindersEnabled: true, reminderDays: [7, 14, 30] });
    const saved = await api(admin, 'PUT', '/api/admin/settings/billing', { paymentTermsDays: 15, quoteValidityDays: 45, invoiceFooter: 'Checks payable to Lowcountry Comfort', remindersEnabled: true, reminderDays: [30, 7] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().settings.reminderDays).toEqual([7, 30]);
    const bad = await api(admin, 'PUT', '/api/admin/settings/billing', { paymentTermsDays: 400, quoteValidityDays: 0, invoiceFooter: '', remindersEnabled: true, reminderDays: [7, 7] });
    expect(bad.statusCode).toBe(400);
    const messages = (bad.json().error.details as { message: string }[]).map((detail) => detail.message);
    expect(messages).toEqual(expect.arrayContaining([billingSettingsMessages.termsInvalid, billingSettingsMessages.validityInvalid, billingSettingsMessages.reminderDaysInvalid]));
    const log = (await api(admin, 'GET', '/api/admin/settings/activity?entityType=settings&entityId=billing')).json() as AuditListResponse;
    expect(log.entries[0]).toMatchObject({ action: 'updated', changes: { paymentTermsDays: [30, 15] } });
  });

  it('keeps one default rate: making another the default clears the first', async () => {
    const created = await api(admin, 'POST', '/api/admin/settings/tax-rates', { name: 'Jasper County 6% + 1%', ratePpm: 70_000, isDefault: true });
    expect(created.statusCode, created.body).toBe(201);
    const page = (await api(admin, 'GET', '/api/admin/settings/billing')).json() as BillingSettingsPage;
    expect(page.taxRates.filter((rate) => rate.isDefault).map((rate) => rate.name)).toEqual(['Jasper County 6% + 1%']);
    const twin = await api(admin, 'POST', '/api/admin/settings/tax-rates', { name: 'jasper county 6% + 1%', ratePpm: 1 });
    expect(twin.statusCode).toBe(409);
    const inactiveDefault = await api(admin, 'PUT', `/api/admin/settings/tax-rates/${created.json().taxRate.id}`, { name: 'Jasper County 6% + 1%', ratePpm: 70_000, isDefault: true, active: false });
    expect(inactiveDefault.json().error.message).toBe(billingSettingsMessages.taxDefaultInactive);
    expect((await api(admin, 'POST', '/api/admin/settings/tax-rates', { name: 'Too much', ratePpm: 1_000_001 })).statusCode).toBe(400);
  });
});
