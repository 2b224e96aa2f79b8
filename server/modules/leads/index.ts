/** Public entry of leads: other modules import only what this file exports (decision 019-l). */
export { type LeadExportRow, type LeadRepository } from './lead.repository.ts';
