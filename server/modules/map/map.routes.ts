import type { FastifyInstance } from 'fastify';
import { mapCustomerFiltersSchema, mapPropertyQuerySchema, mapWorkOrderFiltersSchema } from '#shared/map.ts';
import { parseOrThrow } from '#server/validation.ts';
import { sendCompressedJson } from './compressed-answer.ts';
import type { MapService } from './map.service.ts';

type Options = { map: MapService };

/**
 * The service map's data (spec 001 section 2; decision 016-c). Staff only: every /api/admin path
 * passes the session guard (plugins/session.ts) before routing. The two views' answers are JSON
 * built by the database and kept per snapshot, sent as they are (gzipped when the client accepts).
 */
export async function mapRoutes(app: FastifyInstance, { map }: Options): Promise<void> {
  app.get('/api/admin/map/config', async () => map.config());

  app.get('/api/admin/map/properties', async (request, reply) =>
    sendCompressedJson(request, reply, await map.properties(parseOrThrow(mapWorkOrderFiltersSchema, request.query))),
  );

  app.get('/api/admin/map/customers', async (request, reply) =>
    sendCompressedJson(request, reply, await map.customers(parseOrThrow(mapCustomerFiltersSchema, request.query))),
  );

  app.get('/api/admin/map/property', async (request) => map.property(parseOrThrow(mapPropertyQuerySchema, request.query)));

  app.get<{ Params: { id: string } }>('/api/admin/map/customers/:id', async (request) => map.customer(request.params.id));
}
