import { describe, expect, it } from 'vitest';
import { censusOutcome } from '#server/adapters/geocoding/census.ts';
import type { GeocodeOutcome } from '#server/adapters/geocoding/geocoder.ts';
import { googleOutcome } from '#server/adapters/geocoding/google.ts';
import { accuracyOfRank, nominatimOutcome } from '#server/adapters/geocoding/nominatim.ts';
import {
  chooseBestResult,
  geocodingMessages,
  scoreGeocodeResult,
  stateCode,
  validateGeocodeResult,
  type GeocodeCandidate,
} from '#shared/geocoding.ts';
import { calhounStreet, census, google, nominatim } from '#tests/support/geocoding-fixtures.ts';

/** The candidates a provider makes of a real-shaped answer (the same mapping the providers use). */
function candidatesOf(outcome: GeocodeOutcome): GeocodeCandidate[] {
  if (outcome.kind !== 'results') throw new Error(`expected results, got ${JSON.stringify(outcome)}`);
  return outcome.candidates;
}
const one = (outcome: GeocodeOutcome) => candidatesOf(outcome)[0]!;

const zipCentroid: GeocodeCandidate = {
  latitude: 32.2513,
  longitude: -80.8721,
  formattedAddress: 'Bluffton, SC 29910',
  accuracy: 'APPROXIMATE',
  components: { city: 'Bluffton', state: 'SC', country: 'US' },
  coarse: false,
};

describe('reading the providers’ answers', () => {
  it('Google: location, formatted address, location type and components; state/country results are coarse', () => {
    expect(one(googleOutcome(google.ok(google.calhounRooftop)))).toEqual({
      latitude: 32.2371391,
      longitude: -80.8603614,
      formattedAddress: '27 Calhoun St, Bluffton, SC 29910, USA',
      accuracy: 'ROOFTOP',
      components: { streetNumber: '27', city: 'Bluffton', state: 'SC', country: 'US' },
      coarse: false,
    });
    expect(one(googleOutcome(google.ok(google.southCarolinaState)))).toMatchObject({ accuracy: 'APPROXIMATE', coarse: true, components: { state: 'SC' } });
    expect(one(googleOutcome(google.ok(google.blufftonLocality))).coarse).toBe(false);
    expect(googleOutcome(google.zeroResults)).toEqual({ kind: 'none', status: 'ZERO_RESULTS' });
    expect(googleOutcome(google.overQueryLimit)).toEqual({ kind: 'rate-limited', status: 'OVER_QUERY_LIMIT', message: 'You have exceeded your rate-limit for this API.', retryAfterMs: null });
    expect(googleOutcome(google.requestDenied)).toEqual({ kind: 'error', status: 'REQUEST_DENIED', message: 'The provided API key is invalid. ' });
    expect(googleOutcome(google.unknownError)).toEqual({ kind: 'error', status: 'UNKNOWN_ERROR', message: null });
    expect(googleOutcome({ results: [] })).toMatchObject({ kind: 'error', status: 'MALFORMED_RESPONSE' });
  });

  it('Census: x is the longitude, y the latitude, the number from the matched address; always RANGE_INTERPOLATED', () => {
    expect(one(censusOutcome(census.answer('27 Calhoun Street, Bluffton, SC 29910', census.calhoun)))).toEqual({
      latitude: 32.23724090021,
      longitude: -80.86041812315,
      formattedAddress: '27 CALHOUN ST, BLUFFTON, SC, 29910',
      accuracy: 'RANGE_INTERPOLATED',
      components: { streetNumber: '27', city: 'BLUFFTON', state: 'SC', country: 'US' },
      coarse: false,
    });
    expect(censusOutcome(census.answer('1 Nowhere Rd'))).toEqual({ kind: 'none', status: 'ZERO_RESULTS' });
    expect(censusOutcome({ result: {} })).toMatchObject({ kind: 'error', status: 'MALFORMED_RESPONSE' });
  });

  it('Nominatim: string coordinates, house number, town as the city; place_rank decides accuracy and coarseness', () => {
    expect(one(nominatimOutcome([nominatim.calhounHouse]))).toEqual({
      latitude: 32.2370581,
      longitude: -80.8603727,
      formattedAddress: '27, Calhoun Street, Old Town Bluffton, Bluffton, Beaufort County, South Carolina, 29910, United States',
      accuracy: 'ROOFTOP',
      components: { streetNumber: '27', city: 'Bluffton', state: 'South Carolina', country: 'US' },
      coarse: false,
    });
    expect(one(nominatimOutcome([nominatim.calhounStreet]))).toMatchObject({ accuracy: 'GEOMETRIC_CENTER', coarse: false });
    expect(one(nominatimOutcome([nominatim.southCarolina]))).toMatchObject({ accuracy: 'APPROXIMATE', coarse: true });
    expect([30, 29, 26, 25, 16, 12, 8, 4].map(accuracyOfRank)).toEqual([
      'ROOFTOP', 'GEOMETRIC_CENTER', 'GEOMETRIC_CENTER', 'APPROXIMATE', 'APPROXIMATE', 'APPROXIMATE', 'APPROXIMATE', 'APPROXIMATE',
    ]);
    expect(nominatimOutcome([])).toEqual({ kind: 'none', status: 'ZERO_RESULTS' });
    expect(nominatimOutcome({ error: 'Unable to geocode' })).toMatchObject({ kind: 'error', status: 'MALFORMED_RESPONSE' });
  });
});

describe('validating a result (spec 001 section 5)', () => {
  it('rejects a result outside South Carolina’s bounds with the spec’s error', () => {
    const indiana = one(googleOutcome(google.ok(google.blufftonIndiana)));
    expect(validateGeocodeResult(indiana, calhounStreet)).toEqual({ valid: false, errors: [geocodingMessages.outsideBounds], warnings: [] });
    expect(validateGeocodeResult(one(nominatimOutcome([nominatim.calhounIndiana])), calhounStreet).errors).toEqual([geocodingMessages.outsideBounds]);
  });

  it('takes the bounds as inclusive and refuses coordinates that are not numbers', () => {
    const at = (latitude: number, longitude: number) => validateGeocodeResult({ ...zipCentroid, latitude, longitude }, calhounStreet).valid;
    expect([at(32, -80), at(35.2, -80), at(33, -83.4), at(33, -78.5)]).toEqual([true, true, true, true]);
    expect([at(31.999, -80), at(35.201, -80), at(33, -83.401), at(33, -78.499)]).toEqual([false, false, false, false]);
    expect(at(Number.NaN, -80)).toBe(false);
  });

  it('keeps a precise result in the expected city without warnings', () => {
    expect(validateGeocodeResult(one(googleOutcome(google.ok(google.calhounRooftop))), calhounStreet)).toEqual({ valid: true, errors: [], warnings: [] });
    // The Census writes the city in capitals: the check ignores case.
    expect(validateGeocodeResult(one(censusOutcome(census.answer('x', census.calhoun))), calhounStreet)).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it('warns for approximate accuracy and for a formatted address that does not mention the expected city', () => {
    expect(validateGeocodeResult(zipCentroid, calhounStreet)).toEqual({ valid: true, errors: [], warnings: [geocodingMessages.approximate] });
    expect(validateGeocodeResult(one(googleOutcome(google.ok(google.southCarolinaState))), calhounStreet)).toEqual({
      valid: true,
      errors: [],
      warnings: ['Approximate location only', 'Result does not mention Bluffton'],
    });
    expect(validateGeocodeResult(zipCentroid, { ...calhounStreet, city: 'Okatie' }).warnings).toEqual([geocodingMessages.approximate, geocodingMessages.cityMismatch('Okatie')]);
  });
});

describe('scoring a result (spec 001 section 5)', () => {
  it('adds accuracy, city, state and street-number points for each provider’s answer', () => {
    expect(scoreGeocodeResult(one(googleOutcome(google.ok(google.calhounRooftop))), calhounStreet)).toBe(100 + 50 + 30 + 20);
    expect(scoreGeocodeResult(one(censusOutcome(census.answer('x', census.calhoun))), calhounStreet)).toBe(80 + 50 + 30 + 20);
    expect(scoreGeocodeResult(one(nominatimOutcome([nominatim.calhounHouse])), calhounStreet)).toBe(100 + 50 + 30 + 20);
    expect(scoreGeocodeResult(one(nominatimOutcome([nominatim.calhounStreet])), calhounStreet)).toBe(60 + 50 + 30);
    expect(scoreGeocodeResult(one(googleOutcome(google.ok(google.blufftonLocality))), calhounStreet)).toBe(20 + 50 + 30);
    expect(scoreGeocodeResult(zipCentroid, calhounStreet)).toBe(20 + 50 + 30);
  });

  it('takes 50 off a state- or country-level result', () => {
    expect(scoreGeocodeResult(one(googleOutcome(google.ok(google.southCarolinaState))), calhounStreet)).toBe(20 + 30 - 50);
    expect(scoreGeocodeResult(one(nominatimOutcome([nominatim.southCarolina])), calhounStreet)).toBe(20 + 30 - 50);
  });

  it('compares states by code or name and street numbers by the number the address starts with', () => {
    expect(['SC', 'sc', 'South Carolina', ' south  carolina ', 'S.C.'].map(stateCode)).toEqual(['SC', 'SC', 'SC', 'SC', 'SC']);
    const rooftop = one(googleOutcome(google.ok(google.calhounRooftop)));
    expect(scoreGeocodeResult(rooftop, { ...calhounStreet, state: 'South Carolina' })).toBe(200);
    expect(scoreGeocodeResult(rooftop, { ...calhounStreet, state: 'GA' })).toBe(170);
    expect(scoreGeocodeResult(rooftop, { ...calhounStreet, address: '27B Calhoun Street' })).toBe(200);
    expect(scoreGeocodeResult(rooftop, { ...calhounStreet, address: '270 Calhoun Street' })).toBe(180);
    expect(scoreGeocodeResult(rooftop, { ...calhounStreet, address: 'Calhoun Street' })).toBe(180);
    expect(scoreGeocodeResult(rooftop, { ...calhounStreet, city: 'Hilton Head Island' })).toBe(150);
  });
});

describe('choosing the best result', () => {
  it('picks the highest-scoring valid candidate with its warnings', () => {
    const choice = chooseBestResult(candidatesOf(googleOutcome(google.ok(google.southCarolinaState, google.blufftonLocality, google.calhounRooftop))), calhounStreet);
    expect(choice).toMatchObject({ ok: true, score: 200, warnings: [], candidate: { formattedAddress: '27 Calhoun St, Bluffton, SC 29910, USA' } });
  });

  it('passes over a higher-scoring result outside South Carolina', () => {
    const choice = chooseBestResult(candidatesOf(googleOutcome(google.ok(google.blufftonIndiana, google.blufftonLocality))), calhounStreet);
    expect(choice).toEqual({ ok: true, score: 100, warnings: ['Approximate location only'], candidate: one(googleOutcome(google.ok(google.blufftonLocality))) });
  });

  it('prefers a house over its street, and the earlier of two equal results', () => {
    const places = candidatesOf(nominatimOutcome([nominatim.calhounStreet, nominatim.southCarolina, nominatim.calhounHouse]));
    expect(chooseBestResult(places, calhounStreet)).toMatchObject({ ok: true, candidate: { accuracy: 'ROOFTOP' } });
    const twin = { ...zipCentroid, latitude: 32.3 };
    expect(chooseBestResult([zipCentroid, twin], calhounStreet)).toMatchObject({ ok: true, candidate: { latitude: 32.2513 } });
  });

  it('answers “Validation failed: {errors}” when every candidate is invalid, each error once', () => {
    const outside = [...candidatesOf(googleOutcome(google.ok(google.blufftonIndiana))), ...candidatesOf(censusOutcome(census.answer('x', census.calhounIndiana)))];
    expect(chooseBestResult(outside, calhounStreet)).toEqual({ ok: false, message: 'Validation failed: Result is outside South Carolina' });
    expect(chooseBestResult([], calhounStreet)).toEqual({ ok: false, message: 'Geocoding failed: ZERO_RESULTS' });
  });
});
