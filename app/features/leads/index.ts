/** Public entry of leads: other features import only what this file exports (decision 019-l). */
export { LeadManagement } from './lead-management.tsx';
