import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#shared/api.ts';
import {
  mapConfigSchema,
  mapCustomerDetailsSchema,
  mapCustomersQuerySchema,
  mapCustomersResponseSchema,
  mapPropertiesResponseSchema,
  mapPropertyDetailsSchema,
  mapPropertiesQuerySchema,
  mapPropertyQuerySchema,
} from '#shared/map.ts';
import { sendCompressedJson } from '#server/lib/compressed-json.ts';
import type { MapService } from './map.service.ts';

type Options = { map: MapService };

/**
 * The service map's data (spec 001 section 2; decision 016-c). Staff only: every /api/admin path
 * passes the session guard (plugins/session.ts) before routing. The two views' answers are JSON
 * built by the database and kept per snapshot, sent as they are (gzipped when the client accepts):
 * their response schemas document them, the bytes skip serialisation. Each asks for a box and a
 * zoom (bbox, zoom) and gets the clusters and single markers there (decision 023-c).
 */
export async function mapRoutes(app: FastifyInstance, { map }: Options): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/admin/map/config', { schema: { response: { 200: mapConfigSchema } } }, async () => map.config());

  routes.get(
    '/api/admin/map/properties',
    { schema: { querystring: mapPropertiesQuerySchema, response: { 200: mapPropertiesResponseSchema } } },
    async (request, reply) => {
      const { bbox, zoom, ...filters } = request.query;
      return sendCompressedJson(request, reply, await map.properties(filters, { bbox, zoom }));
    },
  );

  routes.get(
    '/api/admin/map/customers',
    { schema: { querystring: mapCustomersQuerySchema, response: { 200: mapCustomersResponseSchema } } },
    async (request, reply) => {
      const { bbox, zoom, ...filters } = request.query;
      return sendCompressedJson(request, reply, await map.customers(filters, { bbox, zoom }));
    },
  );

  routes.get(
    '/api/admin/map/property',
    { schema: { querystring: mapPropertyQuerySchema, response: { 200: mapPropertyDetailsSchema } } },
    async (request) => map.property(request.query),
  );

  routes.get('/api/admin/map/customers/:id', { schema: { params: idParamsSchema, response: { 200: mapCustomerDetailsSchema } } }, async (request) =>
    map.customer(request.params.id),
  );
}
