import { z } from 'zod';
import { isValidIsoDate } from './dates.ts';
import { maintenancePlanIds, maintenanceSeasons, type MaintenanceSeason } from './maintenance-plans.ts';
import { serviceAreas } from './service-areas.ts';

/**
 * Maintenance agreements (issue 22, decision 027-b): one contract per API, used by the routes and
 * the office's screens. An agreement is a customer's membership in one of the site's plans
 * (`shared/maintenance-plans.ts`), in terms of 12 months; its visits are work orders generated per
 * season, unique per agreement and period.
 */

export const agreementBillings = ['yearly', 'monthly'] as const;
export type AgreementBilling = (typeof agreementBillings)[number];

/** What is stored. */
export const agreementStoredStatuses = ['pending', 'active', 'cancelled', 'expired'] as const;
/** What staff see: an active agreement whose term ends within `expiringWithinDays` and does not renew by itself is 'expiring'. */
export const agreementStatuses = ['pending', 'active', 'expiring', 'expired', 'cancelled'] as const;
export type AgreementStatus = (typeof agreementStatuses)[number];
export const expiringWithinDays = 30;
/** The customer's renewal reminder goes this many days before the term ends. */
export const renewalReminderDays = 30;
/** A season's visits are generated this many days before the season opens, so dispatch can plan. */
export const generationLeadDays = 30;

export const agreementStatusLabels: Record<AgreementStatus, string> = {
  pending: 'Pending',
  active: 'Active',
  expiring: 'Expiring',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

export const agreementMessages = {
  notFound: 'Maintenance agreement not found.',
  customerNotFound: 'Customer not found.',
  equipmentNotOwned: 'Choose equipment of this customer.',
  notActive: 'Only an active or pending agreement can be changed.',
  alreadyCancelled: 'This agreement is already cancelled.',
  alreadyActive: 'This agreement is already active.',
  samePlan: 'The agreement is already on this plan.',
  reasonRequired: 'Say why the agreement is cancelled.',
  startDateInvalid: 'Enter a valid start date.',
  stale: 'This agreement was changed by someone else. Reload it and try again.',
} as const;

const isoDate = z.string().refine(isValidIsoDate, agreementMessages.startDateInvalid);
const season = z.enum(Object.keys(maintenanceSeasons) as [MaintenanceSeason, ...MaintenanceSeason[]]);

export const agreementVisitSchema = z.object({
  id: z.string(),
  period: z.string().describe('The season the visit belongs to, e.g. 2027-spring'),
  season,
  dueFrom: z.string(),
  dueBy: z.string(),
  /** Null once staff deleted the visit's work order (the period is not generated again). */
  workOrderId: z.string().nullable(),
  workOrderNumber: z.string().nullable(),
  title: z.string().nullable(),
  status: z.string().nullable().describe("The work order's status"),
  /** The appointment's day in the company's time zone, when scheduled. */
  scheduledDate: z.string().nullable(),
});
export type AgreementVisit = z.infer<typeof agreementVisitSchema>;

export const agreementTermSchema = z.object({
  number: z.number().int(),
  startsOn: z.string(),
  endsOn: z.string(),
  priceCents: z.number().int(),
  planId: z.enum(maintenancePlanIds),
});

export const agreementSchema = z.object({
  id: z.string(),
  agreementNumber: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  planId: z.enum(maintenancePlanIds),
  planName: z.string(),
  status: z.enum(agreementStatuses),
  startDate: z.string(),
  termMonths: z.number().int(),
  currentTermStartsOn: z.string(),
  currentTermEndsOn: z.string(),
  priceCents: z.number().int(),
  billing: z.enum(agreementBillings),
  autoRenew: z.boolean(),
  notes: z.string(),
  equipmentIds: z.array(z.string()),
  cancelledAt: z.string().nullable(),
  cancellationReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Agreement = z.infer<typeof agreementSchema>;

export const agreementDetailSchema = agreementSchema.extend({ visits: z.array(agreementVisitSchema), terms: z.array(agreementTermSchema) });
export type AgreementDetail = z.infer<typeof agreementDetailSchema>;
export const agreementResponseSchema = z.object({ agreement: agreementDetailSchema });
export type AgreementResponse = z.infer<typeof agreementResponseSchema>;
export const customerAgreementsResponseSchema = z.object({ agreements: z.array(agreementDetailSchema) });
export type CustomerAgreementsResponse = z.infer<typeof customerAgreementsResponseSchema>;

/** POST /api/admin/customers/:id/agreements: "Add maintenance plan" on the profile. */
export const agreementCreateSchema = z.object({
  planId: z.enum(maintenancePlanIds, { message: 'Choose a plan.' }),
  startDate: isoDate,
  billing: z.enum(agreementBillings, { message: 'Choose yearly or monthly billing.' }).default('yearly'),
  autoRenew: z.boolean().default(true),
  equipmentIds: z.array(z.string().uuid('Choose equipment of this customer.')).max(20).default([]),
  notes: z.string().trim().max(2000).default(''),
});
export type AgreementCreateInput = z.input<typeof agreementCreateSchema>;

/** PUT /api/admin/agreements/:id: plan, auto-renew, covered systems, notes (under the updatedAt version rule). */
export const agreementUpdateSchema = z.object({
  expectedUpdatedAt: z.string(),
  planId: z.enum(maintenancePlanIds).optional(),
  autoRenew: z.boolean().optional(),
  billing: z.enum(agreementBillings).optional(),
  equipmentIds: z.array(z.string().uuid(agreementMessages.equipmentNotOwned)).max(20).optional(),
  notes: z.string().trim().max(2000).optional(),
});
export type AgreementUpdateInput = z.input<typeof agreementUpdateSchema>;

export const agreementCancelSchema = z.object({
  reason: z.string().trim().min(1, agreementMessages.reasonRequired).max(500),
});

/** GET /api/admin/agreements/visits-due: the dispatchers' list. */
export const visitsDueQuerySchema = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Choose a month.')
    .optional()
    .describe('YYYY-MM; visits whose season covers the month. The current month when left out.'),
  area: z.preprocess((value) => (value === '' ? undefined : value), z.enum(serviceAreas.map((area) => area.slug) as [string, ...string[]]).optional()),
  plan: z.preprocess((value) => (value === '' ? undefined : value), z.enum(maintenancePlanIds).optional()),
  /** Unscheduled only (the default), or every visit of the month, scheduled and done too. */
  include: z.preprocess((value) => (value === '' ? undefined : value), z.enum(['unscheduled', 'all']).default('unscheduled')),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});
export type VisitsDueQuery = z.output<typeof visitsDueQuerySchema>;
export type VisitsDueParams = z.input<typeof visitsDueQuerySchema>;

export const visitDueSchema = agreementVisitSchema.extend({
  agreementId: z.string(),
  agreementNumber: z.string(),
  planId: z.enum(maintenancePlanIds),
  planName: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  customerPhone: z.string(),
  address: z.string(),
  city: z.string(),
  zip: z.string(),
});
export type VisitDue = z.infer<typeof visitDueSchema>;
export const visitsDueResponseSchema = z.object({
  month: z.string(),
  visits: z.array(visitDueSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type VisitsDueResponse = z.infer<typeof visitsDueResponseSchema>;

/** The dashboard's agreement figures. */
export const agreementSummarySchema = z.object({
  active: z.number().int(),
  visitsDueThisMonth: z.number().int(),
  renewalsNext30Days: z.number().int(),
  recurringRevenueCentsPerMonth: z.number().int(),
});
export type AgreementSummary = z.infer<typeof agreementSummarySchema>;

/** The season of a period key ('2027-spring') and its window of dates. */
export function seasonWindow(year: number, seasonName: MaintenanceSeason): { period: string; dueFrom: string; dueBy: string } {
  const { firstMonth, lastMonth } = maintenanceSeasons[seasonName];
  const lastDay = new Date(Date.UTC(year, lastMonth, 0)).getUTCDate();
  return {
    period: `${year}-${seasonName}`,
    dueFrom: `${year}-${String(firstMonth).padStart(2, '0')}-01`,
    dueBy: `${year}-${String(lastMonth).padStart(2, '0')}-${String(lastDay).padStart(2, '0')}`,
  };
}

/** The first day of the term after `months` months (a term from 2027-01-31 of 1 month ends on 2027-02-28). */
export function addMonths(isoDate: string, months: number): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}
