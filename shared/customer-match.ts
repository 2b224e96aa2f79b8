import { z } from 'zod';
import { customerListItemSchema } from './customer.ts';

// A chat booking's possible match (issue 15; decision 018-a): the booking always files its work order
// on a customer record made from what the visitor typed; when the phone or e-mail matched a stored
// customer, the work order and the AI lead name that customer for staff to confirm or dismiss.

export const customerMatchDecisions = ['same', 'new'] as const;
export type CustomerMatchDecision = (typeof customerMatchDecisions)[number];

/** The staff choice, based on the version of the work order (or lead) the screen showed. */
export const customerMatchDecisionSchema = z.object({
  decision: z.enum(customerMatchDecisions, { error: 'Choose "Same customer" or "New customer"' }),
  expectedUpdatedAt: z.iso.datetime({ offset: true }),
});
export type CustomerMatchDecisionInput = z.input<typeof customerMatchDecisionSchema>;

/** The stored customer a booking may belong to, as staff see it. */
export const possibleCustomerMatchSchema = customerListItemSchema.pick({
  id: true,
  name: true,
  phone: true,
  email: true,
  address: true,
  city: true,
  state: true,
  zip: true,
});
export type PossibleCustomerMatch = z.infer<typeof possibleCustomerMatchSchema>;

export const customerMatchResolutionSchema = z.object({
  decision: z.enum(customerMatchDecisions),
  /** The customer the work order and the lead are on now. */
  customerId: z.string(),
  workOrderId: z.string().nullable(),
  leadId: z.string().nullable(),
  /** "Same customer": whether the booking's own customer record was removed (nothing else referred to it). */
  removedCustomerId: z.string().nullable(),
});
export type CustomerMatchResolution = z.infer<typeof customerMatchResolutionSchema>;

export const customerMatchMessages = {
  title: 'Possible match',
  explanation: "This booking's phone or e-mail matches a customer already on file. Nothing was changed on that customer.",
  question: 'Is the person who booked the same customer?',
  same: 'Same customer',
  new: 'New customer',
  confirmedSame: 'Moved to the existing customer. Their details on file were not changed.',
  confirmedNew: 'Kept as a new customer. The possible match was dismissed.',
  alreadyResolved: 'This possible match has already been resolved.',
  failed: (message: string) => `Could not resolve the possible match: ${message}`,
  serviceAddress: 'Service address',
} as const;

/** 'Same customer' and 'New customer' in the activity log. */
export const customerMatchAuditActions = { same: 'match_confirmed', new: 'match_dismissed' } as const satisfies Record<CustomerMatchDecision, string>;
