import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#shared/api.ts';
import { todayIn } from '#shared/dates.ts';
import {
  estimateLeadResponseSchema,
  leadConversionProposalSchema,
  leadConversionResultSchema,
  leadConversionSchema,
  leadDetailResponseSchema,
  leadListQuerySchema,
  leadListResponseSchema,
  leadParamsSchema,
  leadStatsSchema,
  leadStatusChangeSchema,
} from '#shared/lead.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import { validateBodyForToday } from '#server/validation.ts';
import type { LeadService } from './lead.service.ts';

type Options = { leads: LeadService; timeZone: string };

/**
 * Lead management (issue 7). Staff only: every /api/admin path passes the session guard
 * (plugins/session.ts) before routing. Estimate requests live under /estimate/:id, chat leads
 * under /chat/:id; only estimate requests change status or convert here.
 */
export async function leadRoutes(app: FastifyInstance, { leads, timeZone }: Options): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const today = () => todayIn(timeZone);

  routes.get(
    '/api/admin/leads',
    { schema: { querystring: leadListQuerySchema, response: { 200: leadListResponseSchema } } },
    async (request) => leads.list(request.query),
  );

  routes.get('/api/admin/leads/stats', { schema: { response: { 200: leadStatsSchema } } }, async () => leads.stats());

  routes.get('/api/admin/leads/:kind/:id', { schema: { params: leadParamsSchema, response: { 200: leadDetailResponseSchema } } }, async (request) =>
    leads.detail(request.params.kind, request.params.id),
  );

  routes.post(
    '/api/admin/leads/estimate/:id/status',
    { schema: { params: idParamsSchema, body: leadStatusChangeSchema, response: { 200: estimateLeadResponseSchema } } },
    async (request) => {
      const { status, expectedUpdatedAt } = request.body;
      return { lead: await leads.changeStatus(request.params.id, status, expectedUpdatedAt, actorOf(request)) };
    },
  );

  routes.get(
    '/api/admin/leads/estimate/:id/conversion',
    { schema: { params: idParamsSchema, response: { 200: leadConversionProposalSchema } } },
    async (request) => leads.proposal(request.params.id),
  );

  routes.post(
    '/api/admin/leads/estimate/:id/convert',
    {
      schema: { params: idParamsSchema, body: leadConversionSchema(today()), response: { 201: leadConversionResultSchema } },
      // The work order's date defaults to, and may not be before, today in the company's time zone.
      validatorCompiler: validateBodyForToday(leadConversionSchema, today),
    },
    async (request, reply) => reply.status(201).send(await leads.convert(request.params.id, request.body, actorOf(request))),
  );
}
