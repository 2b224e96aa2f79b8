import { z } from 'zod';
import { appointmentTimeFields, checkAppointmentTimes } from './calendar.ts';
import { descriptionSchema } from './contact.ts';
import { customerEquipmentSchema, customerInputSchema, customerSchema } from './customer.ts';
import { possibleCustomerMatchSchema } from './customer-match.ts';
import { isValidIsoDate } from './dates.ts';
import { checkServiceAddress, serviceAddressAnswerFields, serviceAddressFields } from './work-order-place.ts';
import {
  workOrderPriorities,
  workOrderServiceTypes,
  workOrderStatuses,
  workOrderTimePreferences,
  type WorkOrderStatus,
} from './enums.ts';
import {
  workOrderTaskStatuses,
  workOrderTaskCreateSchema,
  workOrderTaskUpdateSchema,
  inspectionReportSchema,
  workOrderTaskSchema,
  inspectionReportAnswerSchema,
  workOrderCompletionSchema,
  workOrderTechNoteSchema,
} from './work-order-job.ts';

export {
  workOrderTaskStatuses,
  workOrderTaskCreateSchema,
  workOrderTaskUpdateSchema,
  inspectionReportSchema,
  workOrderTaskSchema,
  inspectionReportAnswerSchema,
  workOrderCompletionSchema,
  workOrderTechNoteSchema,
};
export type { WorkOrderTask, InspectionReport, WorkOrderCompletion } from './work-order-job.ts';

// Work orders (spec 000 sections 2-5, 7-9): the status flow, the schedule rule, the schemas and
// the screens' exact words. One place for the server, the screens and the tests.

export const workOrderMessages = {
  createFailed: 'Error creating work order',
  unexpected: 'An error occurred',
  created: 'Work order created successfully!',
  selectCustomer: 'Please select a customer or create a new one',
  listUpdateFailed: 'Error updating status',
  listUnexpected: 'An unexpected error occurred',
  statusUpdateFailed: (message: string) => `Error updating status: ${message}`,
  notesUpdateFailed: (message: string) => `Error updating notes: ${message}`,
  scheduleFailed: (message: string) => `Error scheduling work order: ${message}`,
  scheduled: 'Work order scheduled successfully!',
  scheduleNeedsDateAndTime: 'Please select both date and time',
  notFound: 'Work Order Not Found',
  searchPlaceholder: 'Search by work order #, customer, or description...',
  noMatches: 'No work orders match your filters',
  noneYet: 'No work orders found. Create your first work order!',
  loading: 'Loading work orders...',
  conflict: 'Someone else changed this work order since you opened it. Review the current values and try again.',
  /** The API's 404 for an unknown or malformed id. */
  notFoundApi: 'Work order not found',
  taskNotFound: 'Task not found',
  technicianUnavailable: 'Choose an active technician',
  equipmentUnavailable: "Choose one of this customer's equipment",
  updated: 'Work order updated successfully!',
  updateFailed: (message: string) => `Error updating work order: ${message}`,
  scheduleOnlyOpen: 'Only a pending or scheduled work order can be scheduled.',
  scheduleTooLate: 'The appointment must end by 7:00 PM. Choose an earlier start time or a shorter duration.',
  transitionRefused: (from: WorkOrderStatus, to: WorkOrderStatus) =>
    from === to ? `The work order is already ${from}.` : `A ${from} work order cannot be moved to ${to}.`,
} as const;

export const workOrderStatusFilters = ['all', ...workOrderStatuses] as const;

/** Spec 000 section 5: the work-order form's own time windows. */
export const workOrderTimePreferenceLabels: Record<(typeof workOrderTimePreferences)[number], string> = {
  morning: 'Morning (8AM-12PM)',
  afternoon: 'Afternoon (12PM-5PM)',
  anytime: 'Anytime',
};

/**
 * Spec 000 section 4, detail screen: pending → in-progress (start) or scheduled (schedule modal);
 * scheduled → in-progress; in-progress → completed; any status but completed or cancelled →
 * cancelled. The list offers only pending → in-progress and in-progress → completed.
 */
export const allowedTransitions: Record<WorkOrderStatus, readonly WorkOrderStatus[]> = {
  pending: ['in-progress', 'scheduled', 'cancelled'],
  scheduled: ['in-progress', 'cancelled'],
  'in-progress': ['completed', 'cancelled'],
  completed: [],
  cancelled: [],
};
export const listTransitions: Partial<Record<WorkOrderStatus, WorkOrderStatus>> = { pending: 'in-progress', 'in-progress': 'completed' };

export function canTransition(from: WorkOrderStatus, to: WorkOrderStatus): boolean {
  return allowedTransitions[from].includes(to);
}

/** Spec 000 section 5: offered start times (24 h) and durations (hours; 8 is 'Full day'). */
export const scheduleStartTimes = ['08:00', '09:00', '10:00', '11:00', '13:00', '14:00', '15:00', '16:00'] as const;
export const scheduleDurations = [1, 2, 3, 4, 8] as const;
export const defaultScheduleDurationHours = 2;

/** End time = start time + the duration in whole hours ('HH:MM'). */
export function scheduleEndTime(start: string, durationHours: number): string {
  const [hours, minutes] = start.split(':').map(Number) as [number, number];
  const end = hours + durationHours;
  return `${String(end).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** The calendar's last slot ends at 19:00: an appointment may not end later (16:00 + 8 h is refused). */
export const scheduleLatestEndTime = '19:00';

/** Whether start + duration ends by the calendar's last slot ('HH:MM' compares as text). */
export function scheduleFitsDay(start: string, durationHours: number): boolean {
  return scheduleEndTime(start, durationHours) <= scheduleLatestEndTime;
}

const isoDate = z.string().refine(isValidIsoDate, 'Please enter a valid date');
/** The version an edit was based on: the work order's updated_at as the client last saw it. */
const expectedUpdatedAt = z.iso.datetime({ offset: true });

export const workOrderListQuerySchema = z.object({
  status: z.enum(workOrderStatusFilters).default('all'),
  search: z.string().trim().max(200).default(''),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});

const nullableId = z.preprocess((value) => (value === '' ? null : value), z.uuid().nullable());

/** The fields staff fill in on the new-work-order form and change with 'Edit Details'. */
const workOrderFields = {
  title: z.string().trim().min(1, 'Title is required').max(200),
  serviceType: z.enum(workOrderServiceTypes, { error: 'Service type is required' }),
  priority: z.enum(workOrderPriorities, { error: 'Priority is required' }),
  serviceDate: isoDate,
  timePreference: z.enum(workOrderTimePreferences, { error: 'Time preference is required' }),
  description: z.string().trim().min(1, 'Description is required').max(5000),
  technicianId: nullableId,
  /** Where the job is when not at the customer's address on file (shared/work-order-place.ts). */
  ...serviceAddressFields,
};

/**
 * New work order (spec 000 section 5). Defaults: today, morning, repair, normal. The calendar's
 * 'Create New Appointment' also sends the appointment's times (spec 001 section 5): both or neither.
 * This is the form's object; the API parses it with `workOrderCreateRequestSchema` (times checked).
 */
export function workOrderCreateSchema(today: string) {
  return z.object({
    startTime: appointmentTimeFields.startTime.optional(),
    endTime: appointmentTimeFields.endTime.optional(),
    ...workOrderFields,
    customerId: z.uuid({ error: workOrderMessages.selectCustomer }),
    serviceType: workOrderFields.serviceType.default('repair'),
    priority: workOrderFields.priority.default('normal'),
    serviceDate: workOrderFields.serviceDate.default(today),
    timePreference: workOrderFields.timePreference.default('morning'),
    notes: descriptionSchema,
    technicianId: workOrderFields.technicianId.default(null),
    /** With times and a technician: book it even though the technician has an appointment then. */
    allowOverlap: z.boolean().default(false),
  });
}
export type WorkOrderCreateInput = z.input<ReturnType<typeof workOrderCreateSchema>>;

/** Optional appointment times: both or neither; when given, start before end inside the calendar's day. */
export function checkOptionalAppointmentTimes(value: { startTime?: string | undefined; endTime?: string | undefined }, context: z.RefinementCtx): void {
  const { startTime, endTime } = value;
  if (startTime === undefined && endTime === undefined) return;
  if (startTime === undefined || endTime === undefined) {
    context.addIssue({ code: 'custom', message: 'Give both the start and the end time', path: [startTime === undefined ? 'startTime' : 'endTime'] });
    return;
  }
  checkAppointmentTimes({ startTime, endTime }, context);
}

/** POST /api/admin/work-orders with an existing customer. */
export function workOrderCreateRequestSchema(today: string) {
  return workOrderCreateSchema(today).superRefine(checkOptionalAppointmentTimes).superRefine(checkServiceAddress);
}

/**
 * 'Edit Details': every field of the form plus the linked equipment (one of the customer's own),
 * based on the version the editor saw. The customer, status, schedule and notes have their own actions.
 */
export const workOrderUpdateSchema = z
  .object({
    ...workOrderFields,
    equipmentId: nullableId,
    expectedUpdatedAt,
  })
  .superRefine(checkServiceAddress);
export type WorkOrderUpdateInput = z.input<typeof workOrderUpdateSchema>;

export const workOrderStatusChangeSchema = z.object({
  status: z.enum(workOrderStatuses),
  expectedUpdatedAt,
});

export const workOrderNotesSchema = z.object({
  notes: z.string().max(10_000),
  expectedUpdatedAt,
});

/** The schedule modal: date (not before today) and start time required; duration 1-4 or 8 hours. */
export function workOrderScheduleSchema(today: string) {
  return z.object({
    date: isoDate.refine((date) => date >= today, 'The date cannot be in the past'),
    startTime: z.enum(scheduleStartTimes, { error: workOrderMessages.scheduleNeedsDateAndTime }),
    durationHours: z.coerce
      .number()
      .refine((hours) => (scheduleDurations as readonly number[]).includes(hours), 'Choose a duration from the list')
      .default(defaultScheduleDurationHours),
    technicianId: nullableId.default(null),
    specialInstructions: z.preprocess((value) => (value === '' ? null : value), z.string().trim().max(2000).nullable()).default(null),
    expectedUpdatedAt,
  }).refine((value) => scheduleFitsDay(value.startTime, value.durationHours), { message: workOrderMessages.scheduleTooLate, path: ['durationHours'] });
}

export const workOrderListItemSchema = z.object({
  id: z.string(),
  workOrderNumber: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(workOrderStatuses),
  priority: z.enum(workOrderPriorities),
  serviceType: z.enum(workOrderServiceTypes),
  serviceDate: z.string(),
  updatedAt: z.string(),
  customer: z.object({ id: z.string(), name: z.string(), phone: z.string(), address: z.string() }),
  ...serviceAddressAnswerFields,
});
export type WorkOrderListItem = z.infer<typeof workOrderListItemSchema>;
export const workOrderListResponseSchema = z.object({
  workOrders: z.array(workOrderListItemSchema),
  total: z.number().int(),
  /** A search counts its matches only up to a cap: true when there are more than `total`. */
  totalCapped: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type WorkOrderListResponse = z.infer<typeof workOrderListResponseSchema>;

export type { Technician } from './technician.ts';

/** New work order with a new customer (the inline form): both are created in one transaction. */
export function workOrderCreateWithCustomerSchema(today: string) {
  return workOrderCreateSchema(today)
    .omit({ customerId: true })
    .extend({ customer: customerInputSchema })
    .superRefine(checkOptionalAppointmentTimes)
    .superRefine(checkServiceAddress);
}
export type WorkOrderCreateWithCustomerInput = z.input<ReturnType<typeof workOrderCreateWithCustomerSchema>>;

/** The body of POST /api/admin/work-orders, as documented: an existing customer's id, or a new customer. */
export function workOrderCreateBodySchema(today: string) {
  return z.union([workOrderCreateRequestSchema(today), workOrderCreateWithCustomerSchema(today)]);
}

/**
 * The schema that validates a POST /api/admin/work-orders body: with a new customer when it carries
 * one (an object in `customer`, the inline form), else with an existing customer's id. Each answers
 * its own field messages, as one schema would.
 */
export function workOrderCreateBodySchemaFor(today: string, body: unknown) {
  const customer = body !== null && typeof body === 'object' ? (body as { customer?: unknown }).customer : undefined;
  return customer !== undefined && customer !== null ? workOrderCreateWithCustomerSchema(today) : workOrderCreateRequestSchema(today);
}


/** A work order with every column (the detail screen and the answers of every change). */
export const workOrderSchema = z.object({
  id: z.string(),
  workOrderNumber: z.string(),
  customerId: z.string(),
  title: z.string(),
  description: z.string(),
  notes: z.string().nullable(),
  serviceType: z.enum(workOrderServiceTypes),
  serviceDate: z.string(),
  timePreference: z.enum(workOrderTimePreferences),
  priority: z.enum(workOrderPriorities),
  status: z.enum(workOrderStatuses),
  technicianId: z.string().nullable(),
  equipmentId: z.string().nullable(),
  estimateRequestId: z.string().nullable(),
  scheduledDate: z.string().nullable(),
  /** 'HH:MM:SS' as PostgreSQL prints a time. */
  scheduledStartTime: z.string().nullable(),
  scheduledEndTime: z.string().nullable(),
  estimatedDuration: z.number().nullable(),
  specialInstructions: z.string().nullable(),
  actualStartTime: z.string().nullable(),
  actualEndTime: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Where the visit is when it is not the customer's address on file (a chat booking: what the visitor typed). */
  ...serviceAddressAnswerFields,
  /** A chat booking's stored customer with the same phone or e-mail, until staff decide (decision 018-a). */
  possibleCustomerId: z.string().nullable(),
  /** The last en-route mark ("on my way" went to the customer; issue 18). */
  enRouteAt: z.string().nullable(),
  /** When the customer confirmed the appointment (a reply of C to the reminder; issue 18). */
  customerConfirmedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WorkOrder = z.infer<typeof workOrderSchema>;
/** The answer of every change of one work order (edit, status, notes, schedule, and the calendar's). */
export const workOrderResponseSchema = z.object({ workOrder: workOrderSchema });
export type WorkOrderResponse = z.infer<typeof workOrderResponseSchema>;
/** POST /api/admin/work-orders: the new work order, and the new customer when the form made one. */
export const workOrderCreateResponseSchema = z.object({ workOrder: workOrderSchema, customer: customerSchema.optional() });
export type WorkOrderCreateResponse = z.infer<typeof workOrderCreateResponseSchema>;

export const workOrderTaskResponseSchema = z.object({ task: workOrderTaskSchema });

export const inspectionReportResponseSchema = z.object({ inspectionReport: inspectionReportAnswerSchema });

/** The equipment linked to a work order: the customer's equipment, as the profile shows it. */
export const workOrderEquipmentSchema = customerEquipmentSchema;
export type WorkOrderEquipment = z.infer<typeof workOrderEquipmentSchema>;


/**
 * One step of the work order's history (issue 19), read from the activity log's entries for this
 * work order: what happened, who did it and when. `at` is when it happened: for a step taken in the
 * technician app, the moment on the device (`takenAt`), otherwise when it was recorded.
 */
export const workOrderStepSchema = z.object({ action: z.string(), label: z.string(), actorName: z.string(), at: z.string() });
export type WorkOrderStep = z.infer<typeof workOrderStepSchema>;

/** The most steps the work-order screen shows (the newest ones). */
export const workOrderStepsCap = 100;

const stepStatusWords: Record<string, string> = {
  pending: 'Pending',
  scheduled: 'Scheduled',
  'in-progress': 'In Progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/** The activity log's work-order actions, as the timeline names them. */
export const workOrderStepLabels: Record<string, string> = {
  created: 'Created',
  updated: 'Details edited',
  deleted: 'Deleted',
  scheduled: 'Scheduled',
  rescheduled: 'Rescheduled',
  assigned: 'Technician assigned',
  appointment_updated: 'Appointment edited',
  notes_updated: 'Office notes updated',
  task_added: 'Task added',
  task_updated: 'Task updated',
  inspection_added: 'Inspection report added',
  en_route: 'Marked en route',
  note_added: 'Note added',
  visit_completed: 'Completed',
  customer_confirmed: 'Confirmed by the customer',
  match_confirmed: 'Possible match: same customer',
  match_dismissed: 'Possible match: new customer',
};

/**
 * A step's label from its activity-log entry, or null when the entry is not a step of its own
 * (the technician's status change to completed: its 'visit_completed' entry is the step).
 * A status change taken in the technician app (it carries `takenAt`) to in progress is the arrival.
 */
export function workOrderStepLabel(action: string, changes: Record<string, [unknown, unknown]>): string | null {
  if (action === 'status_changed') {
    const to = String(changes.status?.[1] ?? '');
    const fromApp = typeof changes.takenAt?.[1] === 'string';
    if (fromApp && to === 'in-progress') return 'Arrived on site';
    if (fromApp && to === 'completed') return null;
    return to ? `Status changed to ${stepStatusWords[to] ?? to}` : 'Status changed';
  }
  if (action === 'photos_added') {
    const count = Array.isArray(changes.photos?.[1]) ? changes.photos[1].length : 1;
    return count === 1 ? 'Photo added' : `${count} photos added`;
  }
  return workOrderStepLabels[action] ?? action.replace(/_/g, ' ').replace(/^\w/, (letter) => letter.toUpperCase());
}

export const workOrderDetailResponseSchema = z.object({
  workOrder: workOrderSchema,
  customer: customerSchema,
  technician: z.object({ id: z.string(), name: z.string(), color: z.string() }).nullable(),
  equipment: workOrderEquipmentSchema.nullable(),
  inspectionReport: inspectionReportAnswerSchema.nullable(),
  tasks: z.array(workOrderTaskSchema),
  /** The stored customer this chat booking may belong to, for "Same customer" / "New customer" (decision 018-a). */
  possibleMatch: possibleCustomerMatchSchema.nullable(),
  timeline: z.object({ createdAt: z.string(), scheduledAt: z.string().nullable(), startedAt: z.string().nullable(), completedAt: z.string().nullable() }),
  /** Issue 19: the technician's completion record and notes from the technician app. */
  completion: workOrderCompletionSchema.nullable().optional(),
  techNotes: z.array(workOrderTechNoteSchema).optional(),
  /** Issue 19: every step with who and when, oldest first (the newest workOrderStepsCap). */
  steps: z.array(workOrderStepSchema).optional(),
});
export type WorkOrderDetailResponse = z.infer<typeof workOrderDetailResponseSchema>;

/** `:id` and `:taskId` of a task's address. */
export const workOrderTaskParamsSchema = z.object({ id: z.string(), taskId: z.string() });

/** DELETE /api/admin/work-orders/:id?expectedUpdatedAt=: the version the deleting screen showed. */
export const workOrderDeleteQuerySchema = z.object({ expectedUpdatedAt });
