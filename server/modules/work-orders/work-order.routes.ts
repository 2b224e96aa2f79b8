import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { todayIn } from '#shared/dates.ts';
import { idParamsSchema, noContentSchema } from '#shared/api.ts';
import { bookingConflictResponseSchema } from '#shared/calendar.ts';
import {
  inspectionReportResponseSchema,
  inspectionReportSchema,
  workOrderCreateBodySchema,
  workOrderCreateBodySchemaFor,
  workOrderCreateResponseSchema,
  workOrderDeleteQuerySchema,
  workOrderDetailResponseSchema,
  workOrderListQuerySchema,
  workOrderListResponseSchema,
  workOrderNotesSchema,
  workOrderResponseSchema,
  workOrderScheduleSchema,
  workOrderStatusChangeSchema,
  workOrderTaskCreateSchema,
  workOrderTaskParamsSchema,
  workOrderTaskResponseSchema,
  workOrderTaskUpdateSchema,
  workOrderUpdateSchema,
} from '#shared/work-order.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import { sendNoContent } from '#server/lib/no-content.ts';
import { validateBodyForToday } from '#server/validation.ts';
import type { WorkOrderService } from './work-order.service.ts';

type Options = { workOrders: WorkOrderService; timeZone: string };

/**
 * Staff only: every /api/admin path passes the session guard (plugins/session.ts) before routing.
 * The calendar's changes of a work order (reschedule, appointment, assign) are in modules/calendar.
 * Bodies that depend on today's date (create, schedule) document the schema of the start-up day and
 * are validated with the day's schema (validateBodyForToday; decision 019-i).
 */
export async function workOrderRoutes(app: FastifyInstance, { workOrders, timeZone }: Options): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const today = () => todayIn(timeZone);

  routes.get(
    '/api/admin/work-orders',
    { schema: { querystring: workOrderListQuerySchema, response: { 200: workOrderListResponseSchema } } },
    async (request) => workOrders.list(request.query),
  );

  routes.post(
    '/api/admin/work-orders',
    {
      // 409: a technician's double booking ('Create New Appointment' with times), until confirmed with allowOverlap.
      schema: { body: workOrderCreateBodySchema(today()), response: { 201: workOrderCreateResponseSchema, 409: bookingConflictResponseSchema } },
      validatorCompiler: validateBodyForToday(workOrderCreateBodySchemaFor, today),
    },
    async (request, reply) => {
      // The inline form sends the new customer as an object; otherwise an existing customer's id.
      if ('customer' in request.body) {
        const { customer, ...values } = request.body;
        return reply.status(201).send(await workOrders.createWithCustomer(customer, values, actorOf(request)));
      }
      return reply.status(201).send({ workOrder: await workOrders.create(request.body, actorOf(request)) });
    },
  );

  routes.get(
    '/api/admin/work-orders/:id',
    { schema: { params: idParamsSchema, response: { 200: workOrderDetailResponseSchema } } },
    async (request) => workOrders.detail(request.params.id),
  );

  routes.put(
    '/api/admin/work-orders/:id',
    { schema: { params: idParamsSchema, body: workOrderUpdateSchema, response: { 200: workOrderResponseSchema } } },
    async (request) => ({ workOrder: await workOrders.update(request.params.id, request.body, actorOf(request)) }),
  );

  routes.delete(
    '/api/admin/work-orders/:id',
    { schema: { params: idParamsSchema, querystring: workOrderDeleteQuerySchema, response: { 204: noContentSchema } } },
    async (request, reply) => {
      await workOrders.remove(request.params.id, request.query.expectedUpdatedAt, actorOf(request));
      return sendNoContent(reply);
    },
  );

  routes.post(
    '/api/admin/work-orders/:id/status',
    { schema: { params: idParamsSchema, body: workOrderStatusChangeSchema, response: { 200: workOrderResponseSchema } } },
    async (request) => {
      const { status, expectedUpdatedAt } = request.body;
      return { workOrder: await workOrders.changeStatus(request.params.id, status, expectedUpdatedAt, actorOf(request)) };
    },
  );

  routes.put(
    '/api/admin/work-orders/:id/notes',
    { schema: { params: idParamsSchema, body: workOrderNotesSchema, response: { 200: workOrderResponseSchema } } },
    async (request) => {
      const { notes, expectedUpdatedAt } = request.body;
      return { workOrder: await workOrders.updateNotes(request.params.id, notes, expectedUpdatedAt, actorOf(request)) };
    },
  );

  routes.post(
    '/api/admin/work-orders/:id/schedule',
    {
      schema: { params: idParamsSchema, body: workOrderScheduleSchema(today()), response: { 200: workOrderResponseSchema } },
      validatorCompiler: validateBodyForToday(workOrderScheduleSchema, today),
    },
    async (request) => ({ workOrder: await workOrders.schedule(request.params.id, request.body, actorOf(request)) }),
  );

  routes.post(
    '/api/admin/work-orders/:id/tasks',
    { schema: { params: idParamsSchema, body: workOrderTaskCreateSchema, response: { 201: workOrderTaskResponseSchema } } },
    async (request, reply) => {
      const task = await workOrders.addTask(request.params.id, request.body, actorOf(request));
      return reply.status(201).send({ task });
    },
  );

  routes.patch(
    '/api/admin/work-orders/:id/tasks/:taskId',
    { schema: { params: workOrderTaskParamsSchema, body: workOrderTaskUpdateSchema, response: { 200: workOrderTaskResponseSchema } } },
    async (request) => ({ task: await workOrders.updateTask(request.params.id, request.params.taskId, request.body, actorOf(request)) }),
  );

  routes.post(
    '/api/admin/work-orders/:id/inspection-reports',
    { schema: { params: idParamsSchema, body: inspectionReportSchema, response: { 201: inspectionReportResponseSchema } } },
    async (request, reply) => {
      const inspectionReport = await workOrders.addInspectionReport(request.params.id, request.body, actorOf(request));
      return reply.status(201).send({ inspectionReport });
    },
  );
}
