import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#shared/api.ts';
import { customerMatchDecisionSchema, customerMatchResolutionSchema } from '#shared/customer-match.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import type { CustomerMatchService } from './customer-match.service.ts';

const matchSchema = { params: idParamsSchema, body: customerMatchDecisionSchema, response: { 200: customerMatchResolutionSchema } };

/**
 * A chat booking's possible match (decision 018-a): "Same customer" or "New customer", from the work
 * order's detail or the leads screen. Staff only: every /api/admin path passes the session guard
 * (plugins/session.ts) before routing; both roles (admin, dispatcher) may choose.
 */
export async function customerMatchRoutes(app: FastifyInstance, { customerMatches }: { customerMatches: CustomerMatchService }): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post('/api/admin/work-orders/:id/customer-match', { schema: matchSchema }, async (request) => {
    const { decision, expectedUpdatedAt } = request.body;
    return customerMatches.resolve({ kind: 'work_order', id: request.params.id }, decision, expectedUpdatedAt, actorOf(request));
  });

  routes.post('/api/admin/leads/chat/:id/customer-match', { schema: matchSchema }, async (request) => {
    const { decision, expectedUpdatedAt } = request.body;
    return customerMatches.resolve({ kind: 'chat_lead', id: request.params.id }, decision, expectedUpdatedAt, actorOf(request));
  });
}
