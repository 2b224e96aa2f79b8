import type { AppConfig } from '#server/config.ts';
import { geocodingMessages } from '#shared/geocoding.ts';
import { createCensusGeocoder } from './census.ts';
import type { Geocoder } from './geocoder.ts';
import { createGoogleGeocoder } from './google.ts';
import { createNominatimGeocoder } from './nominatim.ts';
import { createZipGeocoder } from './zip.ts';

export type { Geocoder, GeocodeOutcome } from './geocoder.ts';

/**
 * The configured geocoder (GEOCODER): the offline ZIP centroids by default, else Google, the US
 * Census or a Nominatim-compatible server. Configuration loading already refuses GEOCODER=google
 * without a key; the check here only guards a hand-built config.
 */
export function createGeocoder(config: Pick<AppConfig, 'geocoding'>): Geocoder {
  const settings = config.geocoding;
  switch (settings.provider) {
    case 'google':
      if (!settings.google.apiKey) throw new Error(geocodingMessages.apiKeyMissing);
      return createGoogleGeocoder({ url: settings.google.url, apiKey: settings.google.apiKey, timeoutMs: settings.timeoutMs });
    case 'census':
      return createCensusGeocoder({ url: settings.census.url, timeoutMs: settings.timeoutMs });
    case 'nominatim':
      return createNominatimGeocoder({ url: settings.nominatim.url, userAgent: settings.nominatim.userAgent, timeoutMs: settings.timeoutMs });
    case 'zip':
      return createZipGeocoder();
  }
}
