import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGeocoder } from '#server/adapters/geocoding/index.ts';
import type { Geocoder, GeocodeOutcome } from '#server/adapters/geocoding/geocoder.ts';
import { loadConfig } from '#server/config.ts';
import { chooseBestResult, type GeocodingAddress } from '#shared/geocoding.ts';
import { startFakeHttpServer, type FakeAnswer, type RecordedRequest } from '#tests/support/fake-http-server.ts';
import { calhounStreet, census, google, nominatim } from '#tests/support/geocoding-fixtures.ts';

// Every online provider talks to a real HTTP server on 127.0.0.1 that answers the way the real
// service does; the offline provider reads the real ZIP table.

type FakeServer = Awaited<ReturnType<typeof startFakeHttpServer>>;
const key = 'AIzaSy-test-key-0123456789';

function geocoderFor(env: Record<string, string>): Geocoder {
  return createGeocoder(loadConfig({ GEOCODER_TIMEOUT_MS: '500', ...env }));
}

function queryOf(request: RecordedRequest) {
  const url = new URL(request.url, 'http://127.0.0.1');
  return { path: url.pathname, params: Object.fromEntries(url.searchParams) };
}

function candidatesOf(outcome: GeocodeOutcome) {
  if (outcome.kind !== 'results') throw new Error(`expected results, got ${JSON.stringify(outcome)}`);
  return outcome.candidates;
}

let server: FakeServer;
let answer: (request: RecordedRequest) => FakeAnswer;
beforeAll(async () => {
  server = await startFakeHttpServer((request) => answer(request));
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

describe('choosing the provider (GEOCODER)', () => {
  it('is the offline ZIP geocoder unless configured otherwise', () => {
    expect(createGeocoder(loadConfig({})).name).toBe('zip');
    expect(createGeocoder(loadConfig({ GEOCODER: 'census' })).name).toBe('census');
    expect(createGeocoder(loadConfig({ GEOCODER: 'google', GOOGLE_MAPS_API_KEY: key })).name).toBe('google');
    const nominatimGeocoder = createGeocoder(loadConfig({ GEOCODER: 'nominatim' }));
    expect([nominatimGeocoder.name, nominatimGeocoder.minIntervalMs]).toEqual(['nominatim', 1000]);
  });

  it('refuses Google without a key', () => {
    expect(() => loadConfig({ GEOCODER: 'google' })).toThrow('Google Maps API key not found. Please add the key to your .env file');
    const config = loadConfig({});
    expect(() => createGeocoder({ geocoding: { ...config.geocoding, provider: 'google' } })).toThrow('Google Maps API key not found');
  });
});

describe('the offline ZIP geocoder (zipcodes)', () => {
  const zip = createGeocoder(loadConfig({}));
  const at = (address: Partial<GeocodingAddress>) => zip.geocode({ ...calhounStreet, ...address });

  it('answers the ZIP’s centroid as an approximate result, for the Lowcountry’s real ZIPs', async () => {
    expect(await at({})).toEqual({
      kind: 'results',
      candidates: [{ latitude: 32.2513, longitude: -80.8721, formattedAddress: 'Bluffton, SC 29910', accuracy: 'APPROXIMATE', components: { city: 'Bluffton', state: 'SC', country: 'US' }, coarse: false }],
    });
    for (const code of ['29926', '29928']) {
      const [candidate] = candidatesOf(await at({ address: '1 Pope Avenue', city: 'Hilton Head Island', zip: code }));
      expect(candidate).toMatchObject({ formattedAddress: `Hilton Head Island, SC ${code}`, accuracy: 'APPROXIMATE' });
      expect(chooseBestResult([candidate!], { ...calhounStreet, city: 'Hilton Head Island', zip: code })).toMatchObject({ ok: true, warnings: ['Approximate location only'] });
    }
    expect(candidatesOf(await at({ zip: '29910-4512' }))[0]!.formattedAddress).toBe('Bluffton, SC 29910');
  });

  it('falls back to the city’s ZIPs without a usable ZIP, and finds nothing for an unknown place', async () => {
    const [byCity] = candidatesOf(await at({ city: 'Hilton Head Island', state: 'South Carolina', zip: null }));
    expect(byCity).toMatchObject({ formattedAddress: 'Hilton Head Island, SC', accuracy: 'APPROXIMATE' });
    expect(byCity!.latitude).toBeGreaterThan(32.1);
    expect(byCity!.latitude).toBeLessThan(32.3);
    expect(candidatesOf(await at({ zip: '00000' }))[0]!.formattedAddress).toBe('Bluffton, SC 29910');
    expect(await at({ city: 'Atlantis', zip: '00000' })).toEqual({ kind: 'none', status: 'ZERO_RESULTS' });
    expect(await at({ city: '', zip: null })).toEqual({ kind: 'none', status: 'ZERO_RESULTS' });
  });

  it('answers a ZIP of another state, which validation then rejects', async () => {
    const outcome = await at({ city: 'Atlanta', state: 'GA', zip: '30303' });
    expect(chooseBestResult(candidatesOf(outcome), calhounStreet)).toEqual({ ok: false, message: 'Validation failed: Result is outside South Carolina' });
  });
});

describe('Google Geocoding', () => {
  let geocoder: Geocoder;
  beforeAll(() => {
    geocoder = geocoderFor({ GEOCODER: 'google', GOOGLE_MAPS_API_KEY: key, GEOCODER_GOOGLE_URL: `${server.url}/maps/api/geocode/json` });
  });

  it('sends the address with the key, region US, South Carolina bounds and US/SC components, and reads every result', async () => {
    answer = () => ({ status: 200, json: google.ok(google.calhounRooftop, google.blufftonLocality) });
    const outcome = await geocoder.geocode(calhounStreet);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.method).toBe('GET');
    expect(queryOf(server.requests[0]!)).toEqual({
      path: '/maps/api/geocode/json',
      params: {
        address: '27 Calhoun Street, Bluffton, SC 29910',
        key,
        region: 'us',
        bounds: '32,-83.4|35.2,-78.5',
        components: 'country:US|administrative_area:SC',
      },
    });
    expect(candidatesOf(outcome).map((candidate) => candidate.accuracy)).toEqual(['ROOFTOP', 'APPROXIMATE']);
    expect(chooseBestResult(candidatesOf(outcome), calhounStreet)).toMatchObject({ ok: true, score: 200, candidate: { latitude: 32.2371391, longitude: -80.8603614 } });
  });

  it('maps ZERO_RESULTS, OVER_QUERY_LIMIT, REQUEST_DENIED, INVALID_REQUEST and UNKNOWN_ERROR', async () => {
    const statusOf = async (json: unknown) => {
      answer = () => ({ status: 200, json });
      return geocoder.geocode(calhounStreet);
    };
    expect(await statusOf(google.zeroResults)).toEqual({ kind: 'none', status: 'ZERO_RESULTS' });
    expect(await statusOf(google.overQueryLimit)).toEqual({ kind: 'rate-limited', status: 'OVER_QUERY_LIMIT', message: 'You have exceeded your rate-limit for this API.', retryAfterMs: null });
    expect(await statusOf(google.requestDenied)).toEqual({ kind: 'error', status: 'REQUEST_DENIED', message: 'The provided API key is invalid. ' });
    expect(await statusOf(google.invalidRequest)).toMatchObject({ kind: 'error', status: 'INVALID_REQUEST', message: expect.stringContaining('Invalid request') });
    expect(await statusOf(google.unknownError)).toEqual({ kind: 'error', status: 'UNKNOWN_ERROR', message: null });
  });

  it('honours HTTP 429 with Retry-After, in seconds or as a date', async () => {
    answer = () => ({ status: 429, json: google.overQueryLimit, headers: { 'retry-after': '7' } });
    expect(await geocoder.geocode(calhounStreet)).toEqual({ kind: 'rate-limited', status: 'HTTP_429', message: 'You have exceeded your rate-limit for this API.', retryAfterMs: 7000 });
    answer = () => ({ status: 429, text: 'Too Many Requests', headers: { 'retry-after': new Date(Date.now() + 60_000).toUTCString() } });
    const outcome = await geocoder.geocode(calhounStreet);
    expect(outcome).toMatchObject({ kind: 'rate-limited', status: 'HTTP_429', message: 'Too many requests' });
    expect(outcome.kind === 'rate-limited' && outcome.retryAfterMs).toBeGreaterThan(55_000);
    answer = () => ({ status: 429, text: '' });
    expect(await geocoder.geocode(calhounStreet)).toMatchObject({ kind: 'rate-limited', retryAfterMs: null });
  });

  it('reports HTTP errors, malformed answers, timeouts and refused connections by a clear status, never with the key', async () => {
    const outcomes: GeocodeOutcome[] = [];
    answer = () => ({ status: 503, text: 'Service Unavailable' });
    outcomes.push(await geocoder.geocode(calhounStreet));
    answer = () => ({ status: 200, text: '<html>Sorry...</html>' });
    outcomes.push(await geocoder.geocode(calhounStreet));
    answer = () => ({ status: 200, json: { results: [{ geometry: {} }], status: 'OK' } });
    outcomes.push(await geocoder.geocode(calhounStreet));
    answer = () => 'hang';
    outcomes.push(await geocoder.geocode(calhounStreet));
    const closed = await startFakeHttpServer(() => ({ status: 200, json: google.zeroResults }));
    await closed.close();
    outcomes.push(await geocoderFor({ GEOCODER: 'google', GOOGLE_MAPS_API_KEY: key, GEOCODER_GOOGLE_URL: closed.url }).geocode(calhounStreet));
    expect(outcomes.map((outcome) => [outcome.kind, 'status' in outcome ? outcome.status : null])).toEqual([
      ['error', 'HTTP_503'],
      ['error', 'MALFORMED_RESPONSE'],
      ['error', 'MALFORMED_RESPONSE'],
      ['error', 'TIMEOUT'],
      ['error', 'NETWORK_ERROR'],
    ]);
    expect(outcomes[0]).toMatchObject({ message: 'Service Unavailable' });
    expect(outcomes[3]).toMatchObject({ message: 'No answer within 500 ms' });
    expect(outcomes[4]).toMatchObject({ message: 'ECONNREFUSED' });
    expect(JSON.stringify(outcomes)).not.toContain(key);
  });

  it('rejects with the caller’s reason when the caller gives up (not as a provider failure)', async () => {
    answer = () => 'hang';
    const controller = new AbortController();
    const pending = geocoder.geocode(calhounStreet, controller.signal);
    await expect.poll(() => server.requests.length).toBe(1);
    controller.abort(new Error('batch stopped'));
    await expect(pending).rejects.toThrow('batch stopped');
  });
});

describe('US Census geocoder', () => {
  let geocoder: Geocoder;
  beforeAll(() => {
    geocoder = geocoderFor({ GEOCODER: 'census', GEOCODER_CENSUS_URL: `${server.url}/geocoder/locations/onelineaddress?benchmark=Public_AR_Current&format=json` });
  });

  it('sends the one-line address with the benchmark and reads the matches as interpolated results', async () => {
    answer = (request) => ({ status: 200, json: census.answer(queryOf(request).params.address ?? '', census.calhoun) });
    const outcome = await geocoder.geocode(calhounStreet);
    expect(queryOf(server.requests[0]!)).toEqual({
      path: '/geocoder/locations/onelineaddress',
      params: { benchmark: 'Public_AR_Current', format: 'json', address: '27 Calhoun Street, Bluffton, SC 29910' },
    });
    expect(candidatesOf(outcome)).toEqual([
      { latitude: 32.23724090021, longitude: -80.86041812315, formattedAddress: '27 CALHOUN ST, BLUFFTON, SC, 29910', accuracy: 'RANGE_INTERPOLATED', components: { streetNumber: '27', city: 'BLUFFTON', state: 'SC', country: 'US' }, coarse: false },
    ]);
    expect(chooseBestResult(candidatesOf(outcome), calhounStreet)).toMatchObject({ ok: true, score: 180, warnings: [] });
  });

  it('adds the benchmark and format when the configured URL leaves them out', async () => {
    answer = () => ({ status: 200, json: census.answer('x') });
    await geocoderFor({ GEOCODER: 'census', GEOCODER_CENSUS_URL: `${server.url}/census` }).geocode(calhounStreet);
    expect(queryOf(server.requests[0]!).params).toMatchObject({ benchmark: 'Public_AR_Current', format: 'json' });
  });

  it('maps no match, a refused request, 429, server errors, malformed answers and timeouts', async () => {
    answer = () => ({ status: 200, json: census.answer('1 Nowhere Road, Bluffton, SC 29910') });
    expect(await geocoder.geocode(calhounStreet)).toEqual({ kind: 'none', status: 'ZERO_RESULTS' });
    answer = () => ({ status: 400, json: census.badRequest });
    expect(await geocoder.geocode(calhounStreet)).toEqual({ kind: 'error', status: 'HTTP_400', message: 'Address cannot be empty and cannot exceed 100 characters' });
    answer = () => ({ status: 429, text: 'slow down', headers: { 'retry-after': '3' } });
    expect(await geocoder.geocode(calhounStreet)).toEqual({ kind: 'rate-limited', status: 'HTTP_429', message: 'Too many requests', retryAfterMs: 3000 });
    answer = () => ({ status: 500, text: 'Internal Server Error' });
    expect(await geocoder.geocode(calhounStreet)).toMatchObject({ kind: 'error', status: 'HTTP_500' });
    answer = () => ({ status: 200, json: { result: { input: {} } } });
    expect(await geocoder.geocode(calhounStreet)).toMatchObject({ kind: 'error', status: 'MALFORMED_RESPONSE' });
    answer = () => 'hang';
    expect(await geocoder.geocode(calhounStreet)).toMatchObject({ kind: 'error', status: 'TIMEOUT' });
  });
});

describe('Nominatim-compatible search', () => {
  const nominatimAt = (extra: Record<string, string> = {}) => geocoderFor({ GEOCODER: 'nominatim', GEOCODER_NOMINATIM_URL: `${server.url}/osm/`, ...extra });

  it('sends the search with address details, US only, five results and an identifying User-Agent', async () => {
    answer = () => ({ status: 200, json: [nominatim.calhounStreet, nominatim.calhounHouse] });
    const outcome = await nominatimAt().geocode(calhounStreet);
    const request = server.requests[0]!;
    expect(queryOf(request)).toEqual({
      path: '/osm/search',
      params: { format: 'jsonv2', addressdetails: '1', countrycodes: 'us', limit: '5', q: '27 Calhoun Street, Bluffton, SC 29910' },
    });
    expect(request.headers['user-agent']).toBe('Lowcountry Comfort Heating & Air back office (service@lowcountrycomfort.example)');
    expect(candidatesOf(outcome).map((candidate) => candidate.accuracy)).toEqual(['GEOMETRIC_CENTER', 'ROOFTOP']);
    expect(chooseBestResult(candidatesOf(outcome), calhounStreet)).toMatchObject({ ok: true, score: 200, candidate: { latitude: 32.2370581, longitude: -80.8603727 } });

    await nominatimAt({ NOMINATIM_USER_AGENT: 'Palmetto Air dispatch (ops@palmetto.example)' }).geocode(calhounStreet);
    expect(server.requests[1]!.headers['user-agent']).toBe('Palmetto Air dispatch (ops@palmetto.example)');
  });

  it('keeps its own calls at least a second apart, whatever the caller does', async () => {
    const times: number[] = [];
    answer = () => {
      times.push(Date.now());
      return { status: 200, json: [] };
    };
    const geocoder = nominatimAt();
    await Promise.all([geocoder.geocode(calhounStreet), geocoder.geocode(calhounStreet)]);
    expect(times).toHaveLength(2);
    // The calls leave a second apart; they are timed here on arrival, where the first one's delivery
    // can lag by tens of milliseconds on a busy machine. Without the spacing they arrive together.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(900);
  });

  it('maps an empty list, 429 with Retry-After, an error answer, malformed answers and timeouts', async () => {
    answer = () => ({ status: 200, json: [] });
    expect(await nominatimAt().geocode(calhounStreet)).toEqual({ kind: 'none', status: 'ZERO_RESULTS' });
    answer = () => ({ status: 429, text: 'Too Many Requests', headers: { 'retry-after': '30' } });
    expect(await nominatimAt().geocode(calhounStreet)).toEqual({ kind: 'rate-limited', status: 'HTTP_429', message: 'Too many requests', retryAfterMs: 30_000 });
    answer = () => ({ status: 400, json: { error: { code: 400, message: "Parameter 'q' is missing." } } });
    expect(await nominatimAt().geocode(calhounStreet)).toEqual({ kind: 'error', status: 'HTTP_400', message: "Parameter 'q' is missing." });
    answer = () => ({ status: 200, json: { error: 'Unable to geocode' } });
    expect(await nominatimAt().geocode(calhounStreet)).toMatchObject({ kind: 'error', status: 'MALFORMED_RESPONSE' });
    answer = () => 'hang';
    expect(await nominatimAt().geocode(calhounStreet)).toMatchObject({ kind: 'error', status: 'TIMEOUT' });
  });

  it('passes over a state-level result and rejects results outside South Carolina', async () => {
    answer = () => ({ status: 200, json: [nominatim.southCarolina, nominatim.calhounStreet] });
    expect(chooseBestResult(candidatesOf(await nominatimAt().geocode(calhounStreet)), calhounStreet)).toMatchObject({ ok: true, candidate: { accuracy: 'GEOMETRIC_CENTER' } });
    answer = () => ({ status: 200, json: [nominatim.calhounIndiana] });
    expect(chooseBestResult(candidatesOf(await nominatimAt().geocode(calhounStreet)), calhounStreet)).toEqual({ ok: false, message: 'Validation failed: Result is outside South Carolina' });
  });
});
