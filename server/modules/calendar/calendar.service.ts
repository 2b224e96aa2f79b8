import type { z } from 'zod';
import {
  calendarMessages,
  type CalendarEvent,
  type CalendarRangeResponse,
  type CalendarOverlap,
  type ScheduleOverlapDetails,
  type calendarAppointmentUpdateSchema,
  type calendarAssignSchema,
  type calendarRangeSchema,
  type calendarRescheduleSchema,
} from '#shared/calendar.ts';
import { activeWorkOrderStatuses, type WorkOrderStatus } from '#shared/enums.ts';
import { fieldStepOf } from '#shared/tech.ts';
import { canTransition, workOrderMessages, type WorkOrder } from '#shared/work-order.ts';
import type { Database, DbExecutor, RepositoryFactory } from '#server/db/client.ts';
import { createSnapshotCache } from '#server/db/snapshot-cache.ts';
import { compressedJson, type CompressedJson } from '#server/lib/compressed-json.ts';
import { AppError } from '#server/errors.ts';
import type { AuditActor } from '#server/modules/audit/index.ts';
import {
  changeWorkOrderAudited,
  durationHours,
  isForeignKeyViolation,
  refusalIn,
  sqlLocalTimestamp,
  sqlNow,
  statusesAllowedTo,
  technicianUnavailable,
  toWorkOrder,
  workOrderId,
  workOrderNotFound,
  type WorkOrderRepository,
  type WorkOrderRow,
} from '#server/modules/work-orders/index.ts';
import type { CalendarRepository } from './calendar.repository.ts';

/** No work order has this id: what a new one's overlap check excludes. */
const noWorkOrderId = '00000000-0000-0000-0000-000000000000';

/** An appointment a technician would be booked for; `exceptId` is the work order being moved (none for a new one). */
export type Booking = { technicianId: string; serviceDate: string; startTime: string; endTime: string; exceptId?: string };

/**
 * The technician double-booking rule (decision 015), the one place it lives: the calendar's moves,
 * edits and assignments use it, and so does the work-order create path ('Create New Appointment'
 * with times). Both functions run inside the caller's transaction.
 */
export function createTechnicianBookings(calendarRepository: RepositoryFactory<CalendarRepository>) {
  return {
    /** Holds the technician's row until the transaction ends (bookings of one technician take turns), and answers who it is. */
    lock(tx: DbExecutor, technicianId: string) {
      return calendarRepository(tx).lockTechnician(technicianId);
    },

    /**
     * 409 SCHEDULE_OVERLAP naming the technician and the open appointments that day the times
     * would overlap (touching ends do not). Call after lock, in the same transaction.
     */
    async ensureFree(tx: DbExecutor, booking: Booking): Promise<void> {
      const calendar = calendarRepository(tx);
      const { technicianId, serviceDate, startTime, endTime } = booking;
      const rows = await calendar.overlappingAppointments(technicianId, serviceDate, startTime, endTime, booking.exceptId ?? noWorkOrderId);
      if (rows.length === 0) return;
      const technician = await calendar.lockTechnician(technicianId);
      const overlaps: CalendarOverlap[] = rows.map((row) => ({
        ...row,
        startTime: (row.startTime ?? '').slice(0, 5),
        endTime: (row.endTime ?? '').slice(0, 5),
      }));
      const details: ScheduleOverlapDetails = { overlaps };
      throw new AppError('SCHEDULE_OVERLAP', calendarMessages.overlap(technician?.name ?? 'The technician', overlaps.length), details);
    },
  };
}

export type TechnicianBookings = ReturnType<typeof createTechnicianBookings>;

export type CalendarServiceDependencies = {
  db: Database;
  timeZone: string;
  calendarRepository: RepositoryFactory<CalendarRepository>;
  workOrderRepository: RepositoryFactory<WorkOrderRepository>;
  bookings: TechnicianBookings;
};

/**
 * The service calendar's server side (spec 001 section 7): the visible range, drags and resizes,
 * 'Edit Appointment' and the technician buttons. Every change is a work-order change: locked, on
 * the version the calendar showed, recorded in the activity log (changeWorkOrderAudited).
 */
export function createCalendarService(options: CalendarServiceDependencies) {
  const { db, timeZone, workOrderRepository, bookings } = options;
  const calendar = options.calendarRepository(db);

  /** Answers of the range read, per database snapshot (server/db/snapshot-cache.ts), as the JSON sent. */
  const answers = createSnapshotCache<CompressedJson>(db, { maxEntries: 32 });

  /** Dates, times and the version as the API answers them (the steps' times: what fieldStepOf reads). */
  const appointmentValues = <Row extends { startTime: string | null; endTime: string | null; status: string; priority: string; serviceType: string; enRouteAt: Date | null; startedAt: Date | null; completedAt: Date | null; updatedAt: Date }>(row: Row) => ({
    ...row,
    startTime: row.startTime!.slice(0, 5),
    endTime: row.endTime!.slice(0, 5),
    status: row.status as WorkOrderStatus,
    priority: row.priority as CalendarEvent['priority'],
    serviceType: row.serviceType as CalendarEvent['serviceType'],
    enRouteAt: row.enRouteAt?.toISOString() ?? null,
    startedAt: row.startedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  });

  async function readRange(range: z.output<typeof calendarRangeSchema>): Promise<CalendarRangeResponse> {
    const rows = await calendar.queries.range(range.start, range.end);
    return {
      events: rows.map((row) => {
        const { enRouteAt: _enRouteAt, startedAt: _startedAt, completedAt: _completedAt, ...event } = appointmentValues(row);
        return { ...event, field: fieldStepOf(appointmentValues(row)) };
      }),
    };
  }

  const changeAudited = (
    key: string,
    actor: AuditActor,
    action: string,
    change: (workOrders: WorkOrderRepository, before: WorkOrderRow, tx: DbExecutor) => Promise<WorkOrderRow>,
  ): Promise<WorkOrder> => changeWorkOrderAudited(db, workOrderRepository, key, actor, action, change);

  return {
    /** The calendar's visible range (spec 001 section 7), kept per database snapshot: after a change every open calendar refetches the same week. The answer is JSON text (CalendarRangeResponse), serialised once per snapshot. */
    async range(range: z.output<typeof calendarRangeSchema>): Promise<CompressedJson> {
      return answers.get(`${range.start}|${range.end}`, async () => compressedJson(JSON.stringify(await readRange(range))));
    },

    /** One appointment in full (its dialog): the customer's contact, the step times and the service address. */
    async event(id: string): Promise<CalendarEvent> {
      const [row] = await calendar.queries.event(workOrderId(id));
      if (!row) throw workOrderNotFound();
      return appointmentValues(row);
    },

    /**
     * A drag or a resize: the date and both times, based on the version the calendar showed. Open
     * work orders only (completed and cancelled ones are history). A technician's double booking is
     * refused with the appointments it would collide with, unless confirmed (allowOverlap).
     */
    async reschedule(id: string, values: z.output<typeof calendarRescheduleSchema>, actor: AuditActor): Promise<WorkOrder> {
      const key = workOrderId(id);
      return changeAudited(key, actor, 'rescheduled', async (workOrders, current, tx) => {
        if (current.technicianId && !values.allowOverlap) {
          await bookings.lock(tx, current.technicianId);
          await bookings.ensureFree(tx, { technicianId: current.technicianId, serviceDate: values.serviceDate, startTime: values.startTime, endTime: values.endTime, exceptId: key });
        }
        const row = await workOrders.updateIfCurrent(key, values.expectedUpdatedAt, activeWorkOrderStatuses, {
          serviceDate: values.serviceDate,
          scheduledDate: sqlLocalTimestamp(values.serviceDate, values.startTime, timeZone),
          scheduledStartTime: values.startTime,
          scheduledEndTime: values.endTime,
          estimatedDuration: durationHours(values.startTime, values.endTime),
        });
        if (row) return row;
        throw await refusalIn(workOrders, key, values.expectedUpdatedAt, () => new AppError('CONFLICT', calendarMessages.onlyOpenMoves));
      });
    },

    /**
     * The calendar's 'Edit Appointment': every field of the modal, on the version it showed. A new
     * status must be one the transition table allows from the current one (started_at/completed_at
     * are stamped as on the status buttons); a newly chosen technician must be active; a technician's
     * double booking is refused with the colliding appointments unless confirmed.
     */
    async updateAppointment(id: string, values: z.output<typeof calendarAppointmentUpdateSchema>, actor: AuditActor): Promise<WorkOrder> {
      const key = workOrderId(id);
      const { expectedUpdatedAt, allowOverlap, startTime, endTime, status, ...fields } = values;
      try {
        return await changeAudited(key, actor, 'appointment_updated', async (workOrders, current, tx) => {
          if (current.updatedAt.getTime() !== new Date(expectedUpdatedAt).getTime()) {
            throw new AppError('CONFLICT', workOrderMessages.conflict, { current: toWorkOrder(current) });
          }
          const isStatusChange = status !== current.status;
          if (isStatusChange && !canTransition(current.status as WorkOrderStatus, status)) {
            throw new AppError('CONFLICT', workOrderMessages.transitionRefused(current.status as WorkOrderStatus, status));
          }
          if (fields.technicianId) {
            // Locked so that two bookings of one technician are checked one after the other.
            const technician = await bookings.lock(tx, fields.technicianId);
            // A technician who left stays on the orders they had; only a newly chosen one must be active.
            if (fields.technicianId !== current.technicianId && !technician?.active) throw technicianUnavailable();
          }
          if (fields.technicianId && !allowOverlap) {
            await bookings.ensureFree(tx, { technicianId: fields.technicianId, serviceDate: fields.serviceDate, startTime, endTime, exceptId: key });
          }
          const stamps = !isStatusChange
            ? {}
            : status === 'in-progress'
              ? { startedAt: sqlNow, actualStartTime: sqlNow }
              : status === 'completed'
                ? { completedAt: sqlNow, actualEndTime: sqlNow }
                : {};
          const row = await workOrders.updateIfCurrent(key, expectedUpdatedAt, isStatusChange ? statusesAllowedTo(status) : undefined, {
            ...fields,
            status,
            ...stamps,
            scheduledDate: sqlLocalTimestamp(fields.serviceDate, startTime, timeZone),
            scheduledStartTime: startTime,
            scheduledEndTime: endTime,
            estimatedDuration: durationHours(startTime, endTime),
          });
          if (row) return row;
          throw await refusalIn(workOrders, key, expectedUpdatedAt, (now) =>
            new AppError('CONFLICT', workOrderMessages.transitionRefused(now.status as WorkOrderStatus, status)),
          );
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) {
          throw new AppError('VALIDATION_FAILED', calendarMessages.selectCustomer, [{ path: 'customerId', message: calendarMessages.selectCustomer }]);
        }
        throw error;
      }
    },

    /** One of the calendar modal's technician buttons: an active technician (or none), warned about overlaps. */
    async assignTechnician(id: string, values: z.output<typeof calendarAssignSchema>, actor: AuditActor): Promise<WorkOrder> {
      const key = workOrderId(id);
      return changeAudited(key, actor, 'assigned', async (workOrders, current, tx) => {
        if (values.technicianId && values.technicianId !== current.technicianId) {
          const technician = await bookings.lock(tx, values.technicianId);
          if (!technician?.active) throw technicianUnavailable();
          if (!values.allowOverlap && current.scheduledStartTime && current.scheduledEndTime) {
            await bookings.ensureFree(tx, {
              technicianId: values.technicianId,
              serviceDate: current.serviceDate,
              startTime: current.scheduledStartTime,
              endTime: current.scheduledEndTime,
              exceptId: key,
            });
          }
        }
        const row = await workOrders.updateIfCurrent(key, values.expectedUpdatedAt, undefined, { technicianId: values.technicianId });
        if (row) return row;
        throw await refusalIn(workOrders, key, values.expectedUpdatedAt, () => workOrderNotFound());
      });
    },
  };
}

export type CalendarService = ReturnType<typeof createCalendarService>;
