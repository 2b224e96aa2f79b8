import { z } from 'zod';

// The parts of a work order a technician works on (tasks, the inspection report, the completion,
// notes), apart from the rest of the work-order contract so that the technician app's contract
// (shared/tech.ts) loads these without the office's (decision 022-d: /tech's JavaScript).
// shared/work-order.ts re-exports every name here.

export const workOrderTaskStatuses = ['pending', 'completed'] as const;
const timeSpentMinutes = z.number().int().min(0).max(100_000).nullable();

export const workOrderTaskCreateSchema = z.object({
  taskName: z.string().trim().min(1, 'Task name is required').max(200),
  status: z.enum(workOrderTaskStatuses).default('pending'),
  timeSpentMinutes: timeSpentMinutes.default(null),
});

export const workOrderTaskUpdateSchema = z
  .object({ status: z.enum(workOrderTaskStatuses).optional(), timeSpentMinutes: timeSpentMinutes.optional() })
  .refine((value) => value.status !== undefined || value.timeSpentMinutes !== undefined, 'Nothing to update');

/** Readings fit their columns: numeric(6,1), numeric(6,1), numeric(5,1), numeric(5,2). */
const reading = (max: number) => z.number().min(-max).max(max).nullable().default(null);

export const inspectionReportSchema = z.object({
  mca: reading(99_999),
  mocp: reading(99_999),
  tempSplit: reading(9_999),
  staticPressure: reading(999),
  inspectionItems: z
    .array(z.string().regex(/^[a-z0-9]+(?:_[a-z0-9]+)*$/, 'Inspection items are snake_case tags'))
    .max(100)
    .default([]),
});

export const workOrderTaskSchema = z.object({
  id: z.string(),
  workOrderId: z.string(),
  taskName: z.string(),
  status: z.string(),
  timeSpentMinutes: z.number().nullable(),
  createdAt: z.string(),
});
export type WorkOrderTask = z.infer<typeof workOrderTaskSchema>;

export const inspectionReportAnswerSchema = z.object({
  id: z.string(),
  workOrderId: z.string(),
  mca: z.number().nullable(),
  mocp: z.number().nullable(),
  tempSplit: z.number().nullable(),
  staticPressure: z.number().nullable(),
  inspectionItems: z.array(z.string()),
  createdAt: z.string(),
});
export type InspectionReport = z.infer<typeof inspectionReportAnswerSchema>;

/**
 * What the technician recorded at 'Work complete' (issue 19), as the office sees it: the same
 * shape shared/tech.ts answers the technician app (techCompletionSchema is this schema).
 */
export const workOrderCompletionSchema = z.object({
  summary: z.string(),
  materials: z.array(z.object({ description: z.string(), quantity: z.number() })),
  signerName: z.string().nullable(),
  /** /api/admin/work-orders/:id/signature, or null when the customer did not sign. */
  signatureUrl: z.string().nullable(),
  timeOnSiteMinutes: z.number().int().nullable(),
  followUpNote: z.string().nullable(),
  completedByName: z.string(),
  completedAt: z.string(),
});
export type WorkOrderCompletion = z.infer<typeof workOrderCompletionSchema>;
/** A technician's note on the visit (issue 19). */
export const workOrderTechNoteSchema = z.object({ id: z.string(), text: z.string(), authorName: z.string(), createdAt: z.string() });
