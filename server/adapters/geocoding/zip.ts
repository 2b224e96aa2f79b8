import type zipcodes from 'zipcodes';
import type { ZipCode } from 'zipcodes';
import { stateCode, type GeocodeCandidate, type GeocodingAddress } from '#shared/geocoding.ts';
import type { Geocoder, GeocodeOutcome } from './geocoder.ts';

type ZipTable = typeof zipcodes;
let table: Promise<ZipTable> | undefined;

/** The ZIP table is 5 MB of JavaScript: load it on the first lookup, not when the server starts. */
function zipTable(): Promise<ZipTable> {
  table ??= import('zipcodes').then((module) => module.default);
  return table;
}

function candidateFrom(latitude: number, longitude: number, city: string, state: string, zip: string | null): GeocodeCandidate {
  return {
    latitude,
    longitude,
    formattedAddress: `${city}, ${state}${zip ? ` ${zip}` : ''}`,
    accuracy: 'APPROXIMATE',
    components: { city, state, country: 'US' },
    coarse: false,
  };
}

/**
 * The offline default (issue 9): the centroid of the address's ZIP code from the `zipcodes` package,
 * so a fresh install plots every customer near the right place with no account or network. Without
 * a known ZIP it takes the centre of the city's ZIP centroids (the city and state as typed). Always
 * APPROXIMATE, so every result carries the spec's 'Approximate location only' warning.
 */
export function createZipGeocoder(): Geocoder {
  return {
    name: 'zip',
    minIntervalMs: 0,
    async geocode(address: GeocodingAddress): Promise<GeocodeOutcome> {
      const zips = await zipTable();
      const zip = /^\s*(\d{5})(?:\s*-\s*\d{4})?\s*$/.exec(address.zip ?? '')?.[1];
      const byZip = zip ? zips.lookup(zip) : undefined;
      if (byZip && byZip.country === 'US') {
        return { kind: 'results', candidates: [candidateFrom(byZip.latitude, byZip.longitude, byZip.city, byZip.state, byZip.zip)] };
      }
      const city = address.city.trim();
      const state = stateCode(address.state);
      if (!city || !state) return { kind: 'none', status: 'ZERO_RESULTS' };
      const inCity: ZipCode[] = zips.lookupByName(city, state).filter((item) => item.country === 'US');
      if (inCity.length === 0) return { kind: 'none', status: 'ZERO_RESULTS' };
      const round = (value: number) => Math.round(value * 1e6) / 1e6;
      const latitude = round(inCity.reduce((sum, item) => sum + item.latitude, 0) / inCity.length);
      const longitude = round(inCity.reduce((sum, item) => sum + item.longitude, 0) / inCity.length);
      const first = inCity[0]!;
      return { kind: 'results', candidates: [candidateFrom(latitude, longitude, first.city, first.state, inCity.length === 1 ? first.zip : null)] };
    },
  };
}
