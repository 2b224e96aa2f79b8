import { z } from 'zod';
import { isValidIsoDate } from './dates.ts';
import { invoiceStatuses, paymentMethods, refrigerantTypes, tonnages, workOrderPriorities, workOrderServiceTypes, workOrderStatuses, workOrderTimePreferences } from './enums.ts';
import { customerEquipmentSchema } from './customer.ts';
import { maxAmountCents } from './money.ts';
import {
  inspectionReportAnswerSchema,
  inspectionReportSchema,
  workOrderCompletionSchema,
  workOrderTaskSchema,
  workOrderTaskStatuses,
  workOrderTechNoteSchema,
} from './work-order-job.ts';

// The technician app (issue 19, decision 022-a): one contract for the server's /api/tech routes
// and the /tech app, which keeps the answers on the device (IndexedDB) and replays the actions
// taken without signal. A technician sees and changes only the work orders assigned to their
// technician record; everything here is checked on the server.

/** Where a technician lands after signing in; the back office refuses them. */
export const techHomePath = '/tech';

/** Whether a staff role is the technician's (they use /tech; the back office refuses them). */
export function isTechnicianRole(role: string): boolean {
  return role === 'technician';
}

/** How many days (today included) the app keeps on the device for working offline. */
export const techOfflineDays = 3;

const isoDate = z.string().refine(isValidIsoDate, 'Use a date as YYYY-MM-DD');
const isoInstant = z.iso.datetime({ offset: true });

export const techMessages = {
  notTechnician: 'This screen is for technicians. Sign in to the office at /admin.',
  technicianOnlyInApp: 'Technicians use the technician app at /tech.',
  noTechnicianLinked: 'This account is not linked to a technician. Ask the office to link it in Settings → Staff accounts.',
  visitNotFound: 'Visit not found',
  conflict: 'The office changed this job while you were working on it. Choose which version to keep.',
  stepRefused: (from: string, step: string) => `A ${from} job cannot be marked ${step}.`,
  taskNotFound: 'Task not found',
  signatureInvalid: 'The signature must be a PNG image.',
  waitingToSync: (count: number) => (count === 1 ? '1 change waiting to sync' : `${count} changes waiting to sync`),
  /** A shared phone: another technician's items, kept until they sign in again (decision 022-d). */
  waitingForOther: (name: string, count: number) => `${count === 1 ? '1 change' : `${count} changes`} waiting for ${name} to sign in`,
  storageFull: 'This phone is out of storage: the photo could not be kept. Free some space and try again.',
  /** A payment on site needs an issued invoice of the visit (decision 025-a). */
  noInvoiceToPay: 'No invoice has been issued for this job yet. Once the office issues it, record the payment here.',
  invoiceNotOnVisit: 'That invoice is not on this visit.',
  checkNumberNeeded: 'Enter the check number',
} as const;

// Reads ------------------------------------------------------------------------------------------

/** GET /api/tech/visits?from=YYYY-MM-DD&days=N: the technician's visits from that day for N days (default today, techOfflineDays). */
export const techVisitsQuerySchema = z.object({
  from: isoDate.optional(),
  days: z.coerce.number().int().min(1).max(14).default(techOfflineDays),
});
export type TechVisitsQuery = z.input<typeof techVisitsQuerySchema>;

/** The customer's equipment as the profile shows it, with refrigerant and tonnage always answered. */
export const techEquipmentSchema = customerEquipmentSchema.required({ refrigerant: true, tonnage: true });
export type TechEquipment = z.infer<typeof techEquipmentSchema>;

/** Photos of the visit's customer; the URLs are under /api/tech and check the technician's assignment. */
export const techPhotoSchema = z.object({
  id: z.string(),
  url: z.string(),
  thumbnailUrl: z.string(),
  /** The visit it was taken on, when it came from the app. */
  workOrderId: z.string().nullable(),
  createdAt: z.string(),
});
export type TechPhoto = z.infer<typeof techPhotoSchema>;

/** An earlier visit at the same site (same customer), newest first. */
export const techPastVisitSchema = z.object({
  id: z.string(),
  workOrderNumber: z.string(),
  title: z.string(),
  serviceDate: z.string(),
  status: z.enum(workOrderStatuses),
  /** The completion summary the technician wrote, if any. */
  summary: z.string().nullable(),
});

export const materialLineSchema = z.object({
  description: z.string().trim().min(1, 'Describe the material').max(200),
  quantity: z.number().positive('Quantity must be above zero').max(100_000),
});
export type MaterialLine = z.infer<typeof materialLineSchema>;

/** What the technician recorded when the work was completed: the office's shape (shared/work-order.ts). */
export const techCompletionSchema = workOrderCompletionSchema;
export type TechCompletion = z.infer<typeof techCompletionSchema>;

export const techNoteSchema = workOrderTechNoteSchema;
export type TechNote = z.infer<typeof techNoteSchema>;

/** The methods a technician takes on site (decision 025-a); online card and credit notes are the office's. */
export const techPaymentMethods = ['cash', 'check', 'card', 'other'] as const;
export type TechPaymentMethod = (typeof techPaymentMethods)[number];

/**
 * An issued invoice of the visit's work order (sent, partially paid or paid; never a draft, a void
 * one or a credit note): what the customer owes, which the technician may collect (decision 025-a).
 */
export const techInvoiceSchema = z.object({
  id: z.string(),
  invoiceNumber: z.string(),
  status: z.enum(invoiceStatuses),
  totalCents: z.number().int(),
  paidCents: z.number().int(),
  balanceCents: z.number().int(),
  dueOn: z.string().nullable(),
});
export type TechInvoice = z.infer<typeof techInvoiceSchema>;

/** One visit with everything the technician needs on site, kept on the device for offline work. */
export const techVisitSchema = z.object({
  id: z.string(),
  workOrderNumber: z.string(),
  title: z.string(),
  description: z.string(),
  serviceType: z.enum(workOrderServiceTypes),
  priority: z.enum(workOrderPriorities),
  status: z.enum(workOrderStatuses),
  serviceDate: z.string(),
  timePreference: z.enum(workOrderTimePreferences),
  /** 'HH:MM:SS' or null (then the time preference is the window). */
  scheduledStartTime: z.string().nullable(),
  scheduledEndTime: z.string().nullable(),
  /** Notes from the office: the work order's notes and special instructions. */
  officeNotes: z.string().nullable(),
  specialInstructions: z.string().nullable(),
  enRouteAt: z.string().nullable(),
  onSiteAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** The version: an action names the version it was taken on (the 409 rule). */
  updatedAt: z.string(),
  customer: z.object({ id: z.string(), name: z.string(), phone: z.string(), email: z.string().nullable() }),
  site: z.object({
    address: z.string(),
    city: z.string(),
    state: z.string().nullable(),
    zip: z.string().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
  }),
  /** The work order's own equipment first (equipmentId), then the site's other equipment. */
  equipmentId: z.string().nullable(),
  equipment: z.array(techEquipmentSchema),
  tasks: z.array(workOrderTaskSchema),
  inspectionReport: inspectionReportAnswerSchema.nullable(),
  notes: z.array(techNoteSchema),
  photos: z.array(techPhotoSchema),
  history: z.array(techPastVisitSchema),
  completion: techCompletionSchema.nullable(),
  /** The work order's issued invoices, oldest first (decision 025-a). */
  invoices: z.array(techInvoiceSchema),
});
export type TechVisit = z.infer<typeof techVisitSchema>;

export const techTechnicianSchema = z.object({ id: z.string(), name: z.string(), color: z.string() });

export const techVisitsResponseSchema = z.object({
  technician: techTechnicianSchema,
  from: z.string(),
  days: z.number().int(),
  /** In day and time order. */
  visits: z.array(techVisitSchema),
  /** The server's clock when this was read. */
  syncedAt: z.string(),
});
export type TechVisitsResponse = z.infer<typeof techVisitsResponseSchema>;

export const techVisitResponseSchema = z.object({ visit: techVisitSchema });
export type TechVisitResponse = z.infer<typeof techVisitResponseSchema>;

// Actions ----------------------------------------------------------------------------------------

/** PNG data URL from the signature pad; at most about 300 KB. */
const signaturePng = z
  .string()
  .max(400_000)
  .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/, techMessages.signatureInvalid);

const actionBase = {
  /** A random UUID made on the device when the action was taken: applied exactly once. */
  idempotencyKey: z.uuid(),
  /** The visit's updatedAt the device had when the action was taken (the app chains its own queue). */
  baseUpdatedAt: isoInstant,
  /** When it happened on the device (the step's time, even when it syncs hours later). */
  takenAt: isoInstant,
};

export const techActionSchema = z.discriminatedUnion('kind', [
  z.object({ ...actionBase, kind: z.literal('en-route') }),
  z.object({ ...actionBase, kind: z.literal('on-site') }),
  z.object({ ...actionBase, kind: z.literal('task'), taskId: z.string(), status: z.enum(workOrderTaskStatuses) }),
  z.object({ ...actionBase, kind: z.literal('inspection'), report: inspectionReportSchema }),
  z.object({ ...actionBase, kind: z.literal('note'), text: z.string().trim().min(1, 'Write a note').max(4000) }),
  z.object({
    ...actionBase,
    kind: z.literal('complete'),
    summary: z.string().trim().min(1, 'Write a short summary of the work').max(4000),
    materials: z.array(materialLineSchema).max(100).default([]),
    signerName: z.string().trim().max(200).nullable().default(null),
    signature: signaturePng.nullable().default(null),
    followUp: z.object({ note: z.string().trim().min(1, 'Say what needs following up').max(2000) }).nullable().default(null),
  }),
]);
export type TechAction = z.input<typeof techActionSchema>;
export type TechActionKind = TechAction['kind'];

/**
 * POST /api/tech/visits/:id/actions: the visit after the action. `applied` is false when this
 * idempotency key had been applied before (a replay): nothing changed twice.
 * A stale base version answers 409 CONFLICT with `details.current` (a TechVisit).
 */
export const techActionResponseSchema = z.object({ visit: techVisitSchema, applied: z.boolean() });
export type TechActionResponse = z.infer<typeof techActionResponseSchema>;

/** The most actions one batch carries (the app sends a longer queue in several). */
export const techBatchMaxActions = 50;
/**
 * The largest batch body in bytes: one completion with its signature (a data URL of at most
 * 400,000 characters) and fifty long notes fit; the app splits a queue to stay under it.
 */
export const techBatchMaxBytes = 1024 * 1024;

/**
 * POST /api/tech/visits/:id/actions/batch: a run of one visit's queued actions, in the order they
 * were taken (decision 022-d). Each is applied exactly as the single route applies it (same key,
 * same 409 rule, same log entries), each in its own transaction; the first refusal stops the batch
 * there and the actions after it are not looked at (they stay queued on the device, in order).
 * The device's chain holds inside a batch: an action based on the version an earlier action of the
 * batch was sent on stands on the version that earlier action produced (the app would have rebased
 * it after that answer); the office's change in between is still a conflict.
 */
export const techActionBatchSchema = z.object({
  actions: z
    .array(techActionSchema)
    .min(1, 'Send at least one action')
    .max(techBatchMaxActions, `Send at most ${techBatchMaxActions} actions in one batch`),
});
export type TechActionBatch = z.input<typeof techActionBatchSchema>;

/** One applied (or replayed) action of a batch and the visit's version it left. */
export const techBatchResultSchema = z.object({
  idempotencyKey: z.string(),
  /** false: this key had been applied before (a replay), nothing changed twice. */
  applied: z.boolean(),
  /** The visit's version after this action (the next action of the device's chain stands on it). */
  updatedAt: z.string(),
});
export type TechBatchResult = z.infer<typeof techBatchResultSchema>;

/** Where a batch stopped: the action the single route would have refused, and why. */
export const techBatchStopSchema = z.object({
  idempotencyKey: z.string(),
  /**
   * conflict: the office changed the job since the action's version (the single route's 409 with
   * `current`); the answer's `visit` is the office's version. refused: any other refusal (a step
   * the status no longer allows, a task or visit gone, a key used on another visit, a bad signature).
   */
  reason: z.enum(['conflict', 'refused']),
  /** The HTTP status and error code the single route answers for this action. */
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
});
export type TechBatchStop = z.infer<typeof techBatchStopSchema>;

export const techActionBatchResponseSchema = z.object({
  /** The actions applied or replayed, in order: the first `results.length` of the batch. */
  results: z.array(techBatchResultSchema),
  /** null when every action of the batch was applied or replayed. */
  stopped: techBatchStopSchema.nullable(),
  /** The visit after the batch, once (null only if it stopped being this technician's during the batch). */
  visit: techVisitSchema.nullable(),
});
export type TechActionBatchResponse = z.infer<typeof techActionBatchResponseSchema>;

/**
 * POST /api/tech/visits/:id/payments: money taken on site against an issued invoice of the visit
 * (decision 025-a). Never more than the balance; the key makes a replay of the phone's queue record
 * one payment (201 the first time, 200 with the same payment after). A payment is not a step of the
 * visit: it has no base version and never conflicts with the office's changes to the job.
 */
export const techPaymentSchema = z
  .object({
    /** A random UUID made on the phone when the payment was taken: recorded exactly once. */
    idempotencyKey: z.uuid(),
    invoiceId: z.uuid('Choose the invoice'),
    method: z.enum(techPaymentMethods, 'Choose how the customer paid'),
    amountCents: z.number().int().min(1, 'Enter an amount above zero').max(maxAmountCents),
    /** The check's number (required for a check); a card's last four or a reference otherwise. */
    reference: z.string().trim().max(100).default(''),
    note: z.string().trim().max(1000).default(''),
    /** When it was taken on the phone: the payment's date (in the company's time zone) is that day's. */
    takenAt: isoInstant,
  })
  .refine((payment) => payment.method !== 'check' || payment.reference.length > 0, { message: techMessages.checkNumberNeeded, path: ['reference'] });
export type TechPayment = z.input<typeof techPaymentSchema>;

export const techPaymentResponseSchema = z.object({
  /** false: this key had been recorded before (a replay), nothing was recorded twice. */
  applied: z.boolean(),
  payment: z.object({
    id: z.string(),
    invoiceId: z.string(),
    method: z.enum(paymentMethods),
    amountCents: z.number().int(),
    receivedOn: z.string(),
    reference: z.string(),
  }),
  /** The visit after the payment (its invoices' balances moved; its version did not). */
  visit: techVisitSchema,
});
export type TechPaymentResponse = z.infer<typeof techPaymentResponseSchema>;

/** Equipment facts the field adds (shown on the visit). */
export const techRefrigerantTypes = refrigerantTypes;
export const techTonnages = tonnages;

/**
 * POST /api/tech/visits/:id/photos (multipart, field `photos`, header Idempotency-Key: a UUID):
 * the photos added to the visit's customer, linked to the visit. A replay answers the same photos.
 */
export const techPhotosResponseSchema = z.object({ photos: z.array(techPhotoSchema) });

// The office's view of the field (calendar events, map markers, the work-order screen) -------------

export const fieldSteps = ['en-route', 'on-site', 'done'] as const;
export type FieldStep = (typeof fieldSteps)[number];
export const fieldStepLabels: Record<FieldStep, string> = { 'en-route': 'En route', 'on-site': 'On site', done: 'Done' };

/** Where the technician is with a visit, and since when: from the work order's status and its step times. */
export function fieldStepOf(visit: {
  status: string;
  enRouteAt: string | null;
  startedAt: string | null;
  completedAt: string | null;
}): { step: FieldStep; at: string | null } | null {
  if (visit.status === 'completed') return { step: 'done', at: visit.completedAt };
  if (visit.status === 'in-progress') return { step: 'on-site', at: visit.startedAt };
  if (visit.status === 'scheduled' && visit.enRouteAt) return { step: 'en-route', at: visit.enRouteAt };
  return null;
}

/** "On site 10:05 AM" in the company's time zone (the step alone when its time is unknown). */
export function fieldStepText(field: { step: FieldStep; at: string | null }, timeZone: string): string {
  if (!field.at) return fieldStepLabels[field.step];
  const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(field.at));
  return `${fieldStepLabels[field.step]} ${time}`;
}

// Added with the server (decision 022-a) ---------------------------------------------------------

/** Where the app loads a photo of a visit's customer from (checked against the technician's assignments). */
export function techPhotoUrl(photoId: string, variant: 'display' | 'thumbnail'): string {
  return `/api/tech/photos/${photoId}/${variant}`;
}

/** The customer's signature of a completed visit: the technician's address, and the office's. */
export function techSignatureUrl(workOrderId: string): string {
  return `/api/tech/visits/${workOrderId}/signature`;
}
export function adminSignatureUrl(workOrderId: string): string {
  return `/api/admin/work-orders/${workOrderId}/signature`;
}

/** The largest signature image accepted, decoded (the data URL is at most 400,000 characters). */
export const signatureMaxBytes = 300 * 1024;

/** GET /api/tech/session: who is signed in and which technician they are. */
export const techSessionResponseSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string(), role: z.literal('technician') }),
  technician: techTechnicianSchema,
});
export type TechSessionResponse = z.infer<typeof techSessionResponseSchema>;

/** `:id` of a visit, `:photoId` and `:variant` of a photo. */
export const techVisitParamsSchema = z.object({ id: z.string() });
export const techPhotoParamsSchema = z.object({ photoId: z.string(), variant: z.enum(['display', 'thumbnail']) });

/** The photo upload's header: the key the app made for this upload (a replay answers the same photos). */
export const techPhotoHeadersSchema = z.looseObject({
  'idempotency-key': z.uuid('Send an Idempotency-Key header with a UUID').describe('A UUID the app made for this upload; a repeat answers the same photos.'),
});

/** Follow-up notes become staff notifications of this type. */
export const techFollowUpNotificationType = 'tech_follow_up';
