/** Public entry of admin-shell: other features import only what this file exports (decision 019-l). */
export { AdminHeader } from './admin-header.tsx';
