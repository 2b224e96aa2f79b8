import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { todayIn } from '#shared/dates.ts';
import { leadConversionSchema, leadListQuerySchema, leadStatusChangeSchema } from '#shared/lead.ts';
import { actorOf } from '#server/modules/audit/audit.service.ts';
import { parseOrThrow } from '#server/validation.ts';
import type { LeadService } from './lead.service.ts';

type Options = { leads: LeadService; timeZone: string };
type LeadParams = { Params: { id: string } };

const kindSchema = z.enum(['estimate', 'chat']);

/**
 * Lead management (issue 7). Staff only: every /api/admin path passes the session guard
 * (plugins/session.ts) before routing. Estimate requests live under /estimate/:id, chat leads
 * under /chat/:id; only estimate requests change status or convert here.
 */
export async function leadRoutes(app: FastifyInstance, { leads, timeZone }: Options): Promise<void> {
  app.get('/api/admin/leads', async (request) => leads.list(parseOrThrow(leadListQuerySchema, request.query)));

  app.get('/api/admin/leads/stats', async () => leads.stats());

  app.get<{ Params: { kind: string; id: string } }>('/api/admin/leads/:kind/:id', async (request) =>
    leads.detail(parseOrThrow(kindSchema, request.params.kind), request.params.id),
  );

  app.post<LeadParams>('/api/admin/leads/estimate/:id/status', async (request) => {
    const { status, expectedUpdatedAt } = parseOrThrow(leadStatusChangeSchema, request.body);
    return { lead: await leads.changeStatus(request.params.id, status, expectedUpdatedAt, actorOf(request)) };
  });

  app.get<LeadParams>('/api/admin/leads/estimate/:id/conversion', async (request) => leads.proposal(request.params.id));

  app.post<LeadParams>('/api/admin/leads/estimate/:id/convert', async (request, reply) => {
    const values = parseOrThrow(leadConversionSchema(todayIn(timeZone)), request.body);
    return reply.status(201).send(await leads.convert(request.params.id, values, actorOf(request)));
  });
}
