import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema, noContentSchema } from '#shared/api.ts';
import {
  addStaffSchema,
  changeOwnPasswordSchema,
  changeRoleSchema,
  passwordSetupSchema,
  setPasswordLinkQuerySchema,
  setPasswordLinkResponseSchema,
  setPasswordSchema,
  staffChangeResponseSchema,
  staffListResponseSchema,
} from '#shared/auth.ts';
import type { StaffService } from './staff.service.ts';
import { sendNoContent } from '#server/lib/no-content.ts';

type Options = { staffService: StaffService; limitPerMinute: number };

/**
 * Staff accounts under /api/admin/settings (the session guard lets only admins in), the own
 * password change any signed-in staff member may make (office staff under /api/admin, technicians
 * under /api/tech), and the public set-password link's two calls.
 */
export async function staffRoutes(app: FastifyInstance, { staffService, limitPerMinute }: Options): Promise<void> {
  const limited = { rateLimit: { max: limitPerMinute, timeWindow: '1 minute' } };
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const staffAnswer = { response: { 200: staffChangeResponseSchema } };

  routes.get('/api/admin/settings/staff', { schema: { response: { 200: staffListResponseSchema } } }, async () => ({
    staff: await staffService.list(),
  }));

  routes.post(
    '/api/admin/settings/staff',
    { config: limited, schema: { body: addStaffSchema, response: { 201: staffChangeResponseSchema } } },
    async (request, reply) => {
      const result = await staffService.add(request.staffUser!, request.body);
      return reply.status(201).send(result);
    },
  );

  routes.put(
    '/api/admin/settings/staff/:id/role',
    { schema: { params: idParamsSchema, body: changeRoleSchema, ...staffAnswer } },
    async (request) => ({ staff: await staffService.changeRole(request.staffUser!, request.params.id, request.body.role, request.body.technicianId) }),
  );

  routes.post('/api/admin/settings/staff/:id/deactivate', { schema: { params: idParamsSchema, ...staffAnswer } }, async (request) => ({
    staff: await staffService.deactivate(request.staffUser!, request.params.id),
  }));

  routes.post('/api/admin/settings/staff/:id/reactivate', { schema: { params: idParamsSchema, ...staffAnswer } }, async (request) => ({
    staff: await staffService.reactivate(request.staffUser!, request.params.id),
  }));

  routes.post(
    '/api/admin/settings/staff/:id/password',
    { config: limited, schema: { params: idParamsSchema, body: passwordSetupSchema, ...staffAnswer } },
    async (request) => staffService.resetPassword(request.staffUser!, request.params.id, request.body),
  );

  // One rule (changeOwnPassword), two doors: the office's under /api/admin, the technician app's
  // under /api/tech (the session guard keeps technicians out of the one and office staff out of
  // the other). Decision 022-a, "Later".
  const changeOwnPassword = { config: limited, bodyLimit: 4096, schema: { body: changeOwnPasswordSchema, response: { 204: noContentSchema } } };
  for (const url of ['/api/admin/account/password', '/api/tech/account/password']) {
    routes.put(url, changeOwnPassword, async (request, reply) => {
      await staffService.changeOwnPassword(request.staffUser!, request.sessionId!, request.body);
      return sendNoContent(reply);
    });
  }

  // The link's token travels in the body, never in an address (addresses end up in logs).
  routes.post(
    '/api/auth/set-password/check',
    { config: limited, bodyLimit: 4096, schema: { body: setPasswordLinkQuerySchema, response: { 200: setPasswordLinkResponseSchema } } },
    async (request) => staffService.describeLink(request.body.token),
  );

  routes.post(
    '/api/auth/set-password',
    { config: limited, bodyLimit: 4096, schema: { body: setPasswordSchema, response: { 204: noContentSchema } } },
    async (request, reply) => {
      await staffService.setPasswordWithLink(request.body.token, request.body.password);
      reply.header('cache-control', 'no-store');
      return sendNoContent(reply);
    },
  );
}
