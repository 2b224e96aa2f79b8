import type { FastifyInstance } from 'fastify';
import { geocodingBatchRequestSchema } from '#shared/geocoding.ts';
import { parseOrThrow } from '#server/validation.ts';
import type { GeocodingService } from './geocoding.service.ts';

type Options = { geocoding: GeocodingService };
type IdParams = { Params: { id: string } };

/** Staff only: every /api/admin path passes the session guard (plugins/session.ts) before routing. */
export async function geocodingRoutes(app: FastifyInstance, { geocoding }: Options): Promise<void> {
  app.get('/api/admin/geocoding/stats', async () => geocoding.stats());

  /** 202 with the running batch; 200 with a completed one when nothing needs geocoding; 409 when one is running. */
  app.post('/api/admin/geocoding/batches', async (request, reply) => {
    const { batch, started } = await geocoding.start(parseOrThrow(geocodingBatchRequestSchema, request.body ?? {}));
    return reply.status(started ? 202 : 200).send(batch);
  });

  /** The latest batch (running, interrupted or finished), or null when none ever ran. */
  app.get('/api/admin/geocoding/batches/current', async (_request, reply) => {
    const batch = await geocoding.current();
    return batch ? reply.send(batch) : reply.type('application/json').send('null');
  });

  app.get<IdParams>('/api/admin/geocoding/batches/:id', async (request) => geocoding.get(request.params.id));

  app.post<IdParams>('/api/admin/geocoding/batches/:id/resume', async (request, reply) =>
    reply.status(202).send(await geocoding.resume(request.params.id)),
  );

  app.put<IdParams>('/api/admin/customers/:id/location', async (request) => geocoding.placePin(request.params.id, request.body));
}
