/** Public entry of geocoding: other features import only what this file exports (decision 019-l). */
export { batchSummary, geocodingErrorMessage, useGeocodingStats } from './api.ts';
export { useBatchRun } from './use-batch-run.ts';
export { GeocodingSetup } from './geocoding-setup.tsx';
