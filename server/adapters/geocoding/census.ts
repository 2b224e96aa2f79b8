import { z } from 'zod';
import { addressLine, type GeocodeCandidate, type GeocodingAddress } from '#shared/geocoding.ts';
import type { Geocoder, GeocodeOutcome } from './geocoder.ts';
import { getJson, malformed } from './http.ts';

const matchSchema = z.object({
  matchedAddress: z.string(),
  coordinates: z.object({ x: z.number(), y: z.number() }),
  addressComponents: z
    .object({ fromAddress: z.string().optional(), city: z.string().optional(), state: z.string().optional(), zip: z.string().optional() })
    .default({}),
});
const answerSchema = z.object({ result: z.object({ addressMatches: z.array(z.unknown()) }) });
/** The Census answers a bad request with 400 and {"errors": ["..."], "status": "400"}. */
const errorSchema = z.object({ errors: z.array(z.string()).min(1) });

function candidateFrom(match: z.infer<typeof matchSchema>): GeocodeCandidate {
  return {
    latitude: match.coordinates.y,
    longitude: match.coordinates.x,
    formattedAddress: match.matchedAddress,
    // The Census places the number along the street segment's address range.
    accuracy: 'RANGE_INTERPOLATED',
    components: {
      // matchedAddress starts with the number that was matched ('27 CALHOUN ST, BLUFFTON, SC, 29910');
      // fromAddress is only the start of the segment's range.
      streetNumber: /^\s*(\d+)/.exec(match.matchedAddress)?.[1],
      city: match.addressComponents.city,
      state: match.addressComponents.state,
      country: 'US',
    },
    coarse: false,
  };
}

/** A Census answer (HTTP 200) as an outcome: its address matches, or ZERO_RESULTS for none. */
export function censusOutcome(json: unknown): GeocodeOutcome {
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) return malformed('The answer has no result.addressMatches');
  if (parsed.data.result.addressMatches.length === 0) return { kind: 'none', status: 'ZERO_RESULTS' };
  const candidates: GeocodeCandidate[] = [];
  for (const item of parsed.data.result.addressMatches) {
    const match = matchSchema.safeParse(item);
    if (match.success) candidates.push(candidateFrom(match.data));
  }
  if (candidates.length === 0) return malformed('No readable address match');
  return { kind: 'results', candidates };
}

/**
 * The US Census Bureau's one-line address geocoder (no key; street addresses only, so no match is
 * ZERO_RESULTS). The base URL carries the benchmark and format; the address is added to it.
 */
export function createCensusGeocoder(options: { url: string; timeoutMs: number }): Geocoder {
  return {
    name: 'census',
    minIntervalMs: 0,
    async geocode(address: GeocodingAddress, signal?: AbortSignal): Promise<GeocodeOutcome> {
      const url = new URL(options.url);
      url.searchParams.set('address', addressLine(address));
      if (!url.searchParams.has('benchmark')) url.searchParams.set('benchmark', 'Public_AR_Current');
      if (!url.searchParams.has('format')) url.searchParams.set('format', 'json');
      const answer = await getJson(url, {
        timeoutMs: options.timeoutMs,
        signal,
        readError: (_status, body) => errorSchema.safeParse(body).data?.errors.join('; ') ?? null,
      });
      return answer.ok ? censusOutcome(answer.json) : answer.outcome;
    },
  };
}
