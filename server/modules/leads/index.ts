/** Public entry of leads: other modules import only what this file exports (decision 019-l). */
export { fromLeads, type LeadRow } from './lead.repository.ts';
