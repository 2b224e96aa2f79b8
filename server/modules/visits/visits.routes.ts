import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { openWindowsResponseSchema } from '#shared/booking.ts';
import { visitPageSchema, visitRescheduleSchema, visitTokenParamsSchema } from '#shared/visit.ts';
import { markPrivate } from '#server/modules/invoices/index.ts';
import type { VisitService } from './visits.service.ts';

/**
 * A customer's visit from its link (issue 21): no session; the token in the address is the only
 * key, and every bad one gets the same 404. Limited per client address; never cached.
 */
export async function visitRoutes(app: FastifyInstance, options: { visits: VisitService; limitPerMinute: number }): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const config = { rateLimit: { max: options.limitPerMinute, timeWindow: '1 minute' } };
  // The token is in the address: no-referrer, noindex, no-store, like the quote and invoice links.
  routes.addHook('onSend', async (_request, reply) => {
    markPrivate(reply);
  });

  routes.get('/api/public/visits/:token', { config, schema: { params: visitTokenParamsSchema, response: { 200: visitPageSchema } } }, async (request) =>
    options.visits.read(request.params.token),
  );

  routes.get('/api/public/visits/:token/windows', { config, schema: { params: visitTokenParamsSchema, response: { 200: openWindowsResponseSchema } } }, async (request) =>
    options.visits.windows(request.params.token),
  );

  routes.post(
    '/api/public/visits/:token/reschedule',
    { config, bodyLimit: 1024, schema: { params: visitTokenParamsSchema, body: visitRescheduleSchema, response: { 200: visitPageSchema } } },
    async (request) => options.visits.reschedule(request.params.token, request.body),
  );

  routes.post('/api/public/visits/:token/cancel', { config, bodyLimit: 1024, schema: { params: visitTokenParamsSchema, response: { 200: visitPageSchema } } }, async (request) =>
    options.visits.cancel(request.params.token),
  );
}
