import { z } from 'zod';
import { errorBodySchema } from './api.ts';
import { serviceAddressAnswerFields } from './work-order-place.ts';
import { isValidIsoDate } from './dates.ts';
import { fieldSteps } from './tech.ts';
import {
  workOrderPriorities,
  workOrderServiceTypes,
  workOrderStatuses,
} from './enums.ts';

// The service calendar (spec 001 sections 2-9): what it reads for a visible range, how a drag,
// a resize and an assignment are sent, and the screen's exact words. The calendar changes work
// orders through the same service as every other screen, with the same version check.

export const calendarMessages = {
  title: 'Service Calendar',
  subtitle: 'Drag and drop to reschedule appointments',
  loading: 'Loading calendar...',
  openFailed: 'The appointment could not be opened.',
  rescheduleFailed: 'Error rescheduling work order',
  durationFailed: 'Error updating work order duration',
  statusFailed: 'Error updating work order status',
  assignFailed: 'Error assigning technician',
  createFailed: 'Error creating work order',
  updateFailed: 'Error updating work order',
  deleteFailed: 'Error deleting work order',
  selectCustomer: 'Please select a customer',
  confirmDelete: 'Are you sure you want to delete this work order? This action cannot be undone.',
  outsideHours: 'Appointments run between 7:00 AM and 7:00 PM.',
  endAfterStart: 'The end time must be after the start time.',
  rangeTooLong: 'The calendar reads at most 42 days at a time.',
  onlyOpenMoves: 'Completed and cancelled work orders stay where they are.',
  onlyUnstartedDeletes: 'Only pending, scheduled or cancelled work orders can be deleted. Cancel a job instead of deleting it.',
  overlap: (technician: string, count: number) =>
    `${technician} already has ${count === 1 ? 'an appointment' : `${count} appointments`} at that time.`,
} as const;

/** Spec 001 section 9: the calendar's day runs 07:00 to 19:00 in one-hour slots. */
export const calendarDayStart = '07:00';
export const calendarDayEnd = '19:00';
/** Month view shows six weeks: the longest range a client asks for. */
export const calendarMaxRangeDays = 42;

const isoDate = z.string().refine(isValidIsoDate, 'Please enter a valid date');
/** 'HH:MM' or 'HH:MM:SS' on a quarter hour (FullCalendar snaps to its slots; a quarter allows finer resizes). */
const clockTime = z
  .string()
  .regex(/^([01][0-9]|2[0-3]):(00|15|30|45)(:00)?$/, 'Times are on the quarter hour (HH:MM)')
  .transform((value) => value.slice(0, 5));
const expectedUpdatedAt = z.iso.datetime({ offset: true });

function daysBetween(start: string, end: string): number {
  return (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000;
}

/** GET /api/admin/calendar/events?start=&end=: work orders whose service date is in [start, end). */
export const calendarRangeSchema = z
  .object({ start: isoDate, end: isoDate })
  .refine((range) => range.end > range.start, { message: 'The end of the range must come after its start', path: ['end'] })
  .refine((range) => daysBetween(range.start, range.end) <= calendarMaxRangeDays, { message: calendarMessages.rangeTooLong, path: ['end'] });

/** The fields of an appointment's times, and their rules (start before end, inside the calendar's day). */
export const appointmentTimeFields = { startTime: clockTime, endTime: clockTime };
export function checkAppointmentTimes(value: { startTime: string; endTime: string }, context: z.RefinementCtx): void {
  if (value.endTime <= value.startTime) context.addIssue({ code: 'custom', message: calendarMessages.endAfterStart, path: ['endTime'] });
  else if (value.startTime < calendarDayStart || value.endTime > calendarDayEnd) {
    context.addIssue({ code: 'custom', message: calendarMessages.outsideHours, path: ['startTime'] });
  }
}

/**
 * A drag (new date and times) or a resize (new end time): the whole appointment is sent either
 * way, based on the version the calendar showed. `allowOverlap` confirms a double booking the
 * server warned about.
 */
export const calendarRescheduleSchema = z
  .object({ serviceDate: isoDate, ...appointmentTimeFields, expectedUpdatedAt, allowOverlap: z.boolean().default(false) })
  .superRefine(checkAppointmentTimes);
export type CalendarRescheduleInput = z.input<typeof calendarRescheduleSchema>;

/** One of the modal's technician buttons (null: Unassigned). */
export const calendarAssignSchema = z.object({
  technicianId: z.uuid().nullable(),
  expectedUpdatedAt,
  allowOverlap: z.boolean().default(false),
});
export type CalendarAssignInput = z.input<typeof calendarAssignSchema>;

const nullableId = z.preprocess((value) => (value === '' ? null : value), z.uuid().nullable());
const optionalText = (max: number) => z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), z.string().trim().max(max).nullable());

/**
 * The calendar's 'Edit Appointment' modal (PUT /api/admin/work-orders/:id/appointment): the create
 * form's fields (spec 001 section 5) plus Status and Notes, based on the version the modal showed.
 * A status change obeys the same transition table as every other screen; a technician's double
 * booking is refused until confirmed (allowOverlap), as on a drag.
 */
export const calendarAppointmentUpdateSchema = z
  .object({
    customerId: z.uuid({ error: calendarMessages.selectCustomer }),
    title: z.string().trim().min(1, 'Title is required').max(200),
    serviceType: z.enum(workOrderServiceTypes, { error: 'Service type is required' }),
    priority: z.enum(workOrderPriorities, { error: 'Priority is required' }),
    serviceDate: isoDate,
    ...appointmentTimeFields,
    description: z.string().trim().min(1, 'Description is required').max(5000),
    technicianId: nullableId,
    status: z.enum(workOrderStatuses, { error: 'Status is required' }),
    notes: optionalText(10_000),
    expectedUpdatedAt,
    allowOverlap: z.boolean().default(false),
  })
  .superRefine(checkAppointmentTimes);
export type CalendarAppointmentUpdateInput = z.input<typeof calendarAppointmentUpdateSchema>;

/**
 * An appointment on the calendar: a work order with a date and both times. The description and
 * notes (long texts the grid never shows) are read when an appointment is opened for editing.
 */
export const calendarEventSchema = z.object({
  id: z.string(),
  workOrderNumber: z.string(),
  title: z.string(),
  serviceDate: z.string(),
  /** 'HH:MM'. */
  startTime: z.string(),
  endTime: z.string(),
  status: z.enum(workOrderStatuses),
  priority: z.enum(workOrderPriorities),
  serviceType: z.enum(workOrderServiceTypes),
  technician: z.object({ id: z.string(), name: z.string(), color: z.string() }).nullable(),
  customer: z.object({ id: z.string(), name: z.string(), phone: z.string(), address: z.string() }),
  /** The customer has an active maintenance plan (issue 22): priority service. */
  isMember: z.boolean(),
  /** The field's steps (issue 19): en route, on site (started), done (completed); the calendar shows the latest. */
  enRouteAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  updatedAt: z.string(),
  ...serviceAddressAnswerFields,
});
export type CalendarEvent = z.infer<typeof calendarEventSchema>;
/** GET /api/admin/calendar/events/:id: one appointment in full, for its dialog (404 when it is not on the calendar). */
export const calendarEventResponseSchema = z.object({ event: calendarEventSchema });
export type CalendarEventResponse = z.infer<typeof calendarEventResponseSchema>;

/**
 * An appointment as the grid draws it (GET /api/admin/calendar/events): what its block shows and
 * what a drag needs (id and version). The customer's id, phone and address, the step times and the
 * service address are read when it is opened (calendarEventResponseSchema): a month of a busy
 * company is about 1,500 appointments, and those fields were half its bytes (decision 026-b, addendum 3).
 */
export const calendarRangeEventSchema = calendarEventSchema
  .pick({
    id: true,
    workOrderNumber: true,
    title: true,
    serviceDate: true,
    startTime: true,
    endTime: true,
    status: true,
    priority: true,
    serviceType: true,
    technician: true,
    isMember: true,
    updatedAt: true,
  })
  .extend({
    customer: z.object({ name: z.string() }),
    /** The field's latest step (fieldStepOf): what leads the block's title. */
    field: z.object({ step: z.enum(fieldSteps), at: z.string().nullable() }).nullable(),
  });
export type CalendarRangeEvent = z.infer<typeof calendarRangeEventSchema>;
export const calendarRangeResponseSchema = z.object({ events: z.array(calendarRangeEventSchema) });
export type CalendarRangeResponse = z.infer<typeof calendarRangeResponseSchema>;

/** One appointment a technician would have twice (409 SCHEDULE_OVERLAP details). */
export const calendarOverlapSchema = z.object({
  id: z.string(),
  workOrderNumber: z.string(),
  title: z.string(),
  serviceDate: z.string(),
  /** 'HH:MM'. */
  startTime: z.string(),
  endTime: z.string(),
});
export type CalendarOverlap = z.infer<typeof calendarOverlapSchema>;

/** The details of a 409 SCHEDULE_OVERLAP: the colliding appointments; sending again with allowOverlap books anyway. */
export const scheduleOverlapDetailsSchema = z.object({ overlaps: z.array(calendarOverlapSchema) });
export type ScheduleOverlapDetails = z.infer<typeof scheduleOverlapDetailsSchema>;

/** The answer 409 SCHEDULE_OVERLAP (decision 015). */
export const scheduleOverlapErrorSchema = z.object({
  error: z.object({ code: z.literal('SCHEDULE_OVERLAP'), message: z.string(), details: scheduleOverlapDetailsSchema }),
});

/**
 * The 409 of a route that books a technician's time (calendar moves, edits, assignments, and
 * creating a work order with times): a double booking, or any other conflict (a stale version, with
 * the current values, is CONFLICT).
 */
export const bookingConflictResponseSchema = z.union([scheduleOverlapErrorSchema, errorBodySchema]);
