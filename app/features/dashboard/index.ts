/** Public entry of dashboard: other features import only what this file exports (decision 019-l). */
export { Dashboard } from './dashboard.tsx';
