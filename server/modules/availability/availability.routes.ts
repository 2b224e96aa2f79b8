import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema, noContentSchema } from '#shared/api.ts';
import {
  bookingSettingsPageSchema,
  openWindowsQuerySchema,
  openWindowsResponseSchema,
  bookingSettingsSchema,
  technicianAvailabilitySchema,
  technicianBookingResponseSchema,
  timeOffBodySchema,
  timeOffResponseSchema,
} from '#shared/booking.ts';
import { sendNoContent } from '#server/lib/no-content.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import type { AvailabilityService } from './availability.service.ts';

const savedSettingsSchema = bookingSettingsPageSchema.pick({ settings: true, updatedAt: true });

/** Settings -> Online booking (issue 21, decision 026-c): admins only, as everything under /api/admin/settings. */
export async function availabilityRoutes(app: FastifyInstance, { availability }: { availability: AvailabilityService }): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/admin/settings/booking', { schema: { response: { 200: bookingSettingsPageSchema } } }, async () => availability.readPage());

  routes.put(
    '/api/admin/settings/booking',
    { schema: { body: bookingSettingsSchema, response: { 200: savedSettingsSchema } } },
    async (request) => availability.saveSettings(request.body, actorOf(request)),
  );

  routes.put(
    '/api/admin/settings/booking/technicians/:id',
    { schema: { params: idParamsSchema, body: technicianAvailabilitySchema, response: { 200: technicianBookingResponseSchema } } },
    async (request) => ({ technician: await availability.saveTechnician(request.params.id, request.body, actorOf(request)) }),
  );

  routes.post(
    '/api/admin/settings/booking/technicians/:id/time-off',
    { schema: { params: idParamsSchema, body: timeOffBodySchema, response: { 201: timeOffResponseSchema } } },
    async (request, reply) => reply.status(201).send({ timeOff: await availability.addTimeOff(request.params.id, request.body, actorOf(request)) }),
  );

  routes.delete(
    '/api/admin/settings/booking/time-off/:id',
    { schema: { params: idParamsSchema, response: { 204: noContentSchema } } },
    async (request, reply) => {
      await availability.removeTimeOff(request.params.id, actorOf(request));
      return sendNoContent(reply);
    },
  );
}

/**
 * The open arrival windows for the booking page and the chat (issue 21): no session; limited per
 * client address; the answer names no technician and no other visit, and is never cached.
 */
export async function availabilityPublicRoutes(app: FastifyInstance, options: { availability: AvailabilityService; limitPerMinute: number }): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/public/booking/windows',
    { config: { rateLimit: { max: options.limitPerMinute, timeWindow: '1 minute' } }, schema: { querystring: openWindowsQuerySchema, response: { 200: openWindowsResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return options.availability.openWindows(request.query);
    },
  );
}
