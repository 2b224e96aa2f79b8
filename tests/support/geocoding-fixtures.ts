import type { GeocodingAddress } from '#shared/geocoding.ts';

// Answers shaped like the real geocoding services' (field for field, as their documentation and
// live answers show them), for the providers' and the batch's tests. Coordinates are real places.

export const calhounStreet: GeocodingAddress = { address: '27 Calhoun Street', city: 'Bluffton', state: 'SC', zip: '29910' };

// --- Google Geocoding API (https://developers.google.com/maps/documentation/geocoding/requests-geocoding)

type GoogleComponent = { long_name: string; short_name: string; types: string[] };
const component = (long_name: string, short_name: string, ...types: string[]): GoogleComponent => ({ long_name, short_name, types });

export function googleResult(options: {
  formatted: string;
  lat: number;
  lng: number;
  locationType: 'ROOFTOP' | 'RANGE_INTERPOLATED' | 'GEOMETRIC_CENTER' | 'APPROXIMATE';
  types: string[];
  components: GoogleComponent[];
}) {
  const { lat, lng } = options;
  return {
    address_components: options.components,
    formatted_address: options.formatted,
    geometry: {
      location: { lat, lng },
      location_type: options.locationType,
      viewport: { northeast: { lat: lat + 0.0013, lng: lng + 0.0013 }, southwest: { lat: lat - 0.0013, lng: lng - 0.0013 } },
    },
    place_id: `ChIJ${Math.abs(Math.round(lat * 1e6))}${Math.abs(Math.round(lng * 1e6))}`,
    types: options.types,
  };
}

export const google = {
  calhounRooftop: googleResult({
    formatted: '27 Calhoun St, Bluffton, SC 29910, USA',
    lat: 32.2371391,
    lng: -80.8603614,
    locationType: 'ROOFTOP',
    types: ['street_address'],
    components: [
      component('27', '27', 'street_number'),
      component('Calhoun Street', 'Calhoun St', 'route'),
      component('Bluffton', 'Bluffton', 'locality', 'political'),
      component('Beaufort County', 'Beaufort County', 'administrative_area_level_2', 'political'),
      component('South Carolina', 'SC', 'administrative_area_level_1', 'political'),
      component('United States', 'US', 'country', 'political'),
      component('29910', '29910', 'postal_code'),
    ],
  }),
  blufftonLocality: googleResult({
    formatted: 'Bluffton, SC, USA',
    lat: 32.2370966,
    lng: -80.8603917,
    locationType: 'APPROXIMATE',
    types: ['locality', 'political'],
    components: [
      component('Bluffton', 'Bluffton', 'locality', 'political'),
      component('Beaufort County', 'Beaufort County', 'administrative_area_level_2', 'political'),
      component('South Carolina', 'SC', 'administrative_area_level_1', 'political'),
      component('United States', 'US', 'country', 'political'),
    ],
  }),
  southCarolinaState: googleResult({
    formatted: 'South Carolina, USA',
    lat: 33.836081,
    lng: -81.1637245,
    locationType: 'APPROXIMATE',
    types: ['administrative_area_level_1', 'political'],
    components: [component('South Carolina', 'SC', 'administrative_area_level_1', 'political'), component('United States', 'US', 'country', 'political')],
  }),
  /** The other Bluffton: Indiana, far outside South Carolina. */
  blufftonIndiana: googleResult({
    formatted: '27 W Calhoun St, Bluffton, IN 46714, USA',
    lat: 40.7386503,
    lng: -85.1716337,
    locationType: 'ROOFTOP',
    types: ['street_address'],
    components: [
      component('27', '27', 'street_number'),
      component('West Calhoun Street', 'W Calhoun St', 'route'),
      component('Bluffton', 'Bluffton', 'locality', 'political'),
      component('Wells County', 'Wells County', 'administrative_area_level_2', 'political'),
      component('Indiana', 'IN', 'administrative_area_level_1', 'political'),
      component('United States', 'US', 'country', 'political'),
      component('46714', '46714', 'postal_code'),
    ],
  }),
  ok: (...results: unknown[]) => ({ results, status: 'OK' }),
  zeroResults: { results: [], status: 'ZERO_RESULTS' },
  overQueryLimit: { error_message: 'You have exceeded your rate-limit for this API.', results: [], status: 'OVER_QUERY_LIMIT' },
  requestDenied: { error_message: 'The provided API key is invalid. ', results: [], status: 'REQUEST_DENIED' },
  invalidRequest: { error_message: 'Invalid request. Missing the \'address\', \'components\', \'latlng\' or \'place_id\' parameter.', results: [], status: 'INVALID_REQUEST' },
  unknownError: { results: [], status: 'UNKNOWN_ERROR' },
};

// --- US Census Bureau geocoder (https://geocoding.geo.census.gov/geocoder/Geocoding_Services_API.html)

export function censusMatch(options: { matched: string; x: number; y: number; from: string; to: string; street: string; suffix: string; city: string; state: string; zip: string }) {
  return {
    tigerLine: { side: 'R', tigerLineId: '640513431' },
    coordinates: { x: options.x, y: options.y },
    addressComponents: {
      zip: options.zip,
      streetName: options.street,
      preType: '',
      city: options.city,
      preDirection: '',
      suffixDirection: '',
      fromAddress: options.from,
      state: options.state,
      suffixType: options.suffix,
      toAddress: options.to,
      suffixQualifier: '',
      preQualifier: '',
    },
    matchedAddress: options.matched,
  };
}

export const census = {
  calhoun: censusMatch({ matched: '27 CALHOUN ST, BLUFFTON, SC, 29910', x: -80.86041812315, y: 32.23724090021, from: '1', to: '99', street: 'CALHOUN', suffix: 'ST', city: 'BLUFFTON', state: 'SC', zip: '29910' }),
  calhounIndiana: censusMatch({ matched: '27 W CALHOUN ST, BLUFFTON, IN, 46714', x: -85.17162441, y: 40.73863914, from: '1', to: '99', street: 'CALHOUN', suffix: 'ST', city: 'BLUFFTON', state: 'IN', zip: '46714' }),
  answer: (address: string, ...addressMatches: unknown[]) => ({
    result: {
      input: {
        address: { address },
        benchmark: { isDefault: true, benchmarkDescription: 'Public Address Ranges - Current Benchmark', id: '4', benchmarkName: 'Public_AR_Current' },
      },
      addressMatches,
    },
  }),
  badRequest: { errors: ['Address cannot be empty and cannot exceed 100 characters'], status: '400' },
};

// --- Nominatim /search?format=jsonv2&addressdetails=1 (https://nominatim.org/release-docs/latest/api/Search/)

const licence = 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright';

export const nominatim = {
  calhounHouse: {
    place_id: 318471214,
    licence,
    osm_type: 'node',
    osm_id: 11012345678,
    lat: '32.2370581',
    lon: '-80.8603727',
    category: 'place',
    type: 'house',
    place_rank: 30,
    importance: 9.99999999995449e-6,
    addresstype: 'place',
    name: '',
    display_name: '27, Calhoun Street, Old Town Bluffton, Bluffton, Beaufort County, South Carolina, 29910, United States',
    address: {
      house_number: '27',
      road: 'Calhoun Street',
      neighbourhood: 'Old Town Bluffton',
      town: 'Bluffton',
      county: 'Beaufort County',
      state: 'South Carolina',
      'ISO3166-2-lvl4': 'US-SC',
      postcode: '29910',
      country: 'United States',
      country_code: 'us',
    },
    boundingbox: ['32.2370081', '32.2371081', '-80.8604227', '-80.8603227'],
  },
  calhounStreet: {
    place_id: 318000111,
    licence,
    osm_type: 'way',
    osm_id: 19890123,
    lat: '32.2362141',
    lon: '-80.8600588',
    category: 'highway',
    type: 'residential',
    place_rank: 26,
    importance: 0.0533433333333333,
    addresstype: 'road',
    name: 'Calhoun Street',
    display_name: 'Calhoun Street, Old Town Bluffton, Bluffton, Beaufort County, South Carolina, 29910, United States',
    address: {
      road: 'Calhoun Street',
      neighbourhood: 'Old Town Bluffton',
      town: 'Bluffton',
      county: 'Beaufort County',
      state: 'South Carolina',
      'ISO3166-2-lvl4': 'US-SC',
      postcode: '29910',
      country: 'United States',
      country_code: 'us',
    },
    boundingbox: ['32.2339045', '32.2384982', '-80.8608361', '-80.8592901'],
  },
  southCarolina: {
    place_id: 297312187,
    licence,
    osm_type: 'relation',
    osm_id: 224040,
    lat: '33.6874388',
    lon: '-80.4363743',
    category: 'boundary',
    type: 'administrative',
    place_rank: 8,
    importance: 0.7741394533655062,
    addresstype: 'state',
    name: 'South Carolina',
    display_name: 'South Carolina, United States',
    address: { state: 'South Carolina', 'ISO3166-2-lvl4': 'US-SC', country: 'United States', country_code: 'us' },
    boundingbox: ['32.0333320', '35.2155650', '-83.3539530', '-78.4993190'],
  },
  calhounIndiana: {
    place_id: 301234567,
    licence,
    osm_type: 'way',
    osm_id: 123456789,
    lat: '40.7386502',
    lon: '-85.1716341',
    category: 'building',
    type: 'house',
    place_rank: 30,
    importance: 9.99999999995449e-6,
    addresstype: 'building',
    name: '',
    display_name: '27, West Calhoun Street, Bluffton, Wells County, Indiana, 46714, United States',
    address: {
      house_number: '27',
      road: 'West Calhoun Street',
      city: 'Bluffton',
      county: 'Wells County',
      state: 'Indiana',
      'ISO3166-2-lvl4': 'US-IN',
      postcode: '46714',
      country: 'United States',
      country_code: 'us',
    },
    boundingbox: ['40.7386002', '40.7387002', '-85.1716841', '-85.1715841'],
  },
};
