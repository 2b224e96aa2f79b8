import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Customer, CustomerValues } from '#shared/customer.ts';
import { workOrderStatuses, type WorkOrderStatus } from '#shared/enums.ts';
import {
  allowedTransitions,
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
  type WorkOrderTask,
} from '#shared/work-order.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { createCustomerRepository } from '#server/modules/customers/customer.repository.ts';
import { toCustomer } from '#server/modules/customers/customer.service.ts';
import {
  createWorkOrderRepository,
  type InspectionReportRow,
  type NewWorkOrder,
  type TaskRow,
  type WorkOrderRow,
} from './work-order.repository.ts';

type WorkOrderCreateValues = z.output<ReturnType<typeof workOrderCreateSchema>>;
export type WorkOrderValues = Omit<WorkOrderCreateValues, 'customerId'>;
type ScheduleValues = z.output<ReturnType<typeof workOrderScheduleSchema>>;

/** A uuid as PostgreSQL prints it: anything else can never be an id, so it is a 404, not a 500. */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const notFound = () => new AppError('NOT_FOUND', workOrderMessages.notFoundApi);
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

export function createWorkOrderService(options: { db: Database; timeZone: string }) {
  const { db, timeZone } = options;
  const repository = createWorkOrderRepository(db);

  /**
   * Why a guarded update changed nothing: the work order is gone (404), someone else changed it
   * first (409 with the current values), or its status does not allow the change (409).
   */
  async function refusal(id: string, expectedUpdatedAt: string, statusRefusal: (current: WorkOrderRow) => AppError): Promise<AppError> {
    const current = await repository.findById(id);
    if (!current) return notFound();
    if (current.updatedAt.getTime() !== new Date(expectedUpdatedAt).getTime()) {
      return new AppError('CONFLICT', workOrderMessages.conflict, { current: toWorkOrder(current) });
    }
    return statusRefusal(current);
  }

  async function ensureTechnician(technicianId: string | null): Promise<void> {
    if (technicianId && !(await repository.isActiveTechnician(technicianId))) throw technicianUnavailable();
  }

  return {
    async list(query: z.output<typeof workOrderListQuerySchema>): Promise<WorkOrderListResponse> {
      const { rows, total } = await repository.list(query.status, query.search, query.page, query.pageSize);
      const workOrders = rows.map(
        (row): WorkOrderListItem => ({
          ...row,
          status: row.status as WorkOrderStatus,
          priority: row.priority as WorkOrderListItem['priority'],
          serviceType: row.serviceType as WorkOrderListItem['serviceType'],
          updatedAt: row.updatedAt.toISOString(),
        }),
      );
      return { workOrders, total, page: query.page, pageSize: query.pageSize };
    },

    async create(values: WorkOrderCreateValues): Promise<WorkOrder> {
      await ensureTechnician(values.technicianId);
      try {
        return toWorkOrder(await repository.insert(newWorkOrder(values.customerId, values)));
      } catch (error) {
        if (isForeignKeyViolation(error)) {
          throw new AppError('VALIDATION_FAILED', workOrderMessages.selectCustomer, [{ path: 'customerId', message: workOrderMessages.selectCustomer }]);
        }
        throw error;
      }
    },

    /** The customer and the work order in one transaction: a refused work order leaves no customer behind. */
    async createWithCustomer(customer: CustomerValues, values: WorkOrderValues): Promise<{ workOrder: WorkOrder; customer: Customer }> {
      try {
        return await db.transaction(async (transaction) => {
          const tx = transaction as unknown as Database;
          const customerRow = await createCustomerRepository(tx).insert(customer);
          const workOrders = createWorkOrderRepository(tx);
          if (values.technicianId && !(await workOrders.isActiveTechnician(values.technicianId))) throw technicianUnavailable();
          const row = await workOrders.insert(newWorkOrder(customerRow.id, values));
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

    async changeStatus(id: string, status: WorkOrderStatus, expectedUpdatedAt: string): Promise<WorkOrder> {
      const key = workOrderId(id);
      const stamps =
        status === 'in-progress'
          ? { startedAt: sqlNow, actualStartTime: sqlNow }
          : status === 'completed'
            ? { completedAt: sqlNow, actualEndTime: sqlNow }
            : {};
      const row = await repository.updateIfCurrent(key, expectedUpdatedAt, statusesAllowedTo(status), { status, ...stamps });
      if (row) return toWorkOrder(row);
      throw await refusal(key, expectedUpdatedAt, (current) =>
        new AppError('CONFLICT', workOrderMessages.transitionRefused(current.status as WorkOrderStatus, status)),
      );
    },

    async updateNotes(id: string, notes: string, expectedUpdatedAt: string): Promise<WorkOrder> {
      const key = workOrderId(id);
      const row = await repository.updateIfCurrent(key, expectedUpdatedAt, undefined, { notes: notes.trim() === '' ? null : notes });
      if (row) return toWorkOrder(row);
      throw await refusal(key, expectedUpdatedAt, () => notFound());
    },

    async schedule(id: string, values: ScheduleValues): Promise<WorkOrder> {
      const key = workOrderId(id);
      await ensureTechnician(values.technicianId);
      const row = await repository.updateIfCurrent(key, values.expectedUpdatedAt, schedulableStatuses, {
        status: 'scheduled',
        serviceDate: values.date,
        scheduledDate: sqlLocalTimestamp(values.date, values.startTime, timeZone),
        scheduledStartTime: values.startTime,
        scheduledEndTime: scheduleEndTime(values.startTime, values.durationHours),
        estimatedDuration: values.durationHours,
        technicianId: values.technicianId,
        specialInstructions: values.specialInstructions,
      });
      if (row) return toWorkOrder(row);
      throw await refusal(key, values.expectedUpdatedAt, () => new AppError('CONFLICT', workOrderMessages.scheduleOnlyOpen));
    },

    async addTask(id: string, values: z.output<typeof workOrderTaskCreateSchema>): Promise<WorkOrderTask> {
      const key = workOrderId(id);
      try {
        return toTask(await repository.insertTask({ workOrderId: key, ...values }));
      } catch (error) {
        if (isForeignKeyViolation(error)) throw notFound();
        throw error;
      }
    },

    async updateTask(id: string, taskId: string, values: z.output<typeof workOrderTaskUpdateSchema>): Promise<WorkOrderTask> {
      const key = workOrderId(id);
      if (!uuidPattern.test(taskId)) throw new AppError('NOT_FOUND', workOrderMessages.taskNotFound);
      const row = await repository.updateTask(key, taskId.toLowerCase(), values);
      if (!row) throw new AppError('NOT_FOUND', workOrderMessages.taskNotFound);
      return toTask(row);
    },

    async addInspectionReport(id: string, values: z.output<typeof inspectionReportSchema>): Promise<InspectionReport> {
      const key = workOrderId(id);
      try {
        return toInspectionReport(await repository.insertInspectionReport({ workOrderId: key, ...values }));
      } catch (error) {
        if (isForeignKeyViolation(error)) throw notFound();
        throw error;
      }
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
export function newWorkOrder(customerId: string, values: WorkOrderValues): NewWorkOrder {
  return {
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
