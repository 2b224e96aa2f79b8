import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#shared/api.ts';
import {
  bookingConflictResponseSchema,
  calendarAppointmentUpdateSchema,
  calendarAssignSchema,
  calendarEventResponseSchema,
  calendarRangeResponseSchema,
  calendarRangeSchema,
  calendarRescheduleSchema,
} from '#shared/calendar.ts';
import { workOrderResponseSchema } from '#shared/work-order.ts';
import { sendCompressedJson } from '#server/lib/compressed-json.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import type { CalendarService } from './calendar.service.ts';

/**
 * The service calendar (spec 001): the visible range, drags and resizes, 'Edit Appointment' and the
 * technician buttons. The changes keep their work-order URLs. Staff only: every /api/admin path
 * passes the session guard (plugins/session.ts) before routing.
 */
export async function calendarRoutes(app: FastifyInstance, { calendar }: { calendar: CalendarService }): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // The range's answer is JSON kept per database snapshot, as bytes and a gzip copy: its response
  // schema documents it, and the bytes skip serialisation (as the map's lists do).
  routes.get(
    '/api/admin/calendar/events',
    { schema: { querystring: calendarRangeSchema, response: { 200: calendarRangeResponseSchema } } },
    async (request, reply) => sendCompressedJson(request, reply, await calendar.range(request.query)),
  );

  routes.get(
    '/api/admin/calendar/events/:id',
    { schema: { params: idParamsSchema, response: { 200: calendarEventResponseSchema } } },
    async (request) => ({ event: await calendar.event(request.params.id) }),
  );

  routes.post(
    '/api/admin/work-orders/:id/reschedule',
    { schema: { params: idParamsSchema, body: calendarRescheduleSchema, response: { 200: workOrderResponseSchema, 409: bookingConflictResponseSchema } } },
    async (request) => ({ workOrder: await calendar.reschedule(request.params.id, request.body, actorOf(request)) }),
  );

  routes.put(
    '/api/admin/work-orders/:id/appointment',
    { schema: { params: idParamsSchema, body: calendarAppointmentUpdateSchema, response: { 200: workOrderResponseSchema, 409: bookingConflictResponseSchema } } },
    async (request) => ({ workOrder: await calendar.updateAppointment(request.params.id, request.body, actorOf(request)) }),
  );

  routes.post(
    '/api/admin/work-orders/:id/assign',
    { schema: { params: idParamsSchema, body: calendarAssignSchema, response: { 200: workOrderResponseSchema, 409: bookingConflictResponseSchema } } },
    async (request) => ({ workOrder: await calendar.assignTechnician(request.params.id, request.body, actorOf(request)) }),
  );
}
