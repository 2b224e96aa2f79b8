import type { GeocodeCandidate, GeocoderName, GeocodingAddress } from '#shared/geocoding.ts';

/**
 * One geocoding provider (issue 9). Each provider turns an address into zero or more candidates,
 * or says why it could not; it never throws for an answer the service sent (only for programming
 * errors, and when the caller's own `signal` aborts: then it rejects with the signal's reason, as
 * fetch does, so a stopping batch never records its own cancellation as the address's failure).
 * Validation, scoring and the choice of the best candidate are the service's job
 * (`#shared/geocoding.ts`), so every provider is judged by the same rules.
 */
export type GeocodeOutcome =
  /** The provider answered with results (possibly several; the service picks the best). */
  | { kind: 'results'; candidates: GeocodeCandidate[] }
  /** The provider found nothing (Google ZERO_RESULTS, an empty Census or Nominatim list). */
  | { kind: 'none'; status: string }
  /** Slow down and try again (Google OVER_QUERY_LIMIT, HTTP 429); `retryAfterMs` when it said. */
  | { kind: 'rate-limited'; status: string; message: string | null; retryAfterMs: number | null }
  /** Any other failure: REQUEST_DENIED, INVALID_REQUEST, HTTP 5xx, a timeout, a malformed answer. */
  | { kind: 'error'; status: string; message: string | null };

export interface Geocoder {
  readonly name: GeocoderName;
  /** The smallest pause between two calls this provider allows (Nominatim: 1 s). */
  readonly minIntervalMs: number;
  geocode(address: GeocodingAddress, signal?: AbortSignal): Promise<GeocodeOutcome>;
}
