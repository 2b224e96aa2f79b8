import { z } from 'zod';

// Address geocoding (spec 001 sections 2, 4, 5, 8 and 9; issue 9). The rules here are pure so the
// server's providers and batch, the setup page and the tests all read one copy: South Carolina
// bounds, the result validation and the scoring that picks the best of several results, the
// batch's request and progress, and the spec's exact words.

/** Spec 001 section 5: a result outside these bounds is rejected. */
export const southCarolinaBounds = { minLatitude: 32, maxLatitude: 35.2, minLongitude: -83.4, maxLongitude: -78.5 } as const;

/** Google's location types, best first; the other providers map their answers onto these. */
export const geocodingAccuracies = ['ROOFTOP', 'RANGE_INTERPOLATED', 'GEOMETRIC_CENTER', 'APPROXIMATE'] as const;
export type GeocodingAccuracy = (typeof geocodingAccuracies)[number];

/** Spec 001 section 5: result scoring. */
export const geocodingScores = {
  accuracy: { ROOFTOP: 100, RANGE_INTERPOLATED: 80, GEOMETRIC_CENTER: 60, APPROXIMATE: 20 } satisfies Record<GeocodingAccuracy, number>,
  cityMatch: 50,
  stateMatch: 30,
  streetNumber: 20,
  /** Country-level or region-level results (a whole state or country, not a place). */
  coarseResult: -50,
} as const;

/** Spec 001 section 9: batch sizes and pauses. */
export const geocodingLimits = {
  /** The map header's 'Geocode {n} addresses' runs a batch of 20. */
  mapBatchSize: 20,
  /** The setup page geocodes 5 at a time. */
  setupBatchSize: 5,
  /** The largest batch one request may start. */
  maxBatchSize: 100,
  /** Pause between two addresses of a batch (the map batch's 500 ms; Nominatim needs at least 1 s). */
  pauseMs: 500,
} as const;

/** The providers, picked by GEOCODER (server configuration). `zip` is the offline default. */
export const geocoderNames = ['zip', 'google', 'census', 'nominatim'] as const;
export type GeocoderName = (typeof geocoderNames)[number];

/** What a customer's address is geocoded from. */
export type GeocodingAddress = { address: string; city: string; state: string; zip: string | null };

/**
 * One result of a provider, reduced to what validation and scoring read. `components` holds what
 * the provider said the result is (its own city, state, street number), not what was asked.
 */
export type GeocodeCandidate = {
  latitude: number;
  longitude: number;
  formattedAddress: string;
  accuracy: GeocodingAccuracy;
  components: { streetNumber?: string; city?: string; state?: string; country?: string };
  /** A country-level or region-level (state, county) result rather than a place. */
  coarse: boolean;
};

export type GeocodeValidation = { valid: boolean; errors: string[]; warnings: string[] };

export const geocodingMessages = {
  noneNeeded: 'No customers need geocoding!',
  processed: (n: number, succeeded: number, failed: number) => `Processed ${n} customers: ${succeeded} successful, ${failed} failed`,
  completedBatch: (succeeded: number, n: number) => `Completed batch: ${succeeded}/${n} successful`,
  failed: (status: string, message?: string | null) =>
    message === undefined ? `Geocoding failed: ${status}` : `Geocoding failed: ${status} - ${message || 'Unknown error'}`,
  validationFailed: (errors: readonly string[]) => `Validation failed: ${errors.join(', ')}`,
  outsideBounds: 'Result is outside South Carolina',
  approximate: 'Approximate location only',
  cityMismatch: (city: string) => `Result does not mention ${city}`,
  // The setup page (spec 001 section 2).
  setupTitle: 'Geocoding Setup',
  geocodeNext: (n: number) => `Geocode Next ${n} Addresses`,
  refreshStats: 'Refresh Stats',
  goToMap: 'Go to Map Dashboard',
  retryFailed: 'Retry failed',
  instructions: [
    'Process addresses in small batches to avoid rate limits.',
    'Failed addresses can be geocoded manually later by placing a pin on the map.',
    'If every address fails, check the geocoding provider and its API key in the settings.',
    'Large customer lists may take several minutes.',
  ],
  // The map header (spec 001 section 2).
  statsLine: (success: number, total: number, percentage: number) => `${success}/${total} geocoded (${percentage}%)`,
  geocodeAddresses: (n: number) => `Geocode ${n} addresses`,
  manualPinSaved: 'Location saved',
  manualPinOutside: 'Place the pin inside South Carolina',
  batchRunning: 'A geocoding batch is already running',
  /** Spec 001 section 8: GEOCODER=google without GOOGLE_MAPS_API_KEY stops the start with this. */
  apiKeyMissing: 'Google Maps API key not found. Please add the key to your .env file',
} as const;

/** Spec 001 section 3: geocoding stats; percentage is success / total, rounded. */
export const geocodingStatsSchema = z.object({
  total: z.number().int(),
  success: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
  percentage: z.number().int(),
});
export type GeocodingStats = z.infer<typeof geocodingStatsSchema>;

export function geocodingPercentage(success: number, total: number): number {
  return total === 0 ? 0 : Math.round((success / total) * 100);
}

/**
 * POST /api/admin/geocoding/batches: start a batch on the server. Pending addresses are taken
 * first (oldest first); failed ones only when `retryFailed` is set. Answers 202 with the batch;
 * 409 CONFLICT (geocodingMessages.batchRunning) when one is already running.
 */
export const geocodingBatchRequestSchema = z.object({
  count: z.number().int().min(1).max(geocodingLimits.maxBatchSize).default(geocodingLimits.mapBatchSize),
  retryFailed: z.boolean().default(false),
});
export type GeocodingBatchRequest = z.input<typeof geocodingBatchRequestSchema>;

export const geocodingBatchStatuses = ['running', 'completed', 'interrupted'] as const;
export type GeocodingBatchStatus = (typeof geocodingBatchStatuses)[number];

export const geocodingBatchResultSchema = z.object({
  customerId: z.string(),
  name: z.string(),
  address: z.string(),
  status: z.enum(['success', 'failed']),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  formattedAddress: z.string().nullable(),
  accuracy: z.enum(geocodingAccuracies).nullable(),
  /** The spec's message ('Geocoding failed: ...' or 'Validation failed: ...') when it failed. */
  error: z.string().nullable(),
  /** Warnings of a result that was kept (approximate, city mismatch). */
  warnings: z.array(z.string()),
});
export type GeocodingBatchResult = z.infer<typeof geocodingBatchResultSchema>;

/**
 * A batch and its progress (GET /api/admin/geocoding/batches/current and /:id). `total` is fixed
 * when the batch starts; `results` grows as each address is done. A batch cut off by a restart is
 * `interrupted` and POST /api/admin/geocoding/batches/:id/resume finishes the addresses it has left.
 * `message` is the batch summary once it is completed (or geocodingMessages.noneNeeded).
 */
export const geocodingBatchSchema = z.object({
  id: z.string(),
  status: z.enum(geocodingBatchStatuses),
  provider: z.enum(geocoderNames),
  total: z.number().int(),
  processed: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  results: z.array(geocodingBatchResultSchema),
  message: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type GeocodingBatch = z.infer<typeof geocodingBatchSchema>;

/** PUT /api/admin/customers/:id/location: staff place the pin by hand (accuracy ROOFTOP, status success). */
/** The pin's fields as the route validates them; the South Carolina rule is the service's (its own message). */
export const manualLocationFieldsSchema = z.object({ latitude: z.number().finite(), longitude: z.number().finite() });
export const manualLocationSchema = manualLocationFieldsSchema
  .refine((point) => isInsideSouthCarolina(point.latitude, point.longitude), { message: geocodingMessages.manualPinOutside, path: ['latitude'] });
export type ManualLocationInput = z.infer<typeof manualLocationSchema>;

export function isInsideSouthCarolina(latitude: number, longitude: number): boolean {
  const b = southCarolinaBounds;
  return latitude >= b.minLatitude && latitude <= b.maxLatitude && longitude >= b.minLongitude && longitude <= b.maxLongitude;
}

/** The cache key of an address: the same address, however it was typed, is looked up once. */
export function normalizeAddress(address: GeocodingAddress): string {
  const clean = (value: string | null) => (value ?? '').toLowerCase().replace(/[.,#]/g, ' ').replace(/\s+/g, ' ').trim();
  return [clean(address.address), clean(address.city), clean(address.state), clean(address.zip).slice(0, 5)].join('|');
}

/** The one-line address sent to providers. */
export function addressLine(address: GeocodingAddress): string {
  return [address.address, address.city, [address.state, address.zip].filter(Boolean).join(' ')].filter((part) => part && part.trim()).join(', ');
}

// ---------------------------------------------------------------------------------------------
// Result validation, scoring and the choice of the best result (spec 001 section 5).

const usStates: Record<string, string> = {
  AL: 'alabama', AK: 'alaska', AZ: 'arizona', AR: 'arkansas', CA: 'california', CO: 'colorado', CT: 'connecticut',
  DE: 'delaware', DC: 'district of columbia', FL: 'florida', GA: 'georgia', HI: 'hawaii', ID: 'idaho', IL: 'illinois',
  IN: 'indiana', IA: 'iowa', KS: 'kansas', KY: 'kentucky', LA: 'louisiana', ME: 'maine', MD: 'maryland',
  MA: 'massachusetts', MI: 'michigan', MN: 'minnesota', MS: 'mississippi', MO: 'missouri', MT: 'montana',
  NE: 'nebraska', NV: 'nevada', NH: 'new hampshire', NJ: 'new jersey', NM: 'new mexico', NY: 'new york',
  NC: 'north carolina', ND: 'north dakota', OH: 'ohio', OK: 'oklahoma', OR: 'oregon', PA: 'pennsylvania',
  RI: 'rhode island', SC: 'south carolina', SD: 'south dakota', TN: 'tennessee', TX: 'texas', UT: 'utah',
  VT: 'vermont', VA: 'virginia', WA: 'washington', WV: 'west virginia', WI: 'wisconsin', WY: 'wyoming',
};
const stateByName = new Map(Object.entries(usStates).map(([code, name]) => [name, code]));

function simplify(value: string | null | undefined): string {
  return (value ?? '').toLowerCase().replace(/[.,]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** A US state as its two-letter code, whether it was written 'SC', 's.c.' or 'South Carolina'. */
export function stateCode(state: string | null | undefined): string {
  const simple = simplify(state);
  const letters = simple.replace(/[^a-z]/g, '').toUpperCase();
  if (letters.length === 2 && usStates[letters]) return letters;
  return stateByName.get(simple) ?? simple;
}

/** The house number an address starts with ('27' of '27 Calhoun Street', '12' of '12B Oak Ln'). */
function leadingNumber(value: string | null | undefined): string | null {
  const match = /^\s*(\d+)/.exec(value ?? '');
  return match ? String(Number(match[1])) : null;
}

function sameCity(candidate: GeocodeCandidate, expected: GeocodingAddress): boolean {
  const city = simplify(expected.city);
  if (!city) return false;
  if (candidate.components.city) return simplify(candidate.components.city) === city;
  return simplify(candidate.formattedAddress).includes(city);
}

/**
 * Spec 001 section 5: a result outside South Carolina is rejected (an error); an approximate one,
 * or one whose formatted address does not mention the expected city (case-insensitive), is kept
 * with a warning.
 */
export function validateGeocodeResult(candidate: GeocodeCandidate, expected: GeocodingAddress): GeocodeValidation {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (!Number.isFinite(candidate.latitude) || !Number.isFinite(candidate.longitude) || !isInsideSouthCarolina(candidate.latitude, candidate.longitude)) {
    errors.push(geocodingMessages.outsideBounds);
  }
  if (candidate.accuracy === 'APPROXIMATE') warnings.push(geocodingMessages.approximate);
  const city = expected.city.trim();
  if (city && !candidate.formattedAddress.toLowerCase().includes(city.toLowerCase())) warnings.push(geocodingMessages.cityMismatch(city));
  return { valid: errors.length === 0, errors, warnings };
}

/**
 * Spec 001 section 5: accuracy points (ROOFTOP 100 ... APPROXIMATE 20), +50 when the result's city is
 * the expected one, +30 for the same state ('SC' and 'South Carolina' are the same), +20 when the
 * result's street number is the number the expected address starts with, -50 for a country- or
 * region-level result.
 */
export function scoreGeocodeResult(candidate: GeocodeCandidate, expected: GeocodingAddress): number {
  let score = geocodingScores.accuracy[candidate.accuracy];
  if (sameCity(candidate, expected)) score += geocodingScores.cityMatch;
  const expectedState = stateCode(expected.state);
  if (expectedState && candidate.components.state && stateCode(candidate.components.state) === expectedState) score += geocodingScores.stateMatch;
  const expectedNumber = leadingNumber(expected.address);
  if (expectedNumber && leadingNumber(candidate.components.streetNumber) === expectedNumber) score += geocodingScores.streetNumber;
  if (candidate.coarse) score += geocodingScores.coarseResult;
  return score;
}

export type GeocodeChoice =
  | { ok: true; candidate: GeocodeCandidate; score: number; warnings: string[] }
  /** The spec's message: 'Validation failed: {errors}' (or 'Geocoding failed: ZERO_RESULTS' for no candidates). */
  | { ok: false; message: string };

/**
 * The highest-scoring valid candidate (the provider's order breaks ties) with its warnings, or, when
 * every candidate is invalid, 'Validation failed: {errors}' listing each distinct error once.
 */
export function chooseBestResult(candidates: readonly GeocodeCandidate[], expected: GeocodingAddress): GeocodeChoice {
  if (candidates.length === 0) return { ok: false, message: geocodingMessages.failed('ZERO_RESULTS') };
  let best: { candidate: GeocodeCandidate; score: number; warnings: string[] } | null = null;
  const errors = new Set<string>();
  for (const candidate of candidates) {
    const validation = validateGeocodeResult(candidate, expected);
    if (!validation.valid) {
      for (const error of validation.errors) errors.add(error);
      continue;
    }
    const score = scoreGeocodeResult(candidate, expected);
    if (!best || score > best.score) best = { candidate, score, warnings: validation.warnings };
  }
  return best ? { ok: true, ...best } : { ok: false, message: geocodingMessages.validationFailed([...errors]) };
}
