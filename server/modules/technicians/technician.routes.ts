import type { FastifyInstance } from 'fastify';
import { technicianCreateSchema, technicianUpdateSchema } from '#shared/technician.ts';
import { actorOf } from '#server/modules/audit/audit.service.ts';
import { parseOrThrow } from '#server/validation.ts';
import type { TechnicianService } from './technician.service.ts';

/**
 * Technician management (admins only: /api/admin/settings/*). The calendar and the pickers keep
 * reading GET /api/admin/technicians, which every staff member may call.
 */
export async function technicianSettingsRoutes(app: FastifyInstance, { technicians }: { technicians: TechnicianService }): Promise<void> {
  app.get('/api/admin/settings/technicians', async () => technicians.list());

  app.post('/api/admin/settings/technicians', async (request, reply) => {
    const technician = await technicians.create(parseOrThrow(technicianCreateSchema, request.body), actorOf(request));
    return reply.status(201).send({ technician });
  });

  app.patch<{ Params: { id: string } }>('/api/admin/settings/technicians/:id', async (request) => ({
    technician: await technicians.update(request.params.id, parseOrThrow(technicianUpdateSchema, request.body), actorOf(request)),
  }));
}
