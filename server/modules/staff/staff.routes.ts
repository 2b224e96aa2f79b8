import type { FastifyInstance } from 'fastify';
import {
  addStaffSchema,
  changeOwnPasswordSchema,
  changeRoleSchema,
  passwordSetupSchema,
  setPasswordLinkQuerySchema,
  setPasswordSchema,
} from '#shared/auth.ts';
import { parseOrThrow } from '#server/validation.ts';
import type { StaffService } from './staff.service.ts';

type Options = { staffService: StaffService; limitPerMinute: number };
type StaffParams = { Params: { id: string } };

/**
 * Staff accounts under /api/admin/settings (the session guard lets only admins in), the own
 * password change any signed-in staff member may make, and the public set-password link's two calls.
 */
export async function staffRoutes(app: FastifyInstance, { staffService, limitPerMinute }: Options): Promise<void> {
  const limited = { rateLimit: { max: limitPerMinute, timeWindow: '1 minute' } };

  app.get('/api/admin/settings/staff', async () => ({ staff: await staffService.list() }));

  app.post('/api/admin/settings/staff', { config: limited }, async (request, reply) => {
    const result = await staffService.add(request.staffUser!, parseOrThrow(addStaffSchema, request.body));
    return reply.status(201).send(result);
  });

  app.put<StaffParams>('/api/admin/settings/staff/:id/role', async (request) => ({
    staff: await staffService.changeRole(request.staffUser!, request.params.id, parseOrThrow(changeRoleSchema, request.body).role),
  }));

  app.post<StaffParams>('/api/admin/settings/staff/:id/deactivate', async (request) => ({
    staff: await staffService.deactivate(request.staffUser!, request.params.id),
  }));

  app.post<StaffParams>('/api/admin/settings/staff/:id/reactivate', async (request) => ({
    staff: await staffService.reactivate(request.staffUser!, request.params.id),
  }));

  app.post<StaffParams>('/api/admin/settings/staff/:id/password', { config: limited }, async (request) =>
    staffService.resetPassword(request.staffUser!, request.params.id, parseOrThrow(passwordSetupSchema, request.body)),
  );

  app.put('/api/admin/account/password', { config: limited, bodyLimit: 4096 }, async (request, reply) => {
    await staffService.changeOwnPassword(request.staffUser!, request.sessionId!, parseOrThrow(changeOwnPasswordSchema, request.body));
    return reply.status(204).send();
  });

  // The link's token travels in the body, never in an address (addresses end up in logs).
  app.post('/api/auth/set-password/check', { config: limited, bodyLimit: 4096 }, async (request) =>
    staffService.describeLink(parseOrThrow(setPasswordLinkQuerySchema, request.body).token),
  );

  app.post('/api/auth/set-password', { config: limited, bodyLimit: 4096 }, async (request, reply) => {
    const input = parseOrThrow(setPasswordSchema, request.body);
    await staffService.setPasswordWithLink(input.token, input.password);
    reply.header('cache-control', 'no-store');
    return reply.status(204).send();
  });
}
