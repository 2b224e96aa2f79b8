import type { EstimateServiceType, estimateTimePreferences } from './enums.ts';

// What the estimate form shows and says. No validation library here: the public pages import it
// up front, the schema (shared/estimate.ts) only when the visitor starts filling the form in.

export const estimateServiceTypeLabels: Record<EstimateServiceType, string> = {
  'ac-installation': 'AC Installation',
  'ac-repair': 'AC Repair',
  'heating-installation': 'Heating Installation',
  'heating-repair': 'Heating Repair',
  maintenance: 'Maintenance',
  ductwork: 'Ductwork',
  other: 'Other',
};

/** Spec 000 section 5: the estimate form's own time windows. */
export const estimateTimePreferenceLabels: Record<(typeof estimateTimePreferences)[number], string> = {
  morning: 'Morning (8AM-12PM)',
  afternoon: 'Afternoon (12PM-4PM)',
  evening: 'Evening (4PM-7PM)',
};

export const estimateMessages = {
  submitFailed: (message: string, phone: string) => `Failed to submit request: ${message}. Please try again or call us at ${phone}.`,
} as const;

/** The answer to a submission: its schema is in shared/estimate.ts (a type-only import: no validation library here). */
export type { EstimateSubmissionResponse } from './estimate.ts';
