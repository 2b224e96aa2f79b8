import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { skippedReasons } from '#server/modules/geocoding/geocoding.repository.ts';
import { geocodingMessages, type GeocodingBatch, type GeocodingStats } from '#shared/geocoding.ts';
import { liveChannel } from '#shared/live-events.ts';
import { startFakeHttpServer, type FakeAnswer, type RecordedRequest } from '#tests/support/fake-http-server.ts';
import { createStaff, createTestApp, signIn, testConfig, type TestContext } from '#tests/support/test-app.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';

// Geocoding batches run by the server (issue 9), on a real database: the offline ZIP provider, and
// the Google provider pointed at a fake Google on 127.0.0.1 (for the cache, rate limits, an address
// edited during its lookup, one running batch at a time and resuming after a stop).

type CustomerSeed = { name?: string; address?: string; city?: string; state?: string; zip?: string | null; status?: string; latitude?: number; createdAt?: string };

let seq = 0;
async function insertCustomer(database: DatabaseHandle, seed: CustomerSeed = {}): Promise<string> {
  seq += 1;
  const [row] = await database.query<{ id: string }>(
    `insert into customers (name, phone, address, city, state, zip, geocoding_status, latitude, longitude, created_at)
     values ($1, '843-555-0100', $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
    [
      seed.name ?? `Customer ${seq}`,
      seed.address ?? `${seq} Palmetto Bay Rd`,
      seed.city ?? 'Bluffton',
      seed.state ?? 'SC',
      seed.zip === undefined ? '29910' : seed.zip,
      seed.status ?? 'pending',
      seed.latitude ?? null,
      seed.latitude === undefined ? null : -80.86,
      seed.createdAt ?? new Date(Date.UTC(2024, 0, 1) + seq * 60_000).toISOString(),
    ],
  );
  return row!.id;
}

async function customerRow(database: DatabaseHandle, id: string) {
  const [row] = await database.query<{
    latitude: number | null;
    longitude: number | null;
    geocoding_status: string;
    geocoded_at: Date | null;
    formatted_address: string | null;
    geocoding_accuracy: string | null;
    geocoding_error: string | null;
  }>('select latitude, longitude, geocoding_status, geocoded_at, formatted_address, geocoding_accuracy, geocoding_error from customers where id = $1', [id]);
  return row!;
}

async function resetData(database: DatabaseHandle) {
  await database.query('delete from geocoding_batches');
  await database.query('delete from geocode_cache');
  await database.query('delete from customers');
}

function client(app: () => FastifyInstance, cookie: () => string) {
  const request = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, signedIn = true) =>
    app().inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), headers: signedIn ? { cookie: cookie() } : {} });
  return {
    request,
    async start(body: object = {}): Promise<GeocodingBatch> {
      const response = await request('POST', '/api/admin/geocoding/batches', body);
      expect([200, 202], response.body).toContain(response.statusCode);
      return response.json();
    },
    async batch(id: string): Promise<GeocodingBatch> {
      const response = await request('GET', `/api/admin/geocoding/batches/${id}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    },
    async finished(id: string): Promise<GeocodingBatch> {
      return vi.waitFor(
        async () => {
          const batch = await this.batch(id);
          if (batch.status === 'running') throw new Error(`still running: ${batch.processed}/${batch.total}`);
          return batch;
        },
        { timeout: 15_000, interval: 20 },
      );
    },
    async stats(): Promise<GeocodingStats> {
      const response = await request('GET', '/api/admin/geocoding/stats');
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    },
  };
}

describe('with the offline ZIP provider', () => {
  let context: TestContext;
  let cookie: string;
  const api = client(
    () => context.app,
    () => cookie,
  );

  beforeAll(async () => {
    context = await createTestApp({ env: { GEOCODER: 'zip', GEOCODER_PAUSE_MS: '0' } });
    await createStaff(context.database);
    cookie = await signIn(context.app);
  });
  afterAll(() => context?.close());
  beforeEach(() => resetData(context.database));
  afterEach(() => context.app.geocoding.whenIdle());

  it('answers 401 without a session, on every geocoding endpoint', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [
      ['GET', '/api/admin/geocoding/stats'],
      ['POST', '/api/admin/geocoding/batches'],
      ['GET', '/api/admin/geocoding/batches/current'],
      ['GET', `/api/admin/geocoding/batches/${id}`],
      ['POST', `/api/admin/geocoding/batches/${id}/resume`],
      ['PUT', `/api/admin/customers/${id}/location`],
    ] as const) {
      const response = await api.request(method, url, method === 'GET' ? undefined : {}, false);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('counts customers with an address: located, failed, pending, and the rounded percentage', async () => {
    expect(await api.stats()).toEqual({ total: 0, success: 0, failed: 0, pending: 0, percentage: 0 });
    await insertCustomer(context.database, { latitude: 32.2 , status: 'success' });
    await insertCustomer(context.database, { status: 'failed' });
    await insertCustomer(context.database);
    await insertCustomer(context.database, { address: '   ' });
    expect(await api.stats()).toEqual({ total: 3, success: 1, failed: 1, pending: 1, percentage: 33 });
  });

  it('takes pending customers oldest first, never failed ones, and writes each result to the customer', async () => {
    const newest = await insertCustomer(context.database, { name: 'Newest', createdAt: '2024-06-01T00:00:00Z' });
    const oldest = await insertCustomer(context.database, { name: 'Oldest', createdAt: '2023-01-01T00:00:00Z' });
    const outside = await insertCustomer(context.database, { name: 'Atlanta', city: 'Atlanta', state: 'GA', zip: '30301', createdAt: '2023-02-01T00:00:00Z' });
    const unknown = await insertCustomer(context.database, { name: 'Nowhere', city: 'Nowhereville', zip: null, createdAt: '2023-03-01T00:00:00Z' });
    const failed = await insertCustomer(context.database, { name: 'Failed before', status: 'failed', createdAt: '2022-01-01T00:00:00Z' });
    await insertCustomer(context.database, { name: 'Located', latitude: 32.3, status: 'success', createdAt: '2022-01-01T00:00:00Z' });
    await insertCustomer(context.database, { name: 'No address', address: '', createdAt: '2022-01-01T00:00:00Z' });

    const response = await api.request('POST', '/api/admin/geocoding/batches', { count: 3 });
    expect(response.statusCode).toBe(202);
    const started: GeocodingBatch = response.json();
    expect(started).toMatchObject({ status: 'running', provider: 'zip', total: 3, processed: 0, results: [], message: null, finishedAt: null });

    const batch = await api.finished(started.id);
    expect(batch.results.map((result) => result.name)).toEqual(['Oldest', 'Atlanta', 'Nowhere']);
    expect(batch).toMatchObject({ status: 'completed', total: 3, processed: 3, succeeded: 1, failed: 2, message: geocodingMessages.processed(3, 1, 2) });
    expect(batch.finishedAt).not.toBeNull();

    const [located, outsideResult, unknownResult] = batch.results;
    expect(located).toMatchObject({ customerId: oldest, status: 'success', accuracy: 'APPROXIMATE', error: null, warnings: [geocodingMessages.approximate] });
    expect(located!.address).toMatch(/^\d+ Palmetto Bay Rd, Bluffton, SC 29910$/);
    expect(outsideResult).toMatchObject({ customerId: outside, status: 'failed', error: geocodingMessages.validationFailed([geocodingMessages.outsideBounds]) });
    expect(unknownResult).toMatchObject({ customerId: unknown, status: 'failed', error: geocodingMessages.failed('ZERO_RESULTS'), latitude: null });

    const oldestRow = await customerRow(context.database, oldest);
    expect(oldestRow).toMatchObject({ geocoding_status: 'success', geocoding_accuracy: 'APPROXIMATE', geocoding_error: null, latitude: located!.latitude, longitude: located!.longitude });
    expect(oldestRow.formatted_address).toBe(located!.formattedAddress);
    expect(oldestRow.geocoded_at).not.toBeNull();
    expect(await customerRow(context.database, outside)).toMatchObject({
      geocoding_status: 'failed',
      latitude: null,
      geocoding_error: geocodingMessages.validationFailed([geocodingMessages.outsideBounds]),
    });
    expect((await customerRow(context.database, outside)).geocoded_at).not.toBeNull();
    // Untouched: the newest pending one (beyond the count) and the one that had failed before.
    expect(await customerRow(context.database, newest)).toMatchObject({ geocoding_status: 'pending', latitude: null });
    expect(await customerRow(context.database, failed)).toMatchObject({ geocoding_status: 'failed', latitude: null });

    // The next batch takes the remaining pending one; failed ones only with retryFailed.
    const next = await api.finished((await api.start({ count: 100 })).id);
    expect(next.results.map((result) => result.name)).toEqual(['Newest']);
    const retry = await api.finished((await api.start({ count: 100, retryFailed: true })).id);
    expect(retry.results.map((result) => result.name)).toEqual(['Failed before', 'Atlanta', 'Nowhere']);
    expect(retry.results[0]).toMatchObject({ status: 'success' });
    expect(await api.stats()).toEqual({ total: 6, success: 4, failed: 2, pending: 0, percentage: 67 });
  });

  it('answers a completed batch saying so when nothing needs geocoding, and GET current shows the latest batch', async () => {
    const empty = await api.request('GET', '/api/admin/geocoding/batches/current');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toBeNull();

    const response = await api.request('POST', '/api/admin/geocoding/batches', {});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'completed', total: 0, processed: 0, message: geocodingMessages.noneNeeded });
    const current = await api.request('GET', '/api/admin/geocoding/batches/current');
    expect(current.json()).toMatchObject({ id: response.json().id, message: geocodingMessages.noneNeeded });
  });

  it('reads a running batch whose instance stopped answering as interrupted, and a new start takes over', async () => {
    await insertCustomer(context.database);
    const [left] = await context.database.query<{ id: string }>(
      `insert into geocoding_batches (status, provider, total, heartbeat_at) values ('running', 'zip', 0, now() - interval '10 minutes') returning id`,
    );
    expect((await api.batch(left!.id)).status).toBe('interrupted');
    const started = await api.start();
    expect(started.status).toBe('running');
    await api.finished(started.id);
    const [row] = await context.database.query<{ status: string }>('select status from geocoding_batches where id = $1', [left!.id]);
    expect(row!.status).toBe('interrupted');
  });

  it('refuses a batch request outside the limits and an unknown batch', async () => {
    expect((await api.request('POST', '/api/admin/geocoding/batches', { count: 0 })).statusCode).toBe(400);
    expect((await api.request('POST', '/api/admin/geocoding/batches', { count: 101 })).statusCode).toBe(400);
    expect((await api.request('GET', '/api/admin/geocoding/batches/not-an-id')).statusCode).toBe(404);
    expect((await api.request('GET', '/api/admin/geocoding/batches/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await api.request('POST', '/api/admin/geocoding/batches/00000000-0000-4000-8000-000000000000/resume')).statusCode).toBe(404);
  });

  it('publishes a batch’s progress on the live-update channel', async () => {
    await insertCustomer(context.database);
    const topics: string[] = [];
    const stop = await context.database.listen(liveChannel, { onNotification: (payload: string) => topics.push(JSON.parse(payload).topic) });
    try {
      await api.finished((await api.start()).id);
      // Notifications arrive on the listening connection after the commits that sent them: the
      // batch's first one (its start) may be in while the customer's is still on its way.
      await vi.waitFor(() => expect(topics).toEqual(expect.arrayContaining(['geocoding_batches', 'customers'])));
    } finally {
      await stop();
    }
  });

  describe('a pin placed by hand', () => {
    it('locates the customer there: success, ROOFTOP, its own address as formatted address', async () => {
      const id = await insertCustomer(context.database, { address: '27 Calhoun St', city: 'Bluffton', zip: '29910', status: 'failed' });
      await context.database.query(`update customers set geocoding_error = 'Geocoding failed: ZERO_RESULTS' where id = $1`, [id]);
      const response = await api.request('PUT', `/api/admin/customers/${id}/location`, { latitude: 32.2371, longitude: -80.8604 });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().customer).toMatchObject({ id, latitude: 32.2371, longitude: -80.8604, geocodingStatus: 'success' });
      expect(await customerRow(context.database, id)).toMatchObject({
        latitude: 32.2371,
        longitude: -80.8604,
        geocoding_status: 'success',
        geocoding_accuracy: 'ROOFTOP',
        geocoding_error: null,
        formatted_address: '27 Calhoun St, Bluffton, SC 29910',
      });
    });

    it('refuses a point outside South Carolina with the message, and an unknown customer', async () => {
      const id = await insertCustomer(context.database);
      const outside = await api.request('PUT', `/api/admin/customers/${id}/location`, { latitude: 33.749, longitude: -84.388 });
      expect(outside.statusCode).toBe(400);
      expect(outside.json().error.message).toBe(geocodingMessages.manualPinOutside);
      expect(await customerRow(context.database, id)).toMatchObject({ latitude: null, geocoding_status: 'pending' });
      expect((await api.request('PUT', `/api/admin/customers/${id}/location`, { latitude: 'x' })).statusCode).toBe(400);
      const missing = await api.request('PUT', '/api/admin/customers/00000000-0000-4000-8000-000000000000/location', { latitude: 32.2, longitude: -80.8 });
      expect(missing.statusCode).toBe(404);
    });
  });
});

// Google answers -----------------------------------------------------------------------------------

/** A Google Geocoding OK answer inside South Carolina for the address asked. */
function googleOk(request: RecordedRequest): FakeAnswer {
  const address = new URL(request.url, 'http://fake').searchParams.get('address') ?? '';
  return {
    status: 200,
    json: {
      status: 'OK',
      results: [
        {
          formatted_address: `${address}, USA`,
          geometry: { location: { lat: 32.2371, lng: -80.8604 }, location_type: 'ROOFTOP' },
          address_components: [
            { long_name: address.split(' ')[0], short_name: address.split(' ')[0], types: ['street_number'] },
            { long_name: 'Bluffton', short_name: 'Bluffton', types: ['locality'] },
            { long_name: 'South Carolina', short_name: 'SC', types: ['administrative_area_level_1'] },
          ],
          types: ['street_address'],
        },
      ],
    },
  };
}
const overQueryLimit: FakeAnswer = { status: 200, json: { status: 'OVER_QUERY_LIMIT', results: [], error_message: 'You have exceeded your rate-limit for this API.' } };
const zeroResults: FakeAnswer = { status: 200, json: { status: 'ZERO_RESULTS', results: [] } };

const askedAddress = (request: RecordedRequest) => new URL(request.url, 'http://fake').searchParams.get('address') ?? '';

/** A reply the test holds until it calls release(). */
function heldReply() {
  let release!: (answer: FakeAnswer) => void;
  const promise = new Promise<FakeAnswer>((resolve) => (release = resolve));
  return { promise, release };
}

describe('with the Google provider (a fake Google on 127.0.0.1)', () => {
  let google: Awaited<ReturnType<typeof startFakeHttpServer>>;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let cookie: string;
  const api = client(
    () => app,
    () => cookie,
  );
  const env = () => ({
    GEOCODER: 'google',
    GOOGLE_MAPS_API_KEY: 'test-key',
    GEOCODER_GOOGLE_URL: `${google.url}/maps/api/geocode/json`,
    GEOCODER_PAUSE_MS: '0',
    GEOCODER_BACKOFF_MS: '5',
  });
  async function startApp(): Promise<FastifyInstance> {
    const built = await buildApp({ config: testConfig(env()), database, logger: false, serveClient: false });
    await built.ready();
    return built;
  }

  beforeAll(async () => {
    google = await startFakeHttpServer(googleOk);
    database = await createTestDatabase();
    app = await startApp();
    await createStaff(database);
    cookie = await signIn(app);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await google?.close();
  });
  beforeEach(async () => {
    await resetData(database);
    google.requests.length = 0;
    google.state.answer = googleOk;
  });
  afterEach(() => app.geocoding.whenIdle());

  it('looks up the same address once, however it was typed, and keeps the key out of results', async () => {
    const first = await insertCustomer(database, { address: '12 Main St.', zip: '29910' });
    const second = await insertCustomer(database, { address: '12  main st', zip: '29910-1234' });
    const batch = await api.finished((await api.start()).id);
    expect(batch).toMatchObject({ provider: 'google', succeeded: 2, failed: 0 });
    expect(google.requests).toHaveLength(1);
    expect(google.requests[0]!.url).toContain('key=test-key');
    expect(JSON.stringify(batch)).not.toContain('test-key');
    for (const id of [first, second]) {
      expect(await customerRow(database, id)).toMatchObject({ geocoding_status: 'success', latitude: 32.2371, geocoding_accuracy: 'ROOFTOP' });
    }
    // A later customer at that address is served from the cache as well.
    await insertCustomer(database, { address: '12 MAIN ST', zip: '29910' });
    await api.finished((await api.start()).id);
    expect(google.requests).toHaveLength(1);
  });

  it('caches a definitive failure, and a Retry failed batch asks again', async () => {
    google.state.answer = () => zeroResults;
    const id = await insertCustomer(database, { address: '1 Nowhere Ln' });
    const batch = await api.finished((await api.start()).id);
    expect(batch.results[0]).toMatchObject({ status: 'failed', error: geocodingMessages.failed('ZERO_RESULTS') });
    expect(await customerRow(database, id)).toMatchObject({ geocoding_status: 'failed', geocoding_error: 'Geocoding failed: ZERO_RESULTS' });
    expect(google.requests).toHaveLength(1);

    // Another customer at the same address: answered from the cache, no request.
    await insertCustomer(database, { address: '1 nowhere ln' });
    await api.finished((await api.start()).id);
    expect(google.requests).toHaveLength(1);

    google.state.answer = googleOk;
    const retry = await api.finished((await api.start({ retryFailed: true })).id);
    expect(retry).toMatchObject({ total: 2, succeeded: 2 });
    expect(google.requests).toHaveLength(2);
    expect(await customerRow(database, id)).toMatchObject({ geocoding_status: 'success', geocoding_error: null });
  });

  it('backs off on OVER_QUERY_LIMIT and goes on when the provider answers again', async () => {
    let calls = 0;
    google.state.answer = (request) => (++calls <= 2 ? overQueryLimit : googleOk(request));
    const id = await insertCustomer(database);
    const batch = await api.finished((await api.start()).id);
    expect(batch).toMatchObject({ succeeded: 1, failed: 0 });
    expect(google.requests).toHaveLength(3);
    expect(await customerRow(database, id)).toMatchObject({ geocoding_status: 'success' });
  });

  it('fails the address after a few rate-limited attempts, with the spec message, and does not cache it', async () => {
    google.state.answer = () => overQueryLimit;
    const id = await insertCustomer(database, { address: '5 Busy Rd' });
    const batch = await api.finished((await api.start()).id);
    const message = geocodingMessages.failed('OVER_QUERY_LIMIT', 'You have exceeded your rate-limit for this API.');
    expect(batch.results[0]).toMatchObject({ status: 'failed', error: message });
    expect(google.requests).toHaveLength(4);
    expect(await customerRow(database, id)).toMatchObject({ geocoding_status: 'failed', geocoding_error: message, latitude: null });
    expect(await database.query('select * from geocode_cache')).toHaveLength(0);
  });

  it('does not write coordinates when the address was edited during the lookup', async () => {
    const held = heldReply();
    google.state.answer = () => held.promise;
    const id = await insertCustomer(database, { address: '9 Old Rd' });
    const started = await api.start();
    await vi.waitFor(() => expect(google.requests).toHaveLength(1));

    const edit = await api.request('PUT', `/api/admin/customers/${id}`, {
      name: 'Moved Customer',
      type: 'residential',
      phone: '843-555-0100',
      email: '',
      address: '44 New Rd',
      city: 'Bluffton',
      state: 'SC',
      zip: '29910',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    held.release(googleOk(google.requests[0]!));

    const batch = await api.finished(started.id);
    expect(batch.results[0]).toMatchObject({ customerId: id, status: 'failed', error: skippedReasons.addressChanged, latitude: null });
    expect(await customerRow(database, id)).toMatchObject({ latitude: null, geocoding_status: 'pending', formatted_address: null });
    expect(await database.query(`select status from geocoding_batch_items where customer_id = $1`, [id])).toEqual([{ status: 'skipped' }]);

    // The next batch looks up the new address.
    google.state.answer = googleOk;
    const next = await api.finished((await api.start()).id);
    expect(next.results[0]).toMatchObject({ status: 'success', formattedAddress: '44 New Rd, Bluffton, SC 29910, USA' });
  });

  it('keeps a pin placed by hand during the lookup', async () => {
    const held = heldReply();
    google.state.answer = () => held.promise;
    const id = await insertCustomer(database, { address: '3 Pin Ln' });
    const started = await api.start();
    await vi.waitFor(() => expect(google.requests).toHaveLength(1));
    const pin = await api.request('PUT', `/api/admin/customers/${id}/location`, { latitude: 32.3, longitude: -80.9 });
    expect(pin.statusCode, pin.body).toBe(200);
    held.release(googleOk(google.requests[0]!));
    const batch = await api.finished(started.id);
    expect(batch.results[0]).toMatchObject({ status: 'failed', error: skippedReasons.located });
    expect(await customerRow(database, id)).toMatchObject({ latitude: 32.3, longitude: -80.9, geocoding_accuracy: 'ROOFTOP', geocoding_status: 'success' });
  });

  it('runs one batch at a time: a second start or a resume while one runs is 409', async () => {
    const held = heldReply();
    google.state.answer = () => held.promise;
    await insertCustomer(database);
    await insertCustomer(database);
    const started = await api.start();
    const [second, third] = await Promise.all([
      api.request('POST', '/api/admin/geocoding/batches', {}),
      api.request('POST', '/api/admin/geocoding/batches', { retryFailed: true }),
    ]);
    for (const response of [second, third]) {
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toMatchObject({ code: 'CONFLICT', message: geocodingMessages.batchRunning });
    }
    const resume = await api.request('POST', `/api/admin/geocoding/batches/${started.id}/resume`);
    expect(resume.statusCode).toBe(409);
    await vi.waitFor(() => expect(google.requests).toHaveLength(1));
    const current = (await api.request('GET', '/api/admin/geocoding/batches/current')).json();
    expect(current).toMatchObject({ id: started.id, status: 'running', total: 2 });

    google.state.answer = googleOk;
    held.release(googleOk(google.requests[0]!));
    expect(await api.finished(started.id)).toMatchObject({ status: 'completed', succeeded: 2 });
    const completedResume = await api.request('POST', `/api/admin/geocoding/batches/${started.id}/resume`);
    expect(completedResume.statusCode).toBe(409);
  });

  it('runs one batch at a time across two server instances on the same database', async () => {
    const other = await startApp();
    try {
      const held = heldReply();
      google.state.answer = () => held.promise;
      await insertCustomer(database);
      // Both instances asked at the same moment: exactly one starts a batch.
      const answers = await Promise.all([app, other].map((instance) => instance.inject({ method: 'POST', url: '/api/admin/geocoding/batches', payload: {}, headers: { cookie } })));
      expect(answers.map((response) => response.statusCode).sort()).toEqual([202, 409]);
      const started: GeocodingBatch = answers.find((response) => response.statusCode === 202)!.json();
      await vi.waitFor(() => expect(google.requests).toHaveLength(1));

      if (database.kind === 'postgres') {
        // A third instance starting now leaves the live batch alone (its heartbeat is fresh).
        const third = await startApp();
        await third.close();
        expect((await api.batch(started.id)).status).toBe('running');
      }

      held.release(googleOk(google.requests[0]!));
      await Promise.all([app.geocoding.whenIdle(), other.geocoding.whenIdle()]);
      expect(await api.batch(started.id)).toMatchObject({ status: 'completed', succeeded: 1 });
    } finally {
      await other.close();
    }
  });

  it('a batch stopped mid-way by a shutdown is interrupted, loses nothing, and resumes where it stopped', async () => {
    const ids = [];
    for (let index = 0; index < 4; index += 1) ids.push(await insertCustomer(database, { address: `${100 + index} Resume Way` }));
    // The first two are answered; the third hangs until the server stops.
    google.state.answer = (request) => (google.requests.length <= 2 ? googleOk(request) : 'hang');
    const started = await api.start();
    await vi.waitFor(() => expect(google.requests).toHaveLength(3));
    await app.close();

    app = await startApp();
    const interrupted = await api.batch(started.id);
    expect(interrupted).toMatchObject({ status: 'interrupted', total: 4, processed: 2, succeeded: 2 });
    expect(interrupted.results.map((result) => result.customerId)).toEqual(ids.slice(0, 2));
    expect(await customerRow(database, ids[2]!)).toMatchObject({ geocoding_status: 'pending', latitude: null });

    google.state.answer = googleOk;
    const resumed = await api.request('POST', `/api/admin/geocoding/batches/${started.id}/resume`);
    expect(resumed.statusCode).toBe(202);
    expect(resumed.json()).toMatchObject({ status: 'running', processed: 2 });
    const finished = await api.finished(started.id);
    expect(finished).toMatchObject({ status: 'completed', total: 4, processed: 4, succeeded: 4, message: geocodingMessages.processed(4, 4, 0) });
    expect(finished.results.map((result) => result.customerId)).toEqual(ids);
    // The two done before the stop were not asked again; the cut-off one was asked again.
    expect(google.requests.map(askedAddress).filter((address) => address.startsWith('102 '))).toHaveLength(2);
    expect(google.requests.map(askedAddress).filter((address) => address.startsWith('100 '))).toHaveLength(1);
    expect(google.requests).toHaveLength(5);
  });

  it('after a crash (a batch left running), start-up marks it interrupted and resume finishes the rest', async () => {
    const ids = [];
    for (let index = 0; index < 4; index += 1) ids.push(await insertCustomer(database, { address: `${200 + index} Crash Ct` }));
    await app.close();

    // The database as a crash leaves it: the batch still running (its heartbeat long stopped), two
    // items done and written to their customers, two not.
    const [batch] = await database.query<{ id: string }>(
      `insert into geocoding_batches (status, provider, total, processed, succeeded, failed, heartbeat_at, started_at)
       values ('running', 'google', 4, 2, 1, 1, now() - interval '1 hour', now() - interval '1 hour') returning id`,
    );
    for (const [position, id] of ids.entries()) {
      await database.query(
        `insert into geocoding_batch_items (batch_id, position, customer_id, name, address, city, state, zip, status, latitude, longitude, error, done_at)
         select $1, $2, c.id, c.name, c.address, c.city, c.state, c.zip, $3, $4::double precision, $5::double precision, $6, $7::timestamptz from customers c where c.id = $8`,
        [
          batch!.id,
          position,
          position === 0 ? 'success' : position === 1 ? 'failed' : null,
          position === 0 ? 32.5 : null,
          position === 0 ? -80.5 : null,
          position === 1 ? 'Geocoding failed: ZERO_RESULTS' : null,
          position < 2 ? new Date().toISOString() : null,
          id,
        ],
      );
    }
    await database.query(`update customers set latitude = 32.5, longitude = -80.5, geocoding_status = 'success' where id = $1`, [ids[0]]);
    await database.query(`update customers set geocoding_status = 'failed', geocoding_error = 'Geocoding failed: ZERO_RESULTS' where id = $1`, [ids[1]]);

    app = await startApp();
    const recovered = await api.batch(batch!.id);
    expect(recovered).toMatchObject({ status: 'interrupted', processed: 2, succeeded: 1, failed: 1 });
    // While it is interrupted, a new batch may start (it is not running).
    const resumed = await api.request('POST', `/api/admin/geocoding/batches/${batch!.id}/resume`);
    expect(resumed.statusCode, resumed.body).toBe(202);
    const finished = await api.finished(batch!.id);
    expect(finished).toMatchObject({ status: 'completed', total: 4, processed: 4, succeeded: 3, failed: 1, message: geocodingMessages.processed(4, 3, 1) });
    expect(google.requests.map(askedAddress).map((address) => address.split(' ')[0])).toEqual(['202', '203']);
    expect(await customerRow(database, ids[3]!)).toMatchObject({ geocoding_status: 'success', latitude: 32.2371 });
    expect(await customerRow(database, ids[0]!)).toMatchObject({ latitude: 32.5 });
  });
});
