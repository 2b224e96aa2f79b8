import { z } from 'zod';
import { addressLine, type GeocodeCandidate, type GeocodingAccuracy, type GeocodingAddress } from '#shared/geocoding.ts';
import type { Geocoder, GeocodeOutcome } from './geocoder.ts';
import { createThrottle, getJson, malformed } from './http.ts';

const placeSchema = z.object({
  lat: z.coerce.number(),
  lon: z.coerce.number(),
  display_name: z.string(),
  place_rank: z.coerce.number().default(0),
  address: z
    .object({
      house_number: z.string().optional(),
      city: z.string().optional(),
      town: z.string().optional(),
      village: z.string().optional(),
      hamlet: z.string().optional(),
      state: z.string().optional(),
      country_code: z.string().optional(),
    })
    .default({}),
});
const errorSchema = z.object({ error: z.union([z.string(), z.object({ message: z.string() })]) });

/**
 * Nominatim's place_rank onto Google's location types (decision 016-a): 30 is a house or building
 * (ROOFTOP); 26-29 a street or its part, so its middle (GEOMETRIC_CENTER); anything wider (a
 * postcode, village, town, county) is APPROXIMATE. Ranks up to 12 (county, state, country) are
 * region-level: coarse.
 */
export function accuracyOfRank(rank: number): GeocodingAccuracy {
  if (rank >= 30) return 'ROOFTOP';
  if (rank >= 26) return 'GEOMETRIC_CENTER';
  return 'APPROXIMATE';
}

function candidateFrom(place: z.infer<typeof placeSchema>): GeocodeCandidate {
  const { address } = place;
  return {
    latitude: place.lat,
    longitude: place.lon,
    formattedAddress: place.display_name,
    accuracy: accuracyOfRank(place.place_rank),
    components: {
      streetNumber: address.house_number,
      city: address.city ?? address.town ?? address.village ?? address.hamlet,
      state: address.state,
      country: address.country_code?.toUpperCase(),
    },
    coarse: place.place_rank <= 12,
  };
}

/** A Nominatim search answer (HTTP 200) as an outcome: its places, or ZERO_RESULTS for an empty list. */
export function nominatimOutcome(json: unknown): GeocodeOutcome {
  if (!Array.isArray(json)) return malformed('The answer is not a list of places');
  if (json.length === 0) return { kind: 'none', status: 'ZERO_RESULTS' };
  const candidates: GeocodeCandidate[] = [];
  for (const item of json) {
    const place = placeSchema.safeParse(item);
    if (place.success && Number.isFinite(place.data.lat) && Number.isFinite(place.data.lon)) candidates.push(candidateFrom(place.data));
  }
  if (candidates.length === 0) return malformed('No readable place');
  return { kind: 'results', candidates };
}

/** Header values must be plain ASCII. */
function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '').trim() || 'HVAC back office';
}

/**
 * A Nominatim-compatible search (OpenStreetMap's public server or one's own). Its usage policy asks
 * for an identifying User-Agent and at most one request per second: the provider keeps its calls a
 * second apart itself, whatever the caller's pacing.
 */
export function createNominatimGeocoder(options: { url: string; userAgent: string; timeoutMs: number }): Geocoder {
  const minIntervalMs = 1000;
  const throttle = createThrottle(minIntervalMs);
  const userAgent = headerSafe(options.userAgent);
  return {
    name: 'nominatim',
    minIntervalMs,
    async geocode(address: GeocodingAddress, signal?: AbortSignal): Promise<GeocodeOutcome> {
      const url = new URL(`${options.url.replace(/\/+$/, '')}/search`);
      url.searchParams.set('format', 'jsonv2');
      url.searchParams.set('addressdetails', '1');
      url.searchParams.set('countrycodes', 'us');
      url.searchParams.set('limit', '5');
      url.searchParams.set('q', addressLine(address));
      await throttle(signal);
      const answer = await getJson(url, {
        headers: { 'user-agent': userAgent },
        timeoutMs: options.timeoutMs,
        signal,
        readError: (_status, body) => {
          const error = errorSchema.safeParse(body).data?.error;
          return typeof error === 'string' ? error : (error?.message ?? null);
        },
      });
      return answer.ok ? nominatimOutcome(answer.json) : answer.outcome;
    },
  };
}
