import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  calendarMessages,
  type CalendarEvent,
  type CalendarOverlap,
  type calendarAppointmentUpdateSchema,
  type calendarAssignSchema,
  type calendarRangeSchema,
  type calendarRescheduleSchema,
} from '#shared/calendar.ts';
import type { Customer, CustomerValues } from '#shared/customer.ts';
import { activeWorkOrderStatuses, workOrderStatuses, type WorkOrderStatus } from '#shared/enums.ts';
import {
  allowedTransitions,
  canTransition,
  scheduleEndTime,
  workOrderMessages,
  type InspectionReport,
  type Technician,
  type WorkOrder,
  type WorkOrderDetailResponse,
  type WorkOrderListItem,
  type WorkOrderListResponse,
  type inspectionReportSchema,
  type workOrderCreateSchema,
  type workOrderListQuerySchema,
  type workOrderScheduleSchema,
  type workOrderTaskCreateSchema,
  type workOrderTaskUpdateSchema,
  type workOrderUpdateSchema,
  type WorkOrderTask,
} from '#shared/work-order.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { createSnapshotCache } from '#server/db/snapshot-cache.ts';
import { diffFields, hasChanges, recordAudit, type AuditActor } from '#server/modules/audit/audit.service.ts';
import { createCustomerRepository } from '#server/modules/customers/customer.repository.ts';
import { recordCustomerChange, toCustomer } from '#server/modules/customers/customer.service.ts';
import {
  createWorkOrderRepository,
  type InspectionReportRow,
  type NewWorkOrder,
  type TaskRow,
  type WorkOrderRepository,
  type WorkOrderRow,
} from './work-order.repository.ts';

type WorkOrderCreateValues = z.output<ReturnType<typeof workOrderCreateSchema>>;
export type WorkOrderValues = Omit<WorkOrderCreateValues, 'customerId'>;
type ScheduleValues = z.output<ReturnType<typeof workOrderScheduleSchema>>;

/** A uuid as PostgreSQL prints it: anything else can never be an id, so it is a 404, not a 500. */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const notFound = () => new AppError('NOT_FOUND', workOrderMessages.notFoundApi);
const equipmentUnavailable = () => new AppError('VALIDATION_FAILED', workOrderMessages.equipmentUnavailable, [
  { path: 'equipmentId', message: workOrderMessages.equipmentUnavailable },
]);
export const technicianUnavailable = () => new AppError('VALIDATION_FAILED', workOrderMessages.technicianUnavailable, [
  { path: 'technicianId', message: workOrderMessages.technicianUnavailable },
]);

function workOrderId(id: string): string {
  if (!uuidPattern.test(id)) throw notFound();
  return id.toLowerCase();
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function toWorkOrder(row: WorkOrderRow): WorkOrder {
  return {
    id: row.id,
    workOrderNumber: row.workOrderNumber,
    customerId: row.customerId,
    title: row.title,
    description: row.description,
    notes: row.notes,
    serviceType: row.serviceType as WorkOrder['serviceType'],
    serviceDate: row.serviceDate,
    timePreference: row.timePreference as WorkOrder['timePreference'],
    priority: row.priority as WorkOrder['priority'],
    status: row.status as WorkOrderStatus,
    technicianId: row.technicianId,
    equipmentId: row.equipmentId,
    estimateRequestId: row.estimateRequestId,
    scheduledDate: iso(row.scheduledDate),
    scheduledStartTime: row.scheduledStartTime,
    scheduledEndTime: row.scheduledEndTime,
    estimatedDuration: row.estimatedDuration,
    specialInstructions: row.specialInstructions,
    actualStartTime: iso(row.actualStartTime),
    actualEndTime: iso(row.actualEndTime),
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}


const toTask = (row: TaskRow): WorkOrderTask => ({ ...row, createdAt: row.createdAt.toISOString() });
const toInspectionReport = (row: InspectionReportRow): InspectionReport => ({ ...row, createdAt: row.createdAt.toISOString() });

function isForeignKeyViolation(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  return (cause as { code?: string })?.code === '23503';
}

/** The statuses a work order may be moved to `to` from (allowedTransitions read backwards). */
export function statusesAllowedTo(to: WorkOrderStatus): WorkOrderStatus[] {
  return workOrderStatuses.filter((from) => allowedTransitions[from].includes(to));
}

/** Re-scheduling is allowed: the modal works on pending and scheduled work orders. */
const schedulableStatuses = ['pending', 'scheduled'] as const satisfies readonly WorkOrderStatus[];

/**
 * Why a guarded change changed nothing: the work order is gone (404), someone else changed it
 * first (409 with the current values), or its status does not allow the change.
 */
async function refusalIn(
  repository: WorkOrderRepository,
  id: string,
  expectedUpdatedAt: string,
  statusRefusal: (current: WorkOrderRow) => AppError,
): Promise<AppError> {
  const current = await repository.findById(id);
  if (!current) return notFound();
  if (current.updatedAt.getTime() !== new Date(expectedUpdatedAt).getTime()) {
    return new AppError('CONFLICT', workOrderMessages.conflict, { current: toWorkOrder(current) });
  }
  return statusRefusal(current);
}

/** 409 SCHEDULE_OVERLAP naming the technician and the appointments the change would collide with. */
async function overlapRefusal(
  repository: WorkOrderRepository,
  technicianId: string,
  rows: Awaited<ReturnType<WorkOrderRepository['overlappingAppointments']>>,
): Promise<AppError> {
  const technician = await repository.lockTechnician(technicianId);
  const overlaps: CalendarOverlap[] = rows.map((row) => ({
    ...row,
    startTime: (row.startTime ?? '').slice(0, 5),
    endTime: (row.endTime ?? '').slice(0, 5),
  }));
  return new AppError('SCHEDULE_OVERLAP', calendarMessages.overlap(technician?.name ?? 'The technician', overlaps.length), { overlaps });
}

/** Hours between two 'HH:MM' times (the calendar's quarter hours make exact decimals). */
function durationHours(start: string, end: string): number {
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  return (minutes(end) - minutes(start)) / 60;
}

/** No work order has this id: what a new one's overlap check excludes. */
const noWorkOrderId = '00000000-0000-0000-0000-000000000000';

/**
 * What the activity log leaves out of a work order's changes: its number (never changes), and the
 * stamps and instants that follow from the status and the appointment fields already listed.
 */
const workOrderAuditOmit = [
  'workOrderNumber', 'scheduledDate', 'startedAt', 'completedAt', 'actualStartTime', 'actualEndTime', 'idempotencyKey',
] as const satisfies readonly (keyof WorkOrderRow)[];

/** The work order's entry for a change; an update that changed nothing records nothing. */
export async function recordWorkOrderChange(
  tx: Database,
  actor: AuditActor,
  action: string,
  before: WorkOrderRow | undefined,
  after: WorkOrderRow | undefined,
): Promise<void> {
  const row = (after ?? before)!;
  const changes = diffFields(before, after, { omit: workOrderAuditOmit });
  if (before && after && !hasChanges(changes)) return;
  await recordAudit(tx, { actor, entityType: 'work_order', entityId: row.id, entityLabel: row.workOrderNumber, action, changes });
}

const deletableStatuses = ['pending', 'scheduled', 'cancelled'] as const satisfies readonly WorkOrderStatus[];

export function createWorkOrderService(options: { db: Database; timeZone: string }) {
  const { db, timeZone } = options;
  const repository = createWorkOrderRepository(db);

  /** Answers of the calendar's range read, per database snapshot (server/db/snapshot-cache.ts), as the JSON sent. */
  const calendarAnswers = createSnapshotCache<string>(db, { maxEntries: 32 });

  async function readCalendarRange(range: z.output<typeof calendarRangeSchema>): Promise<{ events: CalendarEvent[] }> {
    const rows = await repository.queries.calendarRange(range.start, range.end);
    return {
      events: rows.map((row) => ({
        ...row,
        startTime: row.startTime!.slice(0, 5),
        endTime: row.endTime!.slice(0, 5),
        status: row.status as WorkOrderStatus,
        priority: row.priority as CalendarEvent['priority'],
        serviceType: row.serviceType as CalendarEvent['serviceType'],
        updatedAt: row.updatedAt.toISOString(),
      })),
    };
  }

  async function ensureTechnician(technicianId: string | null, workOrders: WorkOrderRepository = repository): Promise<void> {
    if (technicianId && !(await workOrders.isActiveTechnician(technicianId))) throw technicianUnavailable();
  }

  /**
   * One change of an existing work order in a transaction: the row is locked, changed, and the
   * change recorded in the activity log with the fields it changed.
   */
  async function changeAudited(
    key: string,
    actor: AuditActor,
    action: string,
    change: (workOrders: WorkOrderRepository, before: WorkOrderRow) => Promise<WorkOrderRow>,
  ): Promise<WorkOrder> {
    return db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      const workOrders = createWorkOrderRepository(tx);
      const before = await workOrders.lockById(key);
      if (!before) throw notFound();
      const after = await change(workOrders, before);
      await recordWorkOrderChange(tx, actor, action, before, after);
      return toWorkOrder(after);
    });
  }

  return {
    async list(query: z.output<typeof workOrderListQuerySchema>): Promise<WorkOrderListResponse> {
      const { rows, total, totalCapped } = await repository.list(query.status, query.search, query.page, query.pageSize);
      const workOrders = rows.map(
        (row): WorkOrderListItem => ({
          ...row,
          status: row.status as WorkOrderStatus,
          priority: row.priority as WorkOrderListItem['priority'],
          serviceType: row.serviceType as WorkOrderListItem['serviceType'],
          updatedAt: row.updatedAt.toISOString(),
        }),
      );
      return { workOrders, total, totalCapped, page: query.page, pageSize: query.pageSize };
    },

    /**
     * A new work order. With an appointment (the calendar's 'Create New Appointment') and a
     * technician, the technician is locked and checked for a double booking first, as a drag is.
     */
    async create(values: WorkOrderCreateValues, actor: AuditActor): Promise<WorkOrder> {
      const { technicianId, startTime, endTime } = values;
      try {
        return await db.transaction(async (transaction) => {
          const tx = transaction as unknown as Database;
          const workOrders = createWorkOrderRepository(tx);
          if (!technicianId || !startTime || !endTime) {
            await ensureTechnician(technicianId, workOrders);
          } else {
            const technician = await workOrders.lockTechnician(technicianId);
            if (!technician?.active) throw technicianUnavailable();
            if (!values.allowOverlap) {
              const overlaps = await workOrders.overlappingAppointments(technicianId, values.serviceDate, startTime, endTime, noWorkOrderId);
              if (overlaps.length > 0) throw await overlapRefusal(workOrders, technicianId, overlaps);
            }
          }
          const row = await workOrders.insert(newWorkOrder(values.customerId, values, timeZone));
          await recordWorkOrderChange(tx, actor, 'created', undefined, row);
          return toWorkOrder(row);
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) {
          throw new AppError('VALIDATION_FAILED', workOrderMessages.selectCustomer, [{ path: 'customerId', message: workOrderMessages.selectCustomer }]);
        }
        throw error;
      }
    },

    /** The customer and the work order in one transaction: a refused work order leaves no customer behind. */
    async createWithCustomer(customer: CustomerValues, values: WorkOrderValues, actor: AuditActor): Promise<{ workOrder: WorkOrder; customer: Customer }> {
      try {
        return await db.transaction(async (transaction) => {
          const tx = transaction as unknown as Database;
          const customerRow = await createCustomerRepository(tx).insert(customer);
          const workOrders = createWorkOrderRepository(tx);
          if (values.technicianId && !(await workOrders.isActiveTechnician(values.technicianId))) throw technicianUnavailable();
          const row = await workOrders.insert(newWorkOrder(customerRow.id, values, timeZone));
          await recordCustomerChange(tx, actor, 'created', undefined, customerRow);
          await recordWorkOrderChange(tx, actor, 'created', undefined, row);
          return { workOrder: toWorkOrder(row), customer: toCustomer(customerRow) };
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw technicianUnavailable();
        throw error;
      }
    },

    async detail(id: string): Promise<WorkOrderDetailResponse> {
      const found = await repository.detail(workOrderId(id));
      if (!found) throw notFound();
      const workOrder = toWorkOrder(found.workOrder);
      return {
        workOrder,
        customer: toCustomer(found.customer),
        technician: found.technician,
        equipment: found.equipment,
        inspectionReport: found.inspectionReport ? toInspectionReport(found.inspectionReport) : null,
        tasks: found.tasks.map(toTask),
        timeline: {
          createdAt: workOrder.createdAt,
          scheduledAt: workOrder.scheduledDate,
          startedAt: workOrder.startedAt,
          completedAt: workOrder.completedAt,
        },
      };
    },

    async changeStatus(id: string, status: WorkOrderStatus, expectedUpdatedAt: string, actor: AuditActor): Promise<WorkOrder> {
      const key = workOrderId(id);
      const stamps =
        status === 'in-progress'
          ? { startedAt: sqlNow, actualStartTime: sqlNow }
          : status === 'completed'
            ? { completedAt: sqlNow, actualEndTime: sqlNow }
            : {};
      return changeAudited(key, actor, 'status_changed', async (workOrders) => {
        const row = await workOrders.updateIfCurrent(key, expectedUpdatedAt, statusesAllowedTo(status), { status, ...stamps });
        if (row) return row;
        throw await refusalIn(workOrders, key, expectedUpdatedAt, (current) =>
          new AppError('CONFLICT', workOrderMessages.transitionRefused(current.status as WorkOrderStatus, status)),
        );
      });
    },

    /** 'Edit Details': the form's fields and the linked equipment, if nobody changed the order meanwhile. */
    async update(id: string, values: z.output<typeof workOrderUpdateSchema>, actor: AuditActor): Promise<WorkOrder> {
      const key = workOrderId(id);
      const { expectedUpdatedAt, ...fields } = values;
      return changeAudited(key, actor, 'updated', async (workOrders, current) => {
        // A technician who left stays on the orders they had; only a newly chosen one must be active.
        if (fields.technicianId !== current.technicianId) await ensureTechnician(fields.technicianId, workOrders);
        if (fields.equipmentId && fields.equipmentId !== current.equipmentId && !(await workOrders.isCustomersEquipment(key, fields.equipmentId))) {
          throw equipmentUnavailable();
        }
        const row = await workOrders.updateIfCurrent(key, expectedUpdatedAt, undefined, fields);
        if (row) return row;
        throw await refusalIn(workOrders, key, expectedUpdatedAt, () => notFound());
      });
    },

    async updateNotes(id: string, notes: string, expectedUpdatedAt: string, actor: AuditActor): Promise<WorkOrder> {
      const key = workOrderId(id);
      return changeAudited(key, actor, 'notes_updated', async (workOrders) => {
        const row = await workOrders.updateIfCurrent(key, expectedUpdatedAt, undefined, { notes: notes.trim() === '' ? null : notes });
        if (row) return row;
        throw await refusalIn(workOrders, key, expectedUpdatedAt, () => notFound());
      });
    },

    async schedule(id: string, values: ScheduleValues, actor: AuditActor): Promise<WorkOrder> {
      const key = workOrderId(id);
      return changeAudited(key, actor, 'scheduled', async (workOrders) => {
        await ensureTechnician(values.technicianId, workOrders);
        const row = await workOrders.updateIfCurrent(key, values.expectedUpdatedAt, schedulableStatuses, {
          status: 'scheduled',
          serviceDate: values.date,
          scheduledDate: sqlLocalTimestamp(values.date, values.startTime, timeZone),
          scheduledStartTime: values.startTime,
          scheduledEndTime: scheduleEndTime(values.startTime, values.durationHours),
          estimatedDuration: values.durationHours,
          technicianId: values.technicianId,
          specialInstructions: values.specialInstructions,
        });
        if (row) return row;
        throw await refusalIn(workOrders, key, values.expectedUpdatedAt, () => new AppError('CONFLICT', workOrderMessages.scheduleOnlyOpen));
      });
    },

    async addTask(id: string, values: z.output<typeof workOrderTaskCreateSchema>, actor: AuditActor): Promise<WorkOrderTask> {
      const key = workOrderId(id);
      return db.transaction(async (transaction) => {
        const tx = transaction as unknown as Database;
        const workOrders = createWorkOrderRepository(tx);
        const order = await workOrders.findById(key);
        if (!order) throw notFound();
        const task = await workOrders.insertTask({ workOrderId: key, ...values });
        await recordAudit(tx, {
          actor,
          entityType: 'work_order',
          entityId: key,
          entityLabel: order.workOrderNumber,
          action: 'task_added',
          changes: diffFields(undefined, task, { only: ['taskName', 'status', 'timeSpentMinutes'] }),
        });
        return toTask(task);
      }).catch((error: unknown) => {
        if (isForeignKeyViolation(error)) throw notFound();
        throw error;
      });
    },

    async updateTask(id: string, taskId: string, values: z.output<typeof workOrderTaskUpdateSchema>, actor: AuditActor): Promise<WorkOrderTask> {
      const key = workOrderId(id);
      if (!uuidPattern.test(taskId)) throw new AppError('NOT_FOUND', workOrderMessages.taskNotFound);
      return db.transaction(async (transaction) => {
        const tx = transaction as unknown as Database;
        const workOrders = createWorkOrderRepository(tx);
        const before = await workOrders.lockTask(key, taskId.toLowerCase());
        const row = before && (await workOrders.updateTask(key, taskId.toLowerCase(), values));
        if (!before || !row) throw new AppError('NOT_FOUND', workOrderMessages.taskNotFound);
        const changes = diffFields(before, row, { only: ['status', 'timeSpentMinutes'] });
        if (hasChanges(changes)) {
          const order = await workOrders.findById(key);
          await recordAudit(tx, {
            actor,
            entityType: 'work_order',
            entityId: key,
            entityLabel: order?.workOrderNumber ?? null,
            action: 'task_updated',
            // Which task: its name leads each field (a work order has several tasks).
            changes: Object.fromEntries(Object.entries(changes).map(([field, change]) => [`${row.taskName}: ${field}`, change])),
          });
        }
        return toTask(row);
      });
    },

    async addInspectionReport(id: string, values: z.output<typeof inspectionReportSchema>, actor: AuditActor): Promise<InspectionReport> {
      const key = workOrderId(id);
      return db.transaction(async (transaction) => {
        const tx = transaction as unknown as Database;
        const workOrders = createWorkOrderRepository(tx);
        const order = await workOrders.findById(key);
        if (!order) throw notFound();
        const report = await workOrders.insertInspectionReport({ workOrderId: key, ...values });
        await recordAudit(tx, {
          actor,
          entityType: 'work_order',
          entityId: key,
          entityLabel: order.workOrderNumber,
          action: 'inspection_added',
          changes: diffFields(undefined, report, { omit: ['workOrderId'] }),
        });
        return toInspectionReport(report);
      }).catch((error: unknown) => {
        if (isForeignKeyViolation(error)) throw notFound();
        throw error;
      });
    },

    /** The calendar's visible range (spec 001 section 7), kept per database snapshot: after a change every open calendar refetches the same week. The answer is JSON text (CalendarRangeResponse), serialised once per snapshot. */
    async calendarRange(range: z.output<typeof calendarRangeSchema>): Promise<string> {
      return calendarAnswers.get(`${range.start}|${range.end}`, async () => JSON.stringify(await readCalendarRange(range)));
    },

    /**
     * A drag or a resize: the date and both times, based on the version the calendar showed. Open
     * work orders only (completed and cancelled ones are history). A technician's double booking is
     * refused with the appointments it would collide with, unless confirmed (allowOverlap).
     */
    async reschedule(id: string, values: z.output<typeof calendarRescheduleSchema>, actor: AuditActor): Promise<WorkOrder> {
      const key = workOrderId(id);
      return changeAudited(key, actor, 'rescheduled', async (workOrders, current) => {
        if (current.technicianId && !values.allowOverlap) {
          await workOrders.lockTechnician(current.technicianId);
          const overlaps = await workOrders.overlappingAppointments(current.technicianId, values.serviceDate, values.startTime, values.endTime, key);
          if (overlaps.length > 0) throw await overlapRefusal(workOrders, current.technicianId, overlaps);
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
        return await changeAudited(key, actor, 'appointment_updated', async (workOrders, current) => {
          if (current.updatedAt.getTime() !== new Date(expectedUpdatedAt).getTime()) {
            throw new AppError('CONFLICT', workOrderMessages.conflict, { current: toWorkOrder(current) });
          }
          const isStatusChange = status !== current.status;
          if (isStatusChange && !canTransition(current.status as WorkOrderStatus, status)) {
            throw new AppError('CONFLICT', workOrderMessages.transitionRefused(current.status as WorkOrderStatus, status));
          }
          if (fields.technicianId) {
            // Locked so that two bookings of one technician are checked one after the other.
            const technician = await workOrders.lockTechnician(fields.technicianId);
            // A technician who left stays on the orders they had; only a newly chosen one must be active.
            if (fields.technicianId !== current.technicianId && !technician?.active) throw technicianUnavailable();
          }
          if (fields.technicianId && !allowOverlap) {
            const overlaps = await workOrders.overlappingAppointments(fields.technicianId, fields.serviceDate, startTime, endTime, key);
            if (overlaps.length > 0) throw await overlapRefusal(workOrders, fields.technicianId, overlaps);
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
      return changeAudited(key, actor, 'assigned', async (workOrders, current) => {
        if (values.technicianId && values.technicianId !== current.technicianId) {
          const technician = await workOrders.lockTechnician(values.technicianId);
          if (!technician?.active) throw technicianUnavailable();
          if (!values.allowOverlap && current.scheduledStartTime && current.scheduledEndTime) {
            const overlaps = await workOrders.overlappingAppointments(
              values.technicianId,
              current.serviceDate,
              current.scheduledStartTime,
              current.scheduledEndTime,
              key,
            );
            if (overlaps.length > 0) throw await overlapRefusal(workOrders, values.technicianId, overlaps);
          }
        }
        const row = await workOrders.updateIfCurrent(key, values.expectedUpdatedAt, undefined, { technicianId: values.technicianId });
        if (row) return row;
        throw await refusalIn(workOrders, key, values.expectedUpdatedAt, () => notFound());
      });
    },

    /**
     * Delete (after the spec's confirmation): a work order not yet started, or cancelled. Started and
     * completed ones are job history; they are cancelled or kept, never erased. Its tasks and
     * inspection reports go with it; a lead or chat lead that became it loses the link.
     */
    async remove(id: string, expectedUpdatedAt: string, actor: AuditActor): Promise<void> {
      const key = workOrderId(id);
      await db.transaction(async (transaction) => {
        const tx = transaction as unknown as Database;
        const workOrders = createWorkOrderRepository(tx);
        const before = await workOrders.lockById(key);
        if (!before) throw notFound();
        await workOrders.unlinkLeads(key);
        if (await workOrders.deleteIfCurrent(key, expectedUpdatedAt, deletableStatuses)) {
          await recordWorkOrderChange(tx, actor, 'deleted', before, undefined);
          return;
        }
        throw await refusalIn(workOrders, key, expectedUpdatedAt, () => new AppError('CONFLICT', calendarMessages.onlyUnstartedDeletes));
      });
    },

    async technicians(activeOnly: boolean): Promise<{ technicians: Technician[] }> {
      return { technicians: await repository.activeTechnicians(activeOnly) };
    },
  };
}

const sqlNow = sql`now()`;

/** The date and start time on the company's wall clock, as an instant. */
function sqlLocalTimestamp(date: string, time: string, timeZone: string) {
  return sql`((${date}::date + ${time}::time) at time zone ${timeZone})`;
}

/** The row a new work order is inserted as (also used by the lead conversion). */
export function newWorkOrder(customerId: string, values: WorkOrderValues, timeZone: string): NewWorkOrder {
  // The calendar's 'Create New Appointment' gives the times: the appointment is placed as a drag places it.
  const appointment =
    values.startTime && values.endTime
      ? {
          scheduledDate: sqlLocalTimestamp(values.serviceDate, values.startTime, timeZone),
          scheduledStartTime: values.startTime,
          scheduledEndTime: values.endTime,
          estimatedDuration: durationHours(values.startTime, values.endTime),
        }
      : {};
  return {
    ...appointment,
    customerId,
    title: values.title,
    serviceType: values.serviceType,
    priority: values.priority,
    serviceDate: values.serviceDate,
    timePreference: values.timePreference,
    description: values.description,
    notes: values.notes,
    technicianId: values.technicianId,
  };
}

export type WorkOrderService = ReturnType<typeof createWorkOrderService>;
