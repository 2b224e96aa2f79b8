import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#shared/api.ts';
import { customerResponseSchema } from '#shared/customer.ts';
import { geocodingBatchRequestSchema, geocodingBatchSchema, geocodingStatsSchema, manualLocationFieldsSchema } from '#shared/geocoding.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import type { GeocodingService } from './geocoding.service.ts';

type Options = { geocoding: GeocodingService };

/** Staff only: every /api/admin path passes the session guard (plugins/session.ts) before routing. */
export async function geocodingRoutes(app: FastifyInstance, { geocoding }: Options): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/admin/geocoding/stats', { schema: { response: { 200: geocodingStatsSchema } } }, async () => geocoding.stats());

  /** 202 with the running batch; 200 with a completed one when nothing needs geocoding; 409 when one is running. */
  routes.post(
    '/api/admin/geocoding/batches',
    // No body (or null) is the same as {}: the defaults.
    { schema: { body: geocodingBatchRequestSchema.nullish(), response: { 200: geocodingBatchSchema, 202: geocodingBatchSchema } } },
    async (request, reply) => {
      const { batch, started } = await geocoding.start(request.body ?? {});
      return reply.status(started ? 202 : 200).send(batch);
    },
  );

  /** The latest batch (running, interrupted or finished), or null when none ever ran. */
  app.get('/api/admin/geocoding/batches/current', { schema: { response: { 200: geocodingBatchSchema.nullable() } } }, async (_request, reply) => {
    const batch = await geocoding.current();
    return batch ? reply.send(batch) : reply.type('application/json').send('null');
  });

  routes.get('/api/admin/geocoding/batches/:id', { schema: { params: idParamsSchema, response: { 200: geocodingBatchSchema } } }, async (request) =>
    geocoding.get(request.params.id),
  );

  routes.post(
    '/api/admin/geocoding/batches/:id/resume',
    { schema: { params: idParamsSchema, response: { 202: geocodingBatchSchema } } },
    async (request, reply) => reply.status(202).send(await geocoding.resume(request.params.id)),
  );

  // The fields' types here; the South Carolina rule in the service, with its own top-level message.
  routes.put(
    '/api/admin/customers/:id/location',
    { schema: { params: idParamsSchema, body: manualLocationFieldsSchema, response: { 200: customerResponseSchema } } },
    async (request) => geocoding.placePin(request.params.id, request.body, actorOf(request)),
  );
}

