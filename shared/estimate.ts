import { z } from 'zod';
import { contactMessages, descriptionSchema, emptyToNull, personNameSchema, phoneSchema, preferredDateSchema, requiredEmailSchema, smsConsentSchema, streetAddressSchema } from './contact.ts';
import { estimateServiceTypes, estimateTimePreferences } from './enums.ts';

/**
 * The estimate request as the form sends it and the server accepts it (spec 000 section 5).
 * `today` is the company's calendar date: a preferred date cannot be before it. `website` is a
 * honeypot: people never see or fill it.
 */
export function estimateRequestSchema(today: string) {
  return z.object({
    name: personNameSchema,
    email: requiredEmailSchema,
    phone: phoneSchema,
    address: streetAddressSchema,
    serviceType: z.enum(estimateServiceTypes, { error: contactMessages.serviceTypeRequired }),
    description: descriptionSchema,
    preferredDate: preferredDateSchema(today),
    preferredTime: z.preprocess(emptyToNull, z.enum(estimateTimePreferences, { error: 'Please choose a preferred time' }).nullable()).default(null),
    smsConsent: smsConsentSchema,
    website: z.string().max(500).optional(),
  });
}

export type EstimateRequestInput = z.input<ReturnType<typeof estimateRequestSchema>>;
export type EstimateRequest = z.output<ReturnType<typeof estimateRequestSchema>>;

/** The answer to a submission (201, or 200 for a replayed idempotency key). */
export const estimateSubmissionResponseSchema = z.object({
  request: z.object({ id: z.string(), status: z.string(), priority: z.string(), createdAt: z.string() }),
});
export type EstimateSubmissionResponse = z.infer<typeof estimateSubmissionResponseSchema>;
