import { z } from 'zod';
import { agreementBillings } from './agreement.ts';
import { personNameSchema, phoneSchema, requiredEmailSchema, streetAddressSchema } from './contact.ts';
import { isValidIsoDate } from './dates.ts';
import { maintenancePlanIds } from './maintenance-plans.ts';

/**
 * The site's plan sign-up (issue 22, decision 027-b): a visitor asks for a plan on
 * /MaintenancePlan; the office confirms it as a new or an existing customer (the agreement is then
 * made as one sold from the profile) or declines it with a reason. The public form and its route
 * use `agreementSignupRequestSchema`; the office's "Plan sign-ups" list the rest.
 */

export const agreementSignupStatuses = ['pending', 'confirmed', 'declined'] as const;
export type AgreementSignupStatus = (typeof agreementSignupStatuses)[number];

/**
 * A sign-up's online payment (decision 027-c), when Stripe is configured: `none` (not paid online),
 * `awaiting` (a Checkout Session is open), `paid`, `refunded` (declined after paying), `expired`
 * (the session closed unpaid).
 */
export const agreementSignupPaymentStatuses = ['none', 'awaiting', 'paid', 'refunded', 'expired'] as const;
export type AgreementSignupPaymentStatus = (typeof agreementSignupPaymentStatuses)[number];

export const agreementSignupStatusLabels: Record<AgreementSignupStatus, string> = { pending: 'Waiting', confirmed: 'Confirmed', declined: 'Declined' };

export const agreementSignupMessages = {
  planRequired: 'Choose a plan.',
  billingRequired: 'Choose yearly or monthly billing.',
  zipInvalid: 'Enter the 5-digit ZIP code of the home.',
  outsideArea: (phone: string) => `We do not serve that ZIP code with a maintenance plan yet. Please call us at ${phone}: we may still be able to help.`,
  noteTooLong: 'Please keep the note under 1000 characters.',
  notFound: 'Plan sign-up not found.',
  alreadyDecided: 'This sign-up was already confirmed or declined.',
  customerRequired: 'Choose the customer this sign-up is for.',
  customerNotFound: 'The chosen customer no longer exists. Choose another or make a new one.',
  reasonRequired: 'Say why the sign-up is declined.',
  startDateInvalid: 'Enter a valid start date.',
  checkoutNotFound: 'No payment was found for this link.',
  paymentStillOpen: "The sign-up's online payment is still open at Stripe and could not be closed just now. Try again in a minute.",
  refundFailed: 'Stripe could not refund the online payment just now, so the sign-up was not declined. Try again in a minute.',
} as const;

export const signupZipSchema = z.string().trim().regex(/^\d{5}$/, agreementSignupMessages.zipInvalid);

/** POST /api/public/maintenance-plan-signups: the form as the visitor sends it. `website` is a honeypot. */
export const agreementSignupRequestSchema = z.object({
  planId: z.enum(maintenancePlanIds, { error: agreementSignupMessages.planRequired }),
  billing: z.enum(agreementBillings, { error: agreementSignupMessages.billingRequired }),
  name: personNameSchema,
  email: requiredEmailSchema,
  phone: phoneSchema,
  address: streetAddressSchema,
  zip: signupZipSchema,
  note: z.string().trim().max(1000, agreementSignupMessages.noteTooLong).default(''),
  website: z.string().max(500).optional(),
});
export type AgreementSignupRequestInput = z.input<typeof agreementSignupRequestSchema>;
export type AgreementSignupRequest = z.output<typeof agreementSignupRequestSchema>;

/**
 * The answer to a sign-up (201, or 200 for a replayed idempotency key): the same whether or not the
 * e-mail or phone belong to a stored customer, so it reveals none.
 */
export const agreementSignupReceivedSchema = z.object({
  status: z.literal('received'),
  /** The short reference the confirmation e-mail names. */
  reference: z.string(),
  /**
   * Paying now (decision 027-c): `checkout` when Stripe is configured (the visitor may pay the
   * first year or month at `url`, Stripe's page), `unavailable` when Stripe failed just now (the
   * sign-up is kept; the office calls), `paid` when a repeat of a paid sign-up, `not_offered` without
   * online payment.
   */
  payment: z.discriminatedUnion('status', [
    z.object({ status: z.literal('checkout'), url: z.string(), amountCents: z.number().int() }),
    z.object({ status: z.literal('paid') }),
    z.object({ status: z.literal('unavailable') }),
    z.object({ status: z.literal('not_offered') }),
  ]),
});
export type AgreementSignupReceived = z.infer<typeof agreementSignupReceivedSchema>;

/** The short reference a visitor's e-mail and the office's list name (the start of the sign-up's id). */
export function agreementSignupReference(id: string): string {
  return `PS-${id.replace(/-/g, '').slice(0, 8).toUpperCase()}`;
}

export const agreementSignupSchema = z.object({
  id: z.string(),
  reference: z.string(),
  planId: z.enum(maintenancePlanIds),
  planName: z.string(),
  billing: z.enum(agreementBillings),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  city: z.string(),
  zip: z.string(),
  note: z.string(),
  status: z.enum(agreementSignupStatuses),
  declineReason: z.string().nullable(),
  /** A stored customer with the same phone or e-mail, for staff to consider (never shown to the visitor). */
  possibleCustomer: z.object({ id: z.string(), name: z.string() }).nullable(),
  agreementId: z.string().nullable(),
  agreementNumber: z.string().nullable(),
  customerId: z.string().nullable(),
  customerName: z.string().nullable(),
  leadId: z.string().nullable(),
  /** Its online payment (decision 027-c); `amountCents` is what was paid, else what the open checkout asks. */
  payment: z.object({
    status: z.enum(agreementSignupPaymentStatuses),
    amountCents: z.number().int().nullable(),
    paidAt: z.string().nullable(),
    refundedAt: z.string().nullable(),
    /** The first term's invoice that carries the payment, once confirmed. */
    invoiceId: z.string().nullable(),
    invoiceNumber: z.string().nullable(),
  }),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type AgreementSignup = z.infer<typeof agreementSignupSchema>;

/**
 * GET /api/public/maintenance-plan-signups/checkout/:sessionId: back from Stripe's page, whether
 * the payment is recorded yet (`confirming`: Stripe's webhook has not arrived). Nothing else about
 * the sign-up; an unknown session is a 404.
 */
export const agreementSignupCheckoutParamsSchema = z.object({ sessionId: z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/, agreementSignupMessages.checkoutNotFound) });
export const agreementSignupCheckoutStatusSchema = z.object({ status: z.enum(['paid', 'confirming', 'not_paid']) });
export type AgreementSignupCheckoutStatus = z.infer<typeof agreementSignupCheckoutStatusSchema>;

/** GET /api/admin/agreement-signups: the office's list, the waiting ones by default, oldest first. */
export const agreementSignupListQuerySchema = z.object({
  status: z.preprocess((value) => (value === '' ? undefined : value), z.enum(agreementSignupStatuses).default('pending')),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type AgreementSignupListParams = z.input<typeof agreementSignupListQuerySchema>;
export const agreementSignupListResponseSchema = z.object({
  signups: z.array(agreementSignupSchema),
  total: z.number().int(),
  /** Sign-ups waiting for the office, whatever the list shows. */
  pending: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AgreementSignupListResponse = z.infer<typeof agreementSignupListResponseSchema>;

/**
 * POST /api/admin/agreement-signups/:id/confirm: "New customer" (made from the sign-up) or an
 * existing customer; the agreement starts on `startDate` (today when left out).
 */
export const agreementSignupConfirmSchema = z.object({
  customer: z.discriminatedUnion('mode', [z.object({ mode: z.literal('new') }), z.object({ mode: z.literal('existing'), customerId: z.uuid({ error: agreementSignupMessages.customerRequired }) })], {
    error: agreementSignupMessages.customerRequired,
  }),
  startDate: z.string().refine(isValidIsoDate, agreementSignupMessages.startDateInvalid).optional(),
});
export type AgreementSignupConfirmInput = z.input<typeof agreementSignupConfirmSchema>;

/** POST /api/admin/agreement-signups/:id/decline. */
export const agreementSignupDeclineSchema = z.object({
  reason: z.string().trim().min(1, agreementSignupMessages.reasonRequired).max(500),
});

export const agreementSignupResponseSchema = z.object({ signup: agreementSignupSchema });
export type AgreementSignupResponse = z.infer<typeof agreementSignupResponseSchema>;
