import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { calendarAppointmentUpdateSchema, calendarAssignSchema, calendarRangeSchema, calendarRescheduleSchema } from '#shared/calendar.ts';
import { todayIn } from '#shared/dates.ts';
import {
  inspectionReportSchema,
  workOrderCreateRequestSchema,
  workOrderCreateWithCustomerSchema,
  workOrderListQuerySchema,
  workOrderNotesSchema,
  workOrderScheduleSchema,
  workOrderStatusChangeSchema,
  workOrderTaskCreateSchema,
  workOrderTaskUpdateSchema,
  workOrderUpdateSchema,
} from '#shared/work-order.ts';
import { actorOf } from '#server/modules/audit/audit.service.ts';
import { parseOrThrow } from '#server/validation.ts';
import type { WorkOrderService } from './work-order.service.ts';

type Options = { workOrders: WorkOrderService; timeZone: string };
type WorkOrderParams = { Params: { id: string } };
type TaskParams = { Params: { id: string; taskId: string } };

const technicianQuerySchema = z.object({ active: z.enum(['true', 'false']).optional() });
const deleteQuerySchema = z.object({ expectedUpdatedAt: z.iso.datetime({ offset: true }) });

/** Staff only: every /api/admin path passes the session guard (plugins/session.ts) before routing. */
export async function workOrderRoutes(app: FastifyInstance, { workOrders, timeZone }: Options): Promise<void> {
  app.get('/api/admin/work-orders', async (request) => workOrders.list(parseOrThrow(workOrderListQuerySchema, request.query)));

  app.post('/api/admin/work-orders', async (request, reply) => {
    const today = todayIn(timeZone);
    const body = request.body as { customer?: unknown } | undefined;
    // The inline form sends the new customer as an object; otherwise an existing customer's id.
    if (body && typeof body === 'object' && body.customer !== undefined && body.customer !== null) {
      const { customer, ...values } = parseOrThrow(workOrderCreateWithCustomerSchema(today), body);
      const created = await workOrders.createWithCustomer(customer, values, actorOf(request));
      return reply.status(201).send(created);
    }
    const workOrder = await workOrders.create(parseOrThrow(workOrderCreateRequestSchema(today), body), actorOf(request));
    return reply.status(201).send({ workOrder });
  });

  app.get<WorkOrderParams>('/api/admin/work-orders/:id', async (request) => workOrders.detail(request.params.id));

  app.put<WorkOrderParams>('/api/admin/work-orders/:id', async (request) => ({
    workOrder: await workOrders.update(request.params.id, parseOrThrow(workOrderUpdateSchema, request.body), actorOf(request)),
  }));

  app.delete<WorkOrderParams>('/api/admin/work-orders/:id', async (request, reply) => {
    await workOrders.remove(request.params.id, parseOrThrow(deleteQuerySchema, request.query).expectedUpdatedAt, actorOf(request));
    return reply.status(204).send();
  });

  // The service calendar (spec 001): the visible range, drags and resizes, technician buttons.
  app.get('/api/admin/calendar/events', async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(await workOrders.calendarRange(parseOrThrow(calendarRangeSchema, request.query))),
  );

  app.post<WorkOrderParams>('/api/admin/work-orders/:id/reschedule', async (request) => ({
    workOrder: await workOrders.reschedule(request.params.id, parseOrThrow(calendarRescheduleSchema, request.body), actorOf(request)),
  }));

  app.put<WorkOrderParams>('/api/admin/work-orders/:id/appointment', async (request) => ({
    workOrder: await workOrders.updateAppointment(request.params.id, parseOrThrow(calendarAppointmentUpdateSchema, request.body), actorOf(request)),
  }));

  app.post<WorkOrderParams>('/api/admin/work-orders/:id/assign', async (request) => ({
    workOrder: await workOrders.assignTechnician(request.params.id, parseOrThrow(calendarAssignSchema, request.body), actorOf(request)),
  }));

  app.post<WorkOrderParams>('/api/admin/work-orders/:id/status', async (request) => {
    const { status, expectedUpdatedAt } = parseOrThrow(workOrderStatusChangeSchema, request.body);
    return { workOrder: await workOrders.changeStatus(request.params.id, status, expectedUpdatedAt, actorOf(request)) };
  });

  app.put<WorkOrderParams>('/api/admin/work-orders/:id/notes', async (request) => {
    const { notes, expectedUpdatedAt } = parseOrThrow(workOrderNotesSchema, request.body);
    return { workOrder: await workOrders.updateNotes(request.params.id, notes, expectedUpdatedAt, actorOf(request)) };
  });

  app.post<WorkOrderParams>('/api/admin/work-orders/:id/schedule', async (request) => ({
    workOrder: await workOrders.schedule(request.params.id, parseOrThrow(workOrderScheduleSchema(todayIn(timeZone)), request.body), actorOf(request)),
  }));

  app.post<WorkOrderParams>('/api/admin/work-orders/:id/tasks', async (request, reply) => {
    const task = await workOrders.addTask(request.params.id, parseOrThrow(workOrderTaskCreateSchema, request.body), actorOf(request));
    return reply.status(201).send({ task });
  });

  app.patch<TaskParams>('/api/admin/work-orders/:id/tasks/:taskId', async (request) => ({
    task: await workOrders.updateTask(request.params.id, request.params.taskId, parseOrThrow(workOrderTaskUpdateSchema, request.body), actorOf(request)),
  }));

  app.post<WorkOrderParams>('/api/admin/work-orders/:id/inspection-reports', async (request, reply) => {
    const inspectionReport = await workOrders.addInspectionReport(request.params.id, parseOrThrow(inspectionReportSchema, request.body), actorOf(request));
    return reply.status(201).send({ inspectionReport });
  });

  app.get('/api/admin/technicians', async (request) =>
    workOrders.technicians(parseOrThrow(technicianQuerySchema, request.query).active === 'true'),
  );
}

