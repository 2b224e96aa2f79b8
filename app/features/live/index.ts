/** Public entry of live: other features import only what this file exports (decision 019-l). */
export { useLiveUpdates } from './use-live-updates.ts';
