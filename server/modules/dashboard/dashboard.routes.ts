import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardResponseSchema } from '#shared/dashboard.ts';
import type { DashboardService } from './dashboard.service.ts';

type Options = { dashboard: DashboardService };

/**
 * Staff only: every /api/admin path passes the session guard (plugins/session.ts) before routing,
 * which also marks the answer no-store. One request serves the whole screen.
 */
export async function dashboardRoutes(app: FastifyInstance, { dashboard }: Options): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/admin/dashboard', { schema: { response: { 200: dashboardResponseSchema } } }, async () => dashboard.summary());
}
