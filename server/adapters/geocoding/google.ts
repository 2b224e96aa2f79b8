import { z } from 'zod';
import { addressLine, southCarolinaBounds, type GeocodeCandidate, type GeocodingAddress } from '#shared/geocoding.ts';
import type { Geocoder, GeocodeOutcome } from './geocoder.ts';
import { getJson, malformed } from './http.ts';

const componentSchema = z.object({ long_name: z.string(), short_name: z.string(), types: z.array(z.string()) });
const resultSchema = z.object({
  formatted_address: z.string(),
  geometry: z.object({
    location: z.object({ lat: z.number(), lng: z.number() }),
    location_type: z.enum(['ROOFTOP', 'RANGE_INTERPOLATED', 'GEOMETRIC_CENTER', 'APPROXIMATE']),
  }),
  address_components: z.array(componentSchema).default([]),
  types: z.array(z.string()).default([]),
});
const answerSchema = z.object({
  status: z.string(),
  results: z.array(z.unknown()).default([]),
  error_message: z.string().optional(),
});

/** A whole country, state or county rather than a place (spec 001 section 5: -50). */
const coarseTypes = new Set(['country', 'administrative_area_level_1', 'administrative_area_level_2']);

function candidateFrom(result: z.infer<typeof resultSchema>): GeocodeCandidate {
  const component = (type: string) => result.address_components.find((item) => item.types.includes(type));
  const city = component('locality') ?? component('postal_town') ?? component('sublocality') ?? component('administrative_area_level_3');
  return {
    latitude: result.geometry.location.lat,
    longitude: result.geometry.location.lng,
    formattedAddress: result.formatted_address,
    accuracy: result.geometry.location_type,
    components: {
      streetNumber: component('street_number')?.long_name,
      city: city?.long_name,
      state: component('administrative_area_level_1')?.short_name,
      country: component('country')?.short_name,
    },
    coarse: result.types.some((type) => coarseTypes.has(type)),
  };
}

/** Google's answer, not its HTTP status, says what happened (spec 001 section 7). */
export function googleOutcome(json: unknown): GeocodeOutcome {
  const answer = answerSchema.safeParse(json);
  if (!answer.success) return malformed('The answer has no status');
  const { status, error_message: message = null } = answer.data;
  switch (status) {
    case 'OK': {
      const candidates: GeocodeCandidate[] = [];
      for (const item of answer.data.results) {
        const result = resultSchema.safeParse(item);
        if (result.success) candidates.push(candidateFrom(result.data));
      }
      if (candidates.length === 0) return malformed('OK without a readable result');
      return { kind: 'results', candidates };
    }
    case 'ZERO_RESULTS':
      return { kind: 'none', status };
    case 'OVER_QUERY_LIMIT':
      return { kind: 'rate-limited', status, message, retryAfterMs: null };
    default:
      // REQUEST_DENIED, INVALID_REQUEST, OVER_DAILY_LIMIT, UNKNOWN_ERROR and anything newer.
      return { kind: 'error', status, message };
  }
}

/**
 * Google Geocoding (spec 001 section 7): the address with the key, region US, a bias towards South
 * Carolina's bounds and components restricting results to the US and SC. The key goes only into
 * the request's query string; no outcome message ever contains the URL.
 */
export function createGoogleGeocoder(options: { url: string; apiKey: string; timeoutMs: number }): Geocoder {
  const b = southCarolinaBounds;
  return {
    name: 'google',
    minIntervalMs: 0,
    async geocode(address: GeocodingAddress, signal?: AbortSignal): Promise<GeocodeOutcome> {
      const url = new URL(options.url);
      url.searchParams.set('address', addressLine(address));
      url.searchParams.set('key', options.apiKey);
      url.searchParams.set('region', 'us');
      url.searchParams.set('bounds', `${b.minLatitude},${b.minLongitude}|${b.maxLatitude},${b.maxLongitude}`);
      url.searchParams.set('components', 'country:US|administrative_area:SC');
      const answer = await getJson(url, {
        timeoutMs: options.timeoutMs,
        signal,
        readError: (_status, body) => answerSchema.safeParse(body).data?.error_message ?? null,
      });
      return answer.ok ? googleOutcome(answer.json) : answer.outcome;
    },
  };
}
