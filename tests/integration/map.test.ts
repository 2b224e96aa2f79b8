import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '#shared/dates.ts';
import type { WorkOrderPriority, WorkOrderServiceType, WorkOrderStatus } from '#shared/enums.ts';
import type { MapCustomerDetails, MapCustomersResponse, MapProperty, MapPropertiesResponse, MapPropertyDetails, MapWorkOrderFilters } from '#shared/map.ts';
import { mapWorkOrderFiltersSchema } from '#shared/map.ts';
import { clusterMaxZoom, mapMaxZoom, mapViewMessages, mapViewQuery, type MapView } from '#shared/map-view.ts';
import { createMapService } from '#server/modules/map/map.service.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// The service map's data against a known set of customers and work orders (decision 016-c). The
// date ranges are read through the service with a fixed clock (New York, Tuesday 10 March 2026),
// everything else through the routes.

const timeZone = 'America/New_York';
const now = new Date('2026-03-10T15:00:00Z');
const today = '2026-03-10';

let context: TestContext;
let cookie: string;

type Place = { address: string; city: string; state: string };
const harbourTown: Place = { address: '100 Harbour Town Ln', city: 'Hilton Head Island', state: 'SC' };
const baySt: Place = { address: '5 Bay St', city: 'Beaufort', state: 'SC' };
const mayRiver: Place = { address: '9 May River Rd', city: 'Bluffton', state: 'SC' };
const okatie: Place = { address: '77 Okatie Hwy', city: 'Okatie', state: 'SC' };
const emptyCt: Place = { address: '1 Empty Ct', city: 'Bluffton', state: 'SC' };
const cancelLn: Place = { address: '3 Cancel Ln', city: 'Ridgeland', state: 'SC' };

const ids: Record<string, string> = {};
const workOrderIds: Record<string, string> = {};

let customerCount = 0;
async function customer(
  key: string,
  place: Place,
  values: { type?: 'residential' | 'commercial'; at?: [number, number] | null; createdAt: string; email?: string },
): Promise<void> {
  customerCount += 1;
  const [latitude, longitude] = values.at === null ? [null, null] : (values.at ?? [32.2 + customerCount / 100, -80.8 - customerCount / 100]);
  const [row] = await context.database.query<{ id: string }>(
    `insert into customers (name, phone, email, address, city, state, zip, type, latitude, longitude, geocoding_status, created_at)
     values ($1, $2, $3, $4, $5, $6, '29910', $7, $8, $9, $10, $11) returning id`,
    [
      key,
      `(843) 555-01${String(customerCount).padStart(2, '0')}`,
      values.email ?? null,
      place.address,
      place.city,
      place.state,
      values.type ?? 'residential',
      latitude,
      longitude,
      latitude === null ? 'pending' : 'success',
      values.createdAt,
    ],
  );
  ids[key] = row!.id;
}

let workOrderCount = 0;
async function workOrder(
  key: string,
  customerKey: string,
  values: { status: WorkOrderStatus; priority: WorkOrderPriority; serviceType: WorkOrderServiceType; serviceDate: string },
): Promise<void> {
  workOrderCount += 1;
  // created_at in insertion order, one minute apart: "newest first" is the reverse of this list.
  const createdAt = new Date(Date.UTC(2026, 0, 1, 0, workOrderCount)).toISOString();
  const [row] = await context.database.query<{ id: string }>(
    `insert into work_orders (customer_id, title, service_date, status, priority, service_type, created_at)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [ids[customerKey], key, values.serviceDate, values.status, values.priority, values.serviceType, createdAt],
  );
  workOrderIds[key] = row!.id;
}

beforeAll(async () => {
  context = await createTestApp({ env: { TZ_BUSINESS: timeZone } });
  await createStaff(context.database);
  cookie = await signIn(context.app);

  // Two customers share Harbour Town (a residence and a business): one commercial property.
  await customer('Alice', harbourTown, { at: [32.1401, -80.8101], createdAt: '2020-01-01T00:00:00Z', email: 'alice@example.com' });
  await customer('Acme Suites', harbourTown, { type: 'commercial', at: [32.1402, -80.8102], createdAt: '2021-01-01T00:00:00Z' });
  await customer('Bob', baySt, { createdAt: '2020-02-01T00:00:00Z' });
  await customer('Cora', mayRiver, { createdAt: '2020-03-01T00:00:00Z' });
  await customer('Dan', okatie, { at: null, createdAt: '2020-04-01T00:00:00Z' });
  await customer('Eve', emptyCt, { createdAt: '2020-05-01T00:00:00Z' });
  await customer('Finn', cancelLn, { createdAt: '2020-06-01T00:00:00Z' });

  await workOrder('A1 pending', 'Alice', { status: 'pending', priority: 'normal', serviceType: 'repair', serviceDate: today });
  await workOrder('A1 scheduled', 'Alice', { status: 'scheduled', priority: 'high', serviceType: 'maintenance', serviceDate: addDays(today, 3) });
  await workOrder('A2 in progress', 'Acme Suites', { status: 'in-progress', priority: 'emergency', serviceType: 'repair', serviceDate: today });
  await workOrder('A2 completed', 'Acme Suites', { status: 'completed', priority: 'low', serviceType: 'inspection', serviceDate: addDays(today, -20) });
  await workOrder('A2 pending', 'Acme Suites', { status: 'pending', priority: 'low', serviceType: 'installation', serviceDate: addDays(today, 10) });
  await workOrder('B scheduled', 'Bob', { status: 'scheduled', priority: 'normal', serviceType: 'ductwork', serviceDate: addDays(today, 6) });
  await workOrder('B pending', 'Bob', { status: 'pending', priority: 'low', serviceType: 'repair', serviceDate: addDays(today, 7) });
  await workOrder('C completed', 'Cora', { status: 'completed', priority: 'normal', serviceType: 'maintenance', serviceDate: addDays(today, -2) });
  await workOrder('D pending', 'Dan', { status: 'pending', priority: 'emergency', serviceType: 'repair', serviceDate: today });
  await workOrder('F cancelled', 'Finn', { status: 'cancelled', priority: 'normal', serviceType: 'repair', serviceDate: today });
}, 60_000);
afterAll(() => context?.close());

const get = (url: string, signedIn = true) => context.app.inject({ method: 'GET', url, headers: signedIn ? { cookie } : {} });

/** The whole world at the highest zoom: every item as a single marker (the filter tests read them all). */
const everywhere: MapView = { bbox: [-180, -85, 180, 85], zoom: mapMaxZoom };
/** A request's query string with a view added (everywhere unless given). */
const withView = (query: string, view: MapView = everywhere) => `${query ? `${query}&` : '?'}${mapViewQuery(view)}`;

async function properties(query = '', view?: MapView): Promise<MapPropertiesResponse> {
  const response = await get(`/api/admin/map/properties${withView(query, view)}`);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json<MapPropertiesResponse>();
}

/** The Work Orders View at the fixed clock (for date ranges). */
async function propertiesAt(filters: Partial<Record<keyof MapWorkOrderFilters, string>>): Promise<MapPropertiesResponse> {
  const service = createMapService({ db: context.database.db, timeZone, tiles: { url: '/t/{z}/{x}/{y}.png', attribution: 'x' }, now: () => now });
  return JSON.parse((await service.properties(mapWorkOrderFiltersSchema.parse(filters), everywhere)).bytes.toString('utf8')) as MapPropertiesResponse;
}

const byAddress = (answer: MapPropertiesResponse) => new Map(answer.properties.map((property) => [property.address, property]));
const addresses = (answer: MapPropertiesResponse) => answer.properties.map((property) => property.address).sort();
const counts = (property: MapProperty | undefined) =>
  property && {
    active: property.activeWorkOrders,
    pending: property.pendingCount,
    scheduled: property.scheduledCount,
    inProgress: property.inProgressCount,
    completed: property.completedCount,
    highest: property.highestPriority,
  };

describe('GET /api/admin/map/properties', () => {
  it('groups customers by address and counts the active work orders (Active Only, the default)', async () => {
    const answer = await properties();
    expect(addresses(answer)).toEqual([harbourTown.address, baySt.address].sort());
    const harbour = byAddress(answer).get(harbourTown.address)!;
    expect(harbour).toMatchObject({
      id: ids.Alice,
      city: 'Hilton Head Island',
      state: 'SC',
      zip: '29910',
      propertyType: 'commercial',
      customerCount: 2,
    });
    expect(harbour.latitude).toBeCloseTo(32.1401, 6);
    expect(harbour.longitude).toBeCloseTo(-80.8101, 6);
    expect(counts(harbour)).toEqual({ active: 4, pending: 2, scheduled: 1, inProgress: 1, completed: 0, highest: 'emergency' });
    const bay = byAddress(answer).get(baySt.address)!;
    expect(bay).toMatchObject({ id: ids.Bob, propertyType: 'residential', customerCount: 1 });
    expect(counts(bay)).toEqual({ active: 2, pending: 1, scheduled: 1, inProgress: 0, completed: 0, highest: 'normal' });
  });

  it('reports the header over all geocoded properties, whatever the filters', async () => {
    // Harbour Town and Bay St have active work; May River, Empty Ct and Cancel Ln are mapped too;
    // Okatie (no coordinates) is not counted.
    for (const query of ['', '?status=completed', '?priority=low&dateRange=today']) {
      const answer = await properties(query);
      expect({ withActiveWorkOrders: answer.withActiveWorkOrders, total: answer.total }, query).toEqual({ withActiveWorkOrders: 2, total: 5 });
    }
  });

  it('tells what the filters keep (the screen\'s header) and the bounds of all of it, whatever the box', async () => {
    const far: MapView = { bbox: [-79.1, 34.4, -78.9, 34.6], zoom: 12 };
    const answer = await properties('', far);
    expect({ properties: answer.properties, clusters: answer.clusters }).toEqual({ properties: [], clusters: [] });
    // Harbour Town (its first customer's pin, Alice's) and Bay St (Bob, 3rd customer: 32.23, -80.83).
    expect(answer.matching).toEqual({ count: 2, withActiveWorkOrders: 2, bounds: [[32.1401, -80.83], [32.23, -80.8101]] });
    expect((await properties('?activeOnly=false', far)).matching).toMatchObject({ count: 4, withActiveWorkOrders: 2 });
    expect((await properties('?priority=urgent', far)).matching).toEqual({ count: 0, withActiveWorkOrders: 0, bounds: null });
    // Clustered at a low zoom: one cluster of both, which zooming splits.
    const low = await properties('', { bbox: [-84, 31, -78, 36], zoom: 5 });
    expect(low.properties).toEqual([]);
    expect(low.clusters).toEqual([{ id: expect.any(Number), latitude: expect.any(Number), longitude: expect.any(Number), count: 2, expansionZoom: expect.any(Number) }]);
    expect(low.clusters[0]!.expansionZoom).toBeLessThanOrEqual(clusterMaxZoom);
  });

  it('never lists customers without coordinates', async () => {
    const everything = await properties('?activeOnly=false');
    expect(addresses(everything)).not.toContain(okatie.address);
    expect(addresses(await properties('?priority=emergency'))).toEqual([harbourTown.address]);
  });

  it('lists every work order when Active Only is off, and properties with none matching never', async () => {
    const answer = await properties('?activeOnly=false&status=all');
    expect(addresses(answer)).toEqual([harbourTown.address, baySt.address, mayRiver.address, cancelLn.address].sort());
    const found = byAddress(answer);
    expect(counts(found.get(harbourTown.address))).toEqual({ active: 4, pending: 2, scheduled: 1, inProgress: 1, completed: 1, highest: 'emergency' });
    expect(counts(found.get(mayRiver.address))).toEqual({ active: 0, pending: 0, scheduled: 0, inProgress: 0, completed: 1, highest: 'normal' });
    expect(counts(found.get(cancelLn.address))).toEqual({ active: 0, pending: 0, scheduled: 0, inProgress: 0, completed: 0, highest: 'normal' });
    expect(found.has(emptyCt.address)).toBe(false);
  });

  it('selects one status; a specific status is not narrowed by Active Only', async () => {
    const completed = await properties('?status=completed');
    expect(addresses(completed)).toEqual([harbourTown.address, mayRiver.address].sort());
    expect(counts(byAddress(completed).get(harbourTown.address))).toEqual({ active: 0, pending: 0, scheduled: 0, inProgress: 0, completed: 1, highest: 'low' });
    expect(await properties('?status=completed&activeOnly=false')).toEqual(completed);

    const pending = byAddress(await properties('?status=pending'));
    expect([...pending.keys()].sort()).toEqual([harbourTown.address, baySt.address].sort());
    expect(counts(pending.get(harbourTown.address))).toEqual({ active: 2, pending: 2, scheduled: 0, inProgress: 0, completed: 0, highest: 'normal' });
    expect(counts(pending.get(baySt.address))).toMatchObject({ active: 1, pending: 1, highest: 'low' });

    expect(addresses(await properties('?status=in-progress'))).toEqual([harbourTown.address]);
  });

  it('filters by priority', async () => {
    const high = await properties('?priority=high');
    expect(addresses(high)).toEqual([harbourTown.address]);
    expect(counts(high.properties[0])).toEqual({ active: 1, pending: 0, scheduled: 1, inProgress: 0, completed: 0, highest: 'high' });
    const low = byAddress(await properties('?priority=low'));
    expect([...low.keys()].sort()).toEqual([harbourTown.address, baySt.address].sort());
    expect(counts(low.get(harbourTown.address))).toMatchObject({ active: 1, pending: 1, highest: 'low' });
    expect((await properties('?priority=urgent')).properties).toEqual([]);
  });

  it('filters by service type; Emergency means emergency priority', async () => {
    const emergency = await properties('?serviceType=emergency');
    expect(addresses(emergency)).toEqual([harbourTown.address]);
    expect(counts(emergency.properties[0])).toEqual({ active: 1, pending: 0, scheduled: 0, inProgress: 1, completed: 0, highest: 'emergency' });
    expect(addresses(await properties('?serviceType=ductwork'))).toEqual([baySt.address]);
    const repair = byAddress(await properties('?serviceType=repair'));
    expect(counts(repair.get(harbourTown.address))).toMatchObject({ active: 2, pending: 1, inProgress: 1 });
    expect(counts(repair.get(baySt.address))).toMatchObject({ active: 1, pending: 1 });
    expect(addresses(await properties('?serviceType=inspection&activeOnly=false'))).toEqual([harbourTown.address]);
  });

  it('filters by service date in the company time zone: today, the next 7 days, this month', async () => {
    const todays = await propertiesAt({ dateRange: 'today' });
    expect(addresses(todays)).toEqual([harbourTown.address]);
    expect(counts(todays.properties[0])).toMatchObject({ active: 2, pending: 1, inProgress: 1 });

    // Today to today + 6: Harbour Town's two of today and its scheduled visit; Bay St's visit on day 6, not its pending one on day 7.
    const week = byAddress(await propertiesAt({ dateRange: 'week' }));
    expect(counts(week.get(harbourTown.address))).toMatchObject({ active: 3, scheduled: 1 });
    expect(counts(week.get(baySt.address))).toEqual({ active: 1, pending: 0, scheduled: 1, inProgress: 0, completed: 0, highest: 'normal' });

    // March 2026: everything but Harbour Town's completed inspection of 18 February.
    const month = byAddress(await propertiesAt({ dateRange: 'month', activeOnly: 'false' }));
    expect([...month.keys()].sort()).toEqual([harbourTown.address, baySt.address, mayRiver.address, cancelLn.address].sort());
    expect(counts(month.get(harbourTown.address))).toMatchObject({ active: 4, completed: 0 });
    expect(counts(month.get(mayRiver.address))).toMatchObject({ completed: 1 });

    // Just after midnight in New York on 11 March (04:30 UTC), 'today' is the 11th: nothing then.
    const service = createMapService({ db: context.database.db, timeZone, tiles: { url: '/t/{z}/{x}/{y}.png', attribution: 'x' }, now: () => new Date('2026-03-11T04:30:00Z') });
    const nextDay = JSON.parse((await service.properties(mapWorkOrderFiltersSchema.parse({ dateRange: 'today' }), everywhere)).bytes.toString('utf8')) as MapPropertiesResponse;
    expect(nextDay.properties).toEqual([]);
  });

  it("marks today's field step per property: en route, on site or done, with its time (issue 19)", async () => {
    await context.database.query(`update work_orders set started_at = '2026-03-10T14:05:00Z' where id = $1`, [workOrderIds['A2 in progress']]);
    await workOrder('B today', 'Bob', { status: 'scheduled', priority: 'normal', serviceType: 'repair', serviceDate: today });
    await workOrder('C today', 'Cora', { status: 'completed', priority: 'normal', serviceType: 'repair', serviceDate: today });
    await context.database.query(`update work_orders set en_route_at = '2026-03-10T14:30:00Z' where id = $1`, [workOrderIds['B today']]);
    await context.database.query(`update work_orders set completed_at = '2026-03-10T13:00:00Z' where id = $1`, [workOrderIds['C today']]);
    try {
      const steps = (answer: MapPropertiesResponse) =>
        Object.fromEntries(answer.properties.flatMap((property) => (property.fieldStep ? [[property.address, { step: property.fieldStep.step, at: property.fieldStep.at && new Date(property.fieldStep.at).toISOString() }]] : [])));
      expect(steps(await propertiesAt({ activeOnly: 'false' }))).toEqual({
        [harbourTown.address]: { step: 'on-site', at: '2026-03-10T14:05:00.000Z' },
        [baySt.address]: { step: 'en-route', at: '2026-03-10T14:30:00.000Z' },
        [mayRiver.address]: { step: 'done', at: '2026-03-10T13:00:00.000Z' },
      });
      // Another day: nobody is on the way today.
      expect(steps(await properties('?activeOnly=false'))).toEqual({});
      const details = (await get(`/api/admin/map/property?${new URLSearchParams(baySt).toString()}`)).json<MapPropertyDetails>();
      const bob = details.activeWorkOrderDetails.find((item) => item.title === 'B today');
      expect(bob?.enRouteAt && new Date(bob.enRouteAt).toISOString()).toBe('2026-03-10T14:30:00.000Z');
      // The popup lists today's completed visit with its time (the marker's ring), not the one of two days ago.
      const tiles = { url: '/t/{z}/{x}/{y}.png', attribution: 'x' };
      const done = await createMapService({ db: context.database.db, timeZone, tiles, now: () => now }).property(mayRiver);
      expect(done.activeWorkOrderDetails).toEqual([]);
      expect(done.doneTodayDetails.map((item) => [item.title, item.status, item.completedAt])).toEqual([['C today', 'completed', '2026-03-10T13:00:00.000Z']]);
      // The next day (just after midnight in New York) it is no longer today's.
      const nextDay = await createMapService({ db: context.database.db, timeZone, tiles, now: () => new Date('2026-03-11T04:30:00Z') }).property(mayRiver);
      expect(nextDay.doneTodayDetails).toEqual([]);
    } finally {
      await context.database.query('delete from work_orders where id = any($1::uuid[])', [[workOrderIds['B today'], workOrderIds['C today']]]);
      await context.database.query('update work_orders set started_at = null where id = $1', [workOrderIds['A2 in progress']]);
    }
  });

  it('sees a new work order at once (answers are kept per database snapshot only)', async () => {
    expect(addresses(await properties('?priority=normal&status=pending'))).toEqual([harbourTown.address]);
    await workOrder('E pending', 'Eve', { status: 'pending', priority: 'normal', serviceType: 'repair', serviceDate: today });
    try {
      const answer = await properties('?priority=normal&status=pending');
      expect(addresses(answer)).toEqual([harbourTown.address, emptyCt.address].sort());
      expect(answer.withActiveWorkOrders).toBe(3);
    } finally {
      await context.database.query('delete from work_orders where id = $1', [workOrderIds['E pending']]);
    }
    expect(addresses(await properties('?priority=normal&status=pending'))).toEqual([harbourTown.address]);
  });

  it('sends the same answer in Brotli or gzip to clients that accept them', async () => {
    const url = `/api/admin/map/properties${withView('?activeOnly=false')}`;
    const plain = await get(url);
    const brotli = await context.app.inject({ method: 'GET', url, headers: { cookie, 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(brotli.rawPayload).toString('utf8')).toBe(plain.body);
    const zipped = await context.app.inject({ method: 'GET', url, headers: { cookie, 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
  });

  it('answers 400 for filters outside the lists', async () => {
    for (const query of ['?status=cancelled', '?priority=critical', '?dateRange=year', '?serviceType=plumbing', '?activeOnly=maybe']) {
      const response = await get(`/api/admin/map/properties${withView(query)}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
  });
});

describe('GET /api/admin/map/customers', () => {
  async function customers(query = '', view?: MapView): Promise<MapCustomersResponse> {
    const response = await get(`/api/admin/map/customers${withView(query, view)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MapCustomersResponse>();
  }
  const names = (answer: MapCustomersResponse) => answer.customers.map((item) => item.name).sort();

  it('lists every geocoded customer with total and active work-order counts', async () => {
    const answer = await customers();
    expect(names(answer)).toEqual(['Acme Suites', 'Alice', 'Bob', 'Cora', 'Eve', 'Finn']);
    expect({ total: answer.total, withActiveWorkOrders: answer.withActiveWorkOrders }).toEqual({ total: 6, withActiveWorkOrders: 3 });
    const acme = answer.customers.find((item) => item.name === 'Acme Suites')!;
    expect(acme).toMatchObject({ id: ids['Acme Suites'], type: 'commercial', totalWorkOrders: 3, activeWorkOrders: 2 });
    expect(acme.latitude).toBeCloseTo(32.1402, 6);
    expect(acme.longitude).toBeCloseTo(-80.8102, 6);
    expect(answer.customers.find((item) => item.name === 'Eve')).toMatchObject({ totalWorkOrders: 0, activeWorkOrders: 0 });
    expect(answer.customers.find((item) => item.name === 'Finn')).toMatchObject({ totalWorkOrders: 1, activeWorkOrders: 0 });
  });

  it('filters by customer type and by having active work orders; the header stays whole', async () => {
    expect(names(await customers('?type=commercial'))).toEqual(['Acme Suites']);
    expect(names(await customers('?type=residential'))).toEqual(['Alice', 'Bob', 'Cora', 'Eve', 'Finn']);
    const busy = await customers('?hasActiveWorkOrders=true');
    expect(names(busy)).toEqual(['Acme Suites', 'Alice', 'Bob']);
    expect({ total: busy.total, withActiveWorkOrders: busy.withActiveWorkOrders }).toEqual({ total: 6, withActiveWorkOrders: 3 });
    expect(names(await customers('?hasActiveWorkOrders=true&type=residential'))).toEqual(['Alice', 'Bob']);
  });

  it('sends names and addresses with quotes, backslashes and accents intact', async () => {
    const awkward: Place = { address: '8 "Quote" St \\ Unit Ø', city: 'Bluffton', state: 'SC' };
    await customer('Zoë "Q" O\'Neil \\', awkward, { createdAt: '2020-07-01T00:00:00Z' });
    await workOrder('Z pending', 'Zoë "Q" O\'Neil \\', { status: 'pending', priority: 'normal', serviceType: 'repair', serviceDate: today });
    try {
      expect(names(await customers())).toContain('Zoë "Q" O\'Neil \\');
      expect(addresses(await properties())).toContain(awkward.address);
    } finally {
      await context.database.query('delete from work_orders where id = $1', [workOrderIds['Z pending']]);
      await context.database.query('delete from customers where id = $1', [ids['Zoë "Q" O\'Neil \\']]);
    }
  });

  it('answers 400 for an unknown type or flag', async () => {
    expect((await get(`/api/admin/map/customers${withView('?type=industrial')}`)).statusCode).toBe(400);
    expect((await get(`/api/admin/map/customers${withView('?hasActiveWorkOrders=yes')}`)).statusCode).toBe(400);
  });

  // Clustering on the server (decision 023-c): the answer is the view's clusters and markers.
  const sum = (answer: MapCustomersResponse) => answer.customers.length + answer.clusters.reduce((total, cluster) => total + cluster.count, 0);
  const around = (latitude: number, longitude: number, zoom: number, degrees = 0.01): MapView => ({
    bbox: [longitude - degrees, latitude - degrees, longitude + degrees, latitude + degrees],
    zoom,
  });

  it('clusters at a low zoom: the clusters and single markers add up to every customer kept', async () => {
    const answer = await customers('', { bbox: [-84, 31, -78, 36], zoom: 5 });
    expect(answer.clusters.length).toBeGreaterThan(0);
    expect(answer.customers.length).toBeLessThan(6);
    expect(sum(answer)).toBe(6);
    expect(answer.matching).toMatchObject({ count: 6, withActiveWorkOrders: 3 });
    for (const cluster of answer.clusters) {
      expect(cluster.latitude).toBeGreaterThan(32);
      expect(cluster.longitude).toBeLessThan(-80);
      expect(cluster.expansionZoom).toBeGreaterThan(5);
    }
    // The filters apply before clustering.
    const busy = await customers('?hasActiveWorkOrders=true', { bbox: [-84, 31, -78, 36], zoom: 5 });
    expect(sum(busy)).toBe(3);
  });

  it('gives single markers with every field at a high zoom, and only those in the box', async () => {
    // Bob alone (his default spot is 32.23, -80.83): Alice and Acme Suites are outside the box.
    const answer = await customers('', around(32.23, -80.83, 16));
    expect(answer.clusters).toEqual([]);
    expect(answer.customers).toEqual([
      { id: ids.Bob, name: 'Bob', type: 'residential', latitude: 32.23, longitude: -80.83, totalWorkOrders: 2, activeWorkOrders: 2, isMember: false },
    ]);
    // An empty box: no markers, but the header and bounds of everything kept.
    const empty = await customers('', around(34.5, -79, 12));
    expect({ customers: empty.customers, clusters: empty.clusters }).toEqual({ customers: [], clusters: [] });
    expect(empty.matching.count).toBe(6);
    expect({ total: empty.total, withActiveWorkOrders: empty.withActiveWorkOrders }).toEqual({ total: 6, withActiveWorkOrders: 3 });
  });

  it('lists the customers of a spot that zooming cannot split (a shared building)', async () => {
    // Alice and Acme Suites are 14 m apart: together up to the clustering's last zoom (17).
    const answer = await customers('', around(32.14015, -80.81015, 17, 0.002));
    expect(answer.customers).toEqual([]);
    expect(answer.clusters).toHaveLength(1);
    const [cluster] = answer.clusters;
    expect(cluster).toMatchObject({ count: 2, expansionZoom: clusterMaxZoom + 1 });
    expect(cluster!.stacked?.map((item) => item.name).sort()).toEqual(['Acme Suites', 'Alice']);
    expect(cluster!.stacked?.find((item) => item.name === 'Acme Suites')).toMatchObject({ id: ids['Acme Suites'], type: 'commercial', activeWorkOrders: 2 });
    // At the map's last zoom they are two markers.
    expect((await customers('', around(32.14015, -80.81015, mapMaxZoom, 0.002))).customers.map((item) => item.name).sort()).toEqual(['Acme Suites', 'Alice']);
    // A cluster that zooming splits lists nothing.
    expect((await customers('', { bbox: [-84, 31, -78, 36], zoom: 5 })).clusters.every((item) => item.stacked === undefined)).toBe(true);
  });

  it('gives the bounds of every customer the filters keep, wherever the box is', async () => {
    const all = await customers('', around(34.5, -79, 12));
    // Harbour Town (32.1401..32.1402, -80.8102..-80.8101) to Finn (7th customer: 32.27, -80.87).
    expect(all.matching.bounds).toEqual([
      [32.1401, -80.87],
      [32.27, -80.8101],
    ]);
    const commercial = await customers('?type=commercial', around(34.5, -79, 12));
    expect(commercial.matching).toEqual({ count: 1, withActiveWorkOrders: 1, bounds: [[32.1402, -80.8102], [32.1402, -80.8102]] });
  });

  it('answers again after its clustering thread stopped: a new thread loads the markers again', async () => {
    const service = createMapService({ db: context.database.db, timeZone, tiles: { url: '/t/{z}/{x}/{y}.png', attribution: 'x' }, now: () => now });
    const read = async (view: MapView) => JSON.parse((await service.customers({ type: 'all', hasActiveWorkOrders: false }, view)).bytes.toString('utf8')) as MapCustomersResponse;
    try {
      expect(sum(await read({ bbox: [-84, 31, -78, 36], zoom: 5 }))).toBe(6);
      await service.close();
      expect(sum(await read({ bbox: [-84, 31, -78, 36], zoom: 6 }))).toBe(6);
    } finally {
      await service.close();
    }
  });

  it('answers 400 with a clear message for a missing or malformed box or zoom', async () => {
    const cases: [string, string][] = [
      ['?zoom=5', 'bbox'],
      ['?bbox=-84,31,-78,36', 'zoom'],
      ['?bbox=-84,31,-78&zoom=5', mapViewMessages.bbox],
      ['?bbox=-78,31,-84,36&zoom=5', mapViewMessages.bbox],
      ['?bbox=-84,36,-78,31&zoom=5', mapViewMessages.bbox],
      ['?bbox=-190,31,-78,36&zoom=5', mapViewMessages.bbox],
      ['?bbox=a,b,c,d&zoom=5', mapViewMessages.bbox],
      ['?bbox=-84,31,-78,36&zoom=19', mapViewMessages.zoom],
      ['?bbox=-84,31,-78,36&zoom=1.5', mapViewMessages.zoom],
      ['?bbox=-84,31,-78,36&zoom=-1', mapViewMessages.zoom],
    ];
    for (const [query, message] of cases) {
      for (const path of ['/api/admin/map/customers', '/api/admin/map/properties']) {
        const response = await get(`${path}${query}`);
        expect(response.statusCode, `${path}${query}`).toBe(400);
        const body = response.json<{ error: { code: string; message: string } }>();
        expect(body.error.code).toBe('VALIDATION_FAILED');
        expect(body.error.message, `${path}${query}`).toContain(message);
      }
    }
  });
});

describe('GET /api/admin/map/property', () => {
  const propertyUrl = (place: Place) => `/api/admin/map/property?${new URLSearchParams(place).toString()}`;

  it('gives the property, its customers (a plan member marked) and at most 3 active work orders, newest first', async () => {
    // Alice holds an active maintenance plan (issue 22); Acme's is cancelled and does not count.
    await context.database.query(
      `insert into maintenance_agreements (customer_id, plan_id, status, start_date, current_term_starts_on, current_term_ends_on, price_cents)
       values ($1, 'advanced', 'active', '2027-01-01', '2027-01-01', '2027-12-31', 25000), ($2, 'essential', 'cancelled', '2027-01-01', '2027-01-01', '2027-12-31', 15000)`,
      [ids.Alice, ids['Acme Suites']],
    );
    const response = await get(propertyUrl(harbourTown));
    expect(response.statusCode, response.body).toBe(200);
    const details = response.json<MapPropertyDetails>();
    expect(details).toMatchObject({
      id: ids.Alice,
      ...harbourTown,
      zip: '29910',
      propertyType: 'commercial',
      customerCount: 2,
      activeWorkOrders: 4,
      pendingCount: 2,
      scheduledCount: 1,
      inProgressCount: 1,
      completedCount: 1,
      highestPriority: 'emergency',
    });
    expect(details.customers).toEqual([
      { id: ids.Alice, name: 'Alice', phone: expect.any(String), email: 'alice@example.com', type: 'residential', isMember: true },
      { id: ids['Acme Suites'], name: 'Acme Suites', phone: expect.any(String), email: null, type: 'commercial', isMember: false },
    ]);
    const alice = await get(`/api/admin/map/customers/${ids.Alice}`);
    expect(alice.json<MapCustomerDetails>().isMember).toBe(true);
    const acme = await get(`/api/admin/map/customers/${ids['Acme Suites']}`);
    expect(acme.json<MapCustomerDetails>().isMember).toBe(false);
    expect(details.isMember).toBe(true);
    // The markers say it too: the property where a member lives, and the member (issue 22).
    const markers = byAddress(await properties('?activeOnly=false'));
    expect(markers.get(harbourTown.address)?.isMember).toBe(true);
    expect(markers.get(mayRiver.address)?.isMember).toBe(false);
    const people = (await get(`/api/admin/map/customers${withView('')}`)).json<MapCustomersResponse>().customers;
    expect(people.filter((person) => person.isMember).map((person) => person.id)).toEqual([ids.Alice]);
    expect(details.activeWorkOrderDetails.map((item) => item.title)).toEqual(['A2 pending', 'A2 in progress', 'A1 scheduled']);
    expect(details.activeWorkOrderDetails[0]).toEqual({
      id: workOrderIds['A2 pending'],
      workOrderNumber: expect.stringMatching(/^WO-\d+$/),
      title: 'A2 pending',
      serviceType: 'installation',
      status: 'pending',
      priority: 'low',
      enRouteAt: null,
      startedAt: null,
      completedAt: null,
    });
  });

  it('has no highest priority when nothing is active', async () => {
    const details = (await get(propertyUrl(mayRiver))).json<MapPropertyDetails>();
    expect(details).toMatchObject({ customerCount: 1, activeWorkOrders: 0, completedCount: 1, highestPriority: null, activeWorkOrderDetails: [], doneTodayDetails: [] });
  });

  it('answers 404 where no geocoded customer is, and 400 without an address', async () => {
    expect((await get(propertyUrl(okatie))).statusCode).toBe(404);
    expect((await get(propertyUrl({ ...harbourTown, city: 'Bluffton' }))).statusCode).toBe(404);
    expect((await get('/api/admin/map/property?city=Bluffton&state=SC')).statusCode).toBe(400);
  });
});

describe('GET /api/admin/map/customers/:id', () => {
  it('gives the customer with contact details and counts', async () => {
    const response = await get(`/api/admin/map/customers/${ids.Alice}`);
    expect(response.statusCode, response.body).toBe(200);
    const details = response.json<MapCustomerDetails>();
    expect(details).toMatchObject({
      id: ids.Alice,
      name: 'Alice',
      type: 'residential',
      totalWorkOrders: 2,
      activeWorkOrders: 2,
      email: 'alice@example.com',
      ...harbourTown,
      zip: '29910',
    });
    expect(details.phone).toMatch(/^\(843\)/);
    expect(details.latitude).toBeCloseTo(32.1401, 6);
  });

  it('answers 404 for a customer without coordinates, an unknown id or a malformed one', async () => {
    expect((await get(`/api/admin/map/customers/${ids.Dan}`)).statusCode).toBe(404);
    expect((await get('/api/admin/map/customers/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await get('/api/admin/map/customers/not-an-id')).statusCode).toBe(404);
  });
});

describe('the map configuration and access', () => {
  it('gives the tile layer: OpenStreetMap by default', async () => {
    const response = await get('/api/admin/map/config');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: '&copy; OpenStreetMap contributors' });
    expect(response.headers['content-security-policy']).toContain("img-src 'self' data: blob: https://tile.openstreetmap.org;");
  });

  it('answers 401 without a session', async () => {
    for (const url of [
      '/api/admin/map/config',
      `/api/admin/map/properties${withView('')}`,
      `/api/admin/map/customers${withView('')}`,
      `/api/admin/map/property?${new URLSearchParams(harbourTown).toString()}`,
      `/api/admin/map/customers/${ids.Alice}`,
    ]) {
      expect((await get(url, false)).statusCode, url).toBe(401);
    }
  });
});

describe('a configured tile server', () => {
  let other: TestContext;
  beforeAll(async () => {
    other = await createTestApp({
      env: { MAP_TILE_URL: 'https://{s}.tiles.example.org:8443/styles/{z}/{x}/{y}{r}.png', MAP_TILE_ATTRIBUTION: '&copy; Example Tiles' },
    });
    await createStaff(other.database);
  }, 60_000);
  afterAll(() => other?.close());

  it('is served to the map and allowed as an image source (any subdomain for {s})', async () => {
    const otherCookie = await signIn(other.app);
    const response = await other.app.inject({ method: 'GET', url: '/api/admin/map/config', headers: { cookie: otherCookie } });
    expect(response.json()).toEqual({ tileUrl: 'https://{s}.tiles.example.org:8443/styles/{z}/{x}/{y}{r}.png', attribution: '&copy; Example Tiles' });
    expect(response.headers['content-security-policy']).toContain("img-src 'self' data: blob: https://*.tiles.example.org:8443;");
  });
});
