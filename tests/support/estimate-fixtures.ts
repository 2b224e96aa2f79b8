import type { EstimateRequestInput } from '#shared/estimate.ts';

// A valid website estimate request, as the estimate form sends it (no preferred date or time:
// empty strings). Tests that need another one spread it and change the fields they are about.

export const validEstimateRequest = {
  name: 'Dana Whitfield',
  email: 'dana.whitfield@example.com',
  phone: '(843) 555-0123',
  address: '18 Marsh Hawk Ln, Bluffton, SC 29910',
  serviceType: 'ac-repair',
  description: 'Upstairs unit blows warm air since this morning.',
  preferredDate: '',
  preferredTime: '',
} as const satisfies EstimateRequestInput;
