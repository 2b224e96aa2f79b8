import { z } from 'zod';
import { emptyToNull, streetAddressSchema } from './contact.ts';

// Where a job happens (decision 018-a, follow-up): a work order's own service address when it has
// one (a chat booking's typed address, or one staff set in 'Edit Details'), else the customer's
// address on file. One answer for every screen and the CSV export.

/** An address as customers and service addresses store it (the city, state and ZIP may be missing). */
export type PostalAddress = { address: string; city?: string | null; state?: string | null; zip?: string | null };

/** A work order's own service address columns in an answer: all null when the job is at the customer's address. */
export const serviceAddressAnswerFields = {
  serviceAddress: z.string().nullable(),
  serviceCity: z.string().nullable(),
  serviceState: z.string().nullable(),
  serviceZip: z.string().nullable(),
};
export type ServiceAddressFields = z.infer<z.ZodObject<typeof serviceAddressAnswerFields>>;

export type WorkOrderPlace = { address: string; city: string | null; state: string | null; zip: string | null; isServiceAddress: boolean };

export const workOrderPlaceMessages = {
  serviceAddress: 'Service address',
  serviceAddressHint: 'Only when the job is not at the customer’s address on file',
  incomplete: 'Give the street address, city and state of the service address, or clear it',
  atCustomer: 'Customer’s address on file',
} as const;

/** Where the job happens: the work order's service address when set, else the customer's address. */
export function workOrderPlace(workOrder: Partial<ServiceAddressFields>, customer: PostalAddress): WorkOrderPlace {
  if (workOrder.serviceAddress) {
    return {
      address: workOrder.serviceAddress,
      city: workOrder.serviceCity ?? null,
      state: workOrder.serviceState ?? null,
      zip: workOrder.serviceZip ?? null,
      isServiceAddress: true,
    };
  }
  return { address: customer.address, city: customer.city ?? null, state: customer.state ?? null, zip: customer.zip ?? null, isServiceAddress: false };
}

/**
 * One line: "27 Calhoun Street, Bluffton, SC 29910". A city or state already typed after a comma
 * in the street line (a chat visitor often types the whole address) is not repeated.
 */
export function addressLine(place: PostalAddress): string {
  const stateZip = [place.state, place.zip].filter(Boolean).join(' ');
  const street = place.address.trim();
  const comma = street.indexOf(',');
  const typedTail = comma === -1 ? '' : street.slice(comma + 1).toLowerCase();
  const tail = [place.city, stateZip].filter((part): part is string => Boolean(part) && !typedTail.includes(part!.toLowerCase()));
  return [street, ...tail].filter(Boolean).join(', ');
}

const normalised = (value: string | null | undefined) => (value ?? '').trim().replace(/\s+/g, ' ').toLowerCase();

/** Whether two addresses are the same place as typed (case and spacing aside). */
export function isSameAddress(a: PostalAddress, b: PostalAddress): boolean {
  return (['address', 'city', 'state', 'zip'] as const).every((field) => normalised(a[field]) === normalised(b[field]));
}

/**
 * The service address fields of the new-work-order form and 'Edit Details', validated as a
 * customer's address is (street, city and two-letter state required, ZIP optional). All omitted:
 * unchanged (an edit) or none (a new work order); all empty or null: cleared.
 */
export const serviceAddressFields = {
  serviceAddress: z.preprocess(emptyToNull, streetAddressSchema.nullable()).optional(),
  serviceCity: z.preprocess(emptyToNull, z.string().trim().min(1, 'City is required').max(100).nullable()).optional(),
  serviceState: z.preprocess(emptyToNull, z.string().trim().min(1, 'State is required').max(2, 'Use the two-letter state code').toUpperCase().nullable()).optional(),
  serviceZip: z.preprocess(emptyToNull, z.string().trim().regex(/^\d{5}(-\d{4})?$/, 'Please enter a 5-digit ZIP code').nullable()).optional(),
};

type ServiceAddressValues = { [Field in keyof ServiceAddressFields]?: string | null | undefined };

/** The four fields come together or not at all; a set address has its street, city and state. */
export function checkServiceAddress(value: ServiceAddressValues, context: z.RefinementCtx): void {
  const fields = ['serviceAddress', 'serviceCity', 'serviceState', 'serviceZip'] as const;
  const given = fields.filter((field) => value[field] !== undefined);
  if (given.length === 0) return;
  if (given.length < fields.length) {
    for (const field of fields.filter((name) => value[name] === undefined)) {
      context.addIssue({ code: 'custom', message: 'Send all four service address fields, or none', path: [field] });
    }
    return;
  }
  const set = fields.filter((field) => value[field] !== null);
  if (set.length === 0) return;
  for (const field of ['serviceAddress', 'serviceCity', 'serviceState'] as const) {
    if (value[field] === null) context.addIssue({ code: 'custom', message: workOrderPlaceMessages.incomplete, path: [field] });
  }
}

/** The columns to write: all four (null to clear), or nothing when the request left them out. */
export function serviceAddressColumns(value: ServiceAddressValues): ServiceAddressFields | Record<string, never> {
  if (value.serviceAddress === undefined) return {};
  return {
    serviceAddress: value.serviceAddress ?? null,
    serviceCity: value.serviceCity ?? null,
    serviceState: value.serviceState ?? null,
    serviceZip: value.serviceZip ?? null,
  };
}
