import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#shared/api.ts';
import {
  bookingConflictResponseSchema,
  calendarAppointmentUpdateSchema,
  calendarAssignSchema,
  calendarRangeResponseSchema,
  calendarRangeSchema,
  calendarRescheduleSchema,
} from '#shared/calendar.ts';
import { workOrderResponseSchema } from '#shared/work-order.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import type { CalendarService } from './calendar.service.ts';

/**
 * The service calendar (spec 001): the visible range, drags and resizes, 'Edit Appointment' and the
 * technician buttons. The changes keep their work-order URLs. Staff only: every /api/admin path
 * passes the session guard (plugins/session.ts) before routing.
 */
export async function calendarRoutes(app: FastifyInstance, { calendar }: { calendar: CalendarService }): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // The range's answer is JSON text kept per database snapshot: its response schema documents it,
  // and the text, sent with a JSON media type, skips serialisation (as the map's lists do).
  routes.get(
    '/api/admin/calendar/events',
    { schema: { querystring: calendarRangeSchema, response: { 200: calendarRangeResponseSchema } } },
    async (request, reply) => sendJsonText(reply, await calendar.range(request.query)),
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

/** JSON already serialised: sent as it is, with its media type (Fastify does not serialise it again). */
function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}
