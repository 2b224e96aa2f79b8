import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AuditChanges } from '#shared/audit.ts';
import { calendarMessages } from '#shared/calendar.ts';
import type { Customer, CustomerValues } from '#shared/customer.ts';
import { workOrderStatuses, type WorkOrderStatus } from '#shared/enums.ts';
import {
  allowedTransitions,
  scheduleEndTime,
  workOrderMessages,
  workOrderStepLabel,
  type InspectionReport,
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
  type WorkOrderStep,
  type WorkOrderTask,
} from '#shared/work-order.ts';
import { serviceAddressColumns } from '#shared/work-order-place.ts';
import { adminSignatureUrl } from '#shared/tech.ts';
import { withTransaction, type Database, type DbExecutor, type RepositoryFactory } from '#server/db/client.ts';
import { createSnapshotCache } from '#server/db/snapshot-cache.ts';
import { AppError } from '#server/errors.ts';
import { diffFields, hasChanges, recordAudit, type AuditActor } from '#server/modules/audit/index.ts';
import type { TechnicianBookings } from '#server/modules/calendar/index.ts';
import { type CustomerRepository, recordCustomerChange, toCustomer } from '#server/modules/customers/index.ts';
import {
  type InspectionReportRow,
  type NewWorkOrder,
  type TaskRow,
  type WorkOrderRepository,
  type WorkOrderRow,
} from './work-order.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';

type WorkOrderCreateValues = z.output<ReturnType<typeof workOrderCreateSchema>>;
export type WorkOrderValues = Omit<WorkOrderCreateValues, 'customerId'>;
type ScheduleValues = z.output<ReturnType<typeof workOrderScheduleSchema>>;

/** A uuid as PostgreSQL prints it: anything else can never be an id, so it is a 404, not a 500. */

export const workOrderNotFound = () => new AppError('NOT_FOUND', workOrderMessages.notFoundApi);
const notFound = workOrderNotFound;
const equipmentUnavailable = () => new AppError('VALIDATION_FAILED', workOrderMessages.equipmentUnavailable, [
  { path: 'equipmentId', message: workOrderMessages.equipmentUnavailable },
]);
export const technicianUnavailable = () => new AppError('VALIDATION_FAILED', workOrderMessages.technicianUnavailable, [
  { path: 'technicianId', message: workOrderMessages.technicianUnavailable },
]);

/** The id from the address, lower-cased; a 404 when it cannot be one. */
export function workOrderId(id: string): string {
  if (!isUuid(id)) throw notFound();
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
    serviceAddress: row.serviceAddress,
    serviceCity: row.serviceCity,
    serviceState: row.serviceState,
    serviceZip: row.serviceZip,
    possibleCustomerId: row.possibleCustomerId,
    enRouteAt: iso(row.enRouteAt),
    customerConfirmedAt: iso(row.customerConfirmedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}


const toTask = (row: TaskRow): WorkOrderTask => ({ ...row, createdAt: row.createdAt.toISOString() });
const toInspectionReport = (row: InspectionReportRow): InspectionReport => ({ ...row, createdAt: row.createdAt.toISOString() });

/**
 * The timeline's steps from the work order's activity-log entries (oldest first): a step taken in
 * the technician app is at its device time (`takenAt`), any other at when it was recorded.
 */
function toSteps(history: { action: string; actorName: string; occurredAt: Date; changes: Record<string, [unknown, unknown]> }[]): WorkOrderStep[] {
  return history.flatMap((entry) => {
    const label = workOrderStepLabel(entry.action, entry.changes);
    if (label === null) return [];
    const takenAt = entry.changes.takenAt?.[1];
    const at = typeof takenAt === 'string' && !Number.isNaN(Date.parse(takenAt)) ? new Date(takenAt).toISOString() : entry.occurredAt.toISOString();
    return [{ action: entry.action, label, actorName: entry.actorName, at }];
  });
}

export function isForeignKeyViolation(error: unknown): boolean {
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
 * Whether a row is still the version a client saw: updated_at to the millisecond (what JSON
 * carries; the repository's versionMatches is the same rule in SQL). The 409 rule (issue 19 reuses it).
 */
export function isSameVersion(updatedAt: Date, expectedUpdatedAt: string): boolean {
  return updatedAt.getTime() === new Date(expectedUpdatedAt).getTime();
}

/**
 * Why a guarded change changed nothing: the work order is gone (404), someone else changed it
 * first (409 with the current values), or its status does not allow the change.
 */
export async function refusalIn(
  repository: WorkOrderRepository,
  id: string,
  expectedUpdatedAt: string,
  statusRefusal: (current: WorkOrderRow) => AppError,
): Promise<AppError> {
  const current = await repository.findById(id);
  if (!current) return notFound();
  if (!isSameVersion(current.updatedAt, expectedUpdatedAt)) {
    return new AppError('CONFLICT', workOrderMessages.conflict, { current: toWorkOrder(current) });
  }
  return statusRefusal(current);
}

/** Hours between two 'HH:MM' times (the calendar's quarter hours make exact decimals). */
export function durationHours(start: string, end: string): number {
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  return (minutes(end) - minutes(start)) / 60;
}

/**
 * What the activity log leaves out of a work order's changes: its number (never changes), and the
 * stamps and instants that follow from the status and the appointment fields already listed.
 */
const workOrderAuditOmit = [
  'workOrderNumber', 'scheduledDate', 'startedAt', 'completedAt', 'actualStartTime', 'actualEndTime', 'idempotencyKey',
] as const satisfies readonly (keyof WorkOrderRow)[];

/** The work order's entry for a change; an update that changed nothing records nothing. */
export async function recordWorkOrderChange(
  tx: DbExecutor,
  actor: AuditActor,
  action: string,
  before: WorkOrderRow | undefined,
  after: WorkOrderRow | undefined,
  /** Facts recorded with the change that are not a field of it (the technician app's `takenAt`). */
  extra: AuditChanges = {},
): Promise<void> {
  const row = (after ?? before)!;
  const changes = diffFields(before, after, { omit: workOrderAuditOmit });
  if (before && after && !hasChanges(changes)) return;
  await recordAudit(tx, { actor, entityType: 'work_order', entityId: row.id, entityLabel: row.workOrderNumber, action, changes: { ...changes, ...extra } });
}

const deletableStatuses = ['pending', 'scheduled', 'cancelled'] as const satisfies readonly WorkOrderStatus[];

/**
 * One change of an existing work order in a transaction: the row is locked, changed, and the
 * change recorded in the activity log with the fields it changed (also the calendar's moves).
 */
export async function changeWorkOrderAudited(
  db: DbExecutor,
  workOrderRepository: RepositoryFactory<WorkOrderRepository>,
  key: string,
  actor: AuditActor,
  action: string,
  change: (workOrders: WorkOrderRepository, before: WorkOrderRow, tx: DbExecutor) => Promise<WorkOrderRow>,
): Promise<WorkOrder> {
  return withTransaction(db, async (tx) => {
    const workOrders = workOrderRepository(tx);
    const before = await workOrders.lockById(key);
    if (!before) throw notFound();
    const after = await change(workOrders, before, tx);
    await recordWorkOrderChange(tx, actor, action, before, after);
    return toWorkOrder(after);
  });
}

export type WorkOrderServiceDependencies = {
  db: Database;
  timeZone: string;
  workOrderRepository: RepositoryFactory<WorkOrderRepository>;
  customerRepository: RepositoryFactory<CustomerRepository>;
  /** The calendar's double-booking rule (decision 015), for 'Create New Appointment' with times. */
  bookings: TechnicianBookings;
};

export function createWorkOrderService(options: WorkOrderServiceDependencies) {
  const { db, timeZone, workOrderRepository, customerRepository, bookings } = options;
  const repository = workOrderRepository(db);
  /**
   * The list's totals without a search, kept per status and snapshot (decisions 013, 026-a): the
   * page's statement tells its snapshot, so a full page while nothing commits costs no second
   * statement; any commit empties them.
   */
  const listTotals = createSnapshotCache<number>(db, { maxEntries: workOrderStatuses.length + 1 });
  /**
   * A search's answers, kept per snapshot by status, words, page and size (decision 026-b, addendum
   * 3): the statement counts matches and reads the page (3-4 ms of the database's time); while
   * nothing commits the same search (a second screen, the pager back, a refetch on focus) costs one
   * snapshot read. Any commit empties them, so a change is in the very next answer.
   */
  const searchAnswers = createSnapshotCache<WorkOrderListResponse>(db, { maxEntries: 64 });

  /** A page of the list, with or without a search (the repository's one statement, decision 023-a). */
  async function readList(query: z.output<typeof workOrderListQuerySchema>): Promise<WorkOrderListResponse> {
    const { rows, total, totalCapped } = await repository.list(query.status, query.search, query.page, query.pageSize, (snapshot) =>
      listTotals.at(snapshot, query.status, () => repository.listTotal(query.status)),
    );
    const workOrders = rows.map(
      (row): WorkOrderListItem => ({
        ...row,
        status: row.status as WorkOrderStatus,
        priority: row.priority as WorkOrderListItem['priority'],
        serviceType: row.serviceType as WorkOrderListItem['serviceType'],
        // ISO text with microseconds and an offset (the page is JSON): to the millisecond, in UTC, as elsewhere.
        updatedAt: new Date(row.updatedAt).toISOString(),
      }),
    );
    return { workOrders, total, totalCapped, page: query.page, pageSize: query.pageSize };
  }

  async function ensureTechnician(technicianId: string | null, workOrders: WorkOrderRepository = repository): Promise<void> {
    if (technicianId && !(await workOrders.isActiveTechnician(technicianId))) throw technicianUnavailable();
  }

  const changeAudited = (
    key: string,
    actor: AuditActor,
    action: string,
    change: (workOrders: WorkOrderRepository, before: WorkOrderRow) => Promise<WorkOrderRow>,
  ): Promise<WorkOrder> => changeWorkOrderAudited(db, workOrderRepository, key, actor, action, change);

  return {
    async list(query: z.output<typeof workOrderListQuerySchema>): Promise<WorkOrderListResponse> {
      if (!query.search) return readList(query);
      return searchAnswers.get(JSON.stringify([query.status, query.search, query.page, query.pageSize]), () => readList(query));
    },

    /**
     * A new work order. With an appointment (the calendar's 'Create New Appointment') and a
     * technician, the technician is locked and checked for a double booking first, as a drag is.
     */
    async create(values: WorkOrderCreateValues, actor: AuditActor): Promise<WorkOrder> {
      const { technicianId, startTime, endTime } = values;
      try {
        return await withTransaction(db, async (tx) => {
          const workOrders = workOrderRepository(tx);
          if (!technicianId || !startTime || !endTime) {
            await ensureTechnician(technicianId, workOrders);
          } else {
            const technician = await bookings.lock(tx, technicianId);
            if (!technician?.active) throw technicianUnavailable();
            if (!values.allowOverlap) await bookings.ensureFree(tx, { technicianId, serviceDate: values.serviceDate, startTime, endTime });
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
        return await withTransaction(db, async (tx) => {
          const customerRow = await customerRepository(tx).insert(customer);
          const workOrders = workOrderRepository(tx);
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
        possibleMatch: found.possibleMatch,
        timeline: {
          createdAt: workOrder.createdAt,
          scheduledAt: workOrder.scheduledDate,
          startedAt: workOrder.startedAt,
          completedAt: workOrder.completedAt,
        },
        completion: found.completion
          ? {
              summary: found.completion.summary,
              materials: found.completion.materials,
              signerName: found.completion.signerName,
              signatureUrl: found.completion.signatureKey ? adminSignatureUrl(workOrder.id) : null,
              timeOnSiteMinutes: found.completion.timeOnSiteMinutes,
              followUpNote: found.completion.followUpNote,
              completedByName: found.completion.completedByName,
              completedAt: found.completion.completedAt.toISOString(),
            }
          : null,
        techNotes: found.techNotes.map((note) => ({ id: note.id, text: note.text, authorName: note.authorName, createdAt: note.createdAt.toISOString() })),
        steps: toSteps(found.history),
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
        // The service address: all four columns set or cleared together, or left as they are when not sent.
        const { serviceAddress, serviceCity, serviceState, serviceZip, ...rest } = fields;
        const place = serviceAddressColumns({ serviceAddress, serviceCity, serviceState, serviceZip });
        const row = await workOrders.updateIfCurrent(key, expectedUpdatedAt, undefined, { ...rest, ...place });
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
      return withTransaction(db, async (tx) => {
        const workOrders = workOrderRepository(tx);
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
      if (!isUuid(taskId)) throw new AppError('NOT_FOUND', workOrderMessages.taskNotFound);
      return withTransaction(db, async (tx) => {
        const workOrders = workOrderRepository(tx);
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
      return withTransaction(db, async (tx) => {
        const workOrders = workOrderRepository(tx);
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

    /**
     * Delete (after the spec's confirmation): a work order not yet started, or cancelled. Started and
     * completed ones are job history; they are cancelled or kept, never erased. Its tasks and
     * inspection reports go with it; a lead or chat lead that became it loses the link.
     */
    async remove(id: string, expectedUpdatedAt: string, actor: AuditActor): Promise<void> {
      const key = workOrderId(id);
      await withTransaction(db, async (tx) => {
        const workOrders = workOrderRepository(tx);
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

  };
}

export const sqlNow = sql`now()`;

/** The date and start time on the company's wall clock, as an instant. */
export function sqlLocalTimestamp(date: string, time: string, timeZone: string) {
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
    ...serviceAddressColumns(values),
  };
}

export type WorkOrderService = ReturnType<typeof createWorkOrderService>;
