import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#shared/api.ts';
import {
  mapConfigSchema,
  mapCustomerDetailsSchema,
  mapCustomerFiltersSchema,
  mapCustomersResponseSchema,
  mapPropertiesResponseSchema,
  mapPropertyDetailsSchema,
  mapPropertyQuerySchema,
  mapWorkOrderFiltersSchema,
} from '#shared/map.ts';
import { sendCompressedJson } from '#server/lib/compressed-json.ts';
import type { MapService } from './map.service.ts';

type Options = { map: MapService };

/**
 * The service map's data (spec 001 section 2; decision 016-c). Staff only: every /api/admin path
 * passes the session guard (plugins/session.ts) before routing. The two views' answers are JSON
 * built by the database and kept per snapshot, sent as they are (gzipped when the client accepts):
 * their response schemas document them, the bytes skip serialisation.
 */
export async function mapRoutes(app: FastifyInstance, { map }: Options): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/admin/map/config', { schema: { response: { 200: mapConfigSchema } } }, async () => map.config());

  routes.get(
    '/api/admin/map/properties',
    { schema: { querystring: mapWorkOrderFiltersSchema, response: { 200: mapPropertiesResponseSchema } } },
    async (request, reply) => sendCompressedJson(request, reply, await map.properties(request.query)),
  );

  routes.get(
    '/api/admin/map/customers',
    { schema: { querystring: mapCustomerFiltersSchema, response: { 200: mapCustomersResponseSchema } } },
    async (request, reply) => sendCompressedJson(request, reply, await map.customers(request.query)),
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
