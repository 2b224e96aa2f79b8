import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#shared/api.ts';
import {
  technicianCreateSchema,
  technicianListQuerySchema,
  technicianListResponseSchema,
  technicianSettingsListResponseSchema,
  technicianSettingsResponseSchema,
  technicianUpdateSchema,
} from '#shared/technician.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import type { TechnicianService } from './technician.service.ts';

/**
 * Technician management (admins only: /api/admin/settings/*), and GET /api/admin/technicians, the
 * list the calendar and the pickers read, which every staff member may call.
 */
export async function technicianSettingsRoutes(app: FastifyInstance, { technicians }: { technicians: TechnicianService }): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/admin/technicians',
    { schema: { querystring: technicianListQuerySchema, response: { 200: technicianListResponseSchema } } },
    async (request) => technicians.pickerList(request.query.active === 'true'),
  );

  routes.get('/api/admin/settings/technicians', { schema: { response: { 200: technicianSettingsListResponseSchema } } }, async () =>
    technicians.list(),
  );

  routes.post(
    '/api/admin/settings/technicians',
    { schema: { body: technicianCreateSchema, response: { 201: technicianSettingsResponseSchema } } },
    async (request, reply) => {
      const technician = await technicians.create(request.body, actorOf(request));
      return reply.status(201).send({ technician });
    },
  );

  routes.patch(
    '/api/admin/settings/technicians/:id',
    { schema: { params: idParamsSchema, body: technicianUpdateSchema, response: { 200: technicianSettingsResponseSchema } } },
    async (request) => ({ technician: await technicians.update(request.params.id, request.body, actorOf(request)) }),
  );
}
