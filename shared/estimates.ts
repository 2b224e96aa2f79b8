import type { EstimateServiceType } from './enums.ts';

/** Spec 000 section 4: an estimate request is urgent exactly for the two repair types. */
export function estimatePriority(serviceType: EstimateServiceType): 'urgent' | 'normal' {
  return serviceType === 'ac-repair' || serviceType === 'heating-repair' ? 'urgent' : 'normal';
}
