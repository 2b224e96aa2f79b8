import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#shared/api.ts';
import {
  agreementCancelSchema,
  agreementCreateSchema,
  agreementResponseSchema,
  agreementSummarySchema,
  agreementUpdateSchema,
  customerAgreementsResponseSchema,
  visitsDueQuerySchema,
  visitsDueResponseSchema,
} from '#shared/agreement.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import { adminOnly } from '#server/plugins/session.ts';
import type { AgreementService } from './agreement.service.ts';

type Options = { agreements: AgreementService };

/**
 * Maintenance agreements (issue 22, decision 027-b). The office (admins and dispatchers) sells
 * plans, changes them and works the Visits due list; cancelling one is an admin's (`adminOnly`).
 * Technicians are refused all of /api/admin by the session guard.
 */
export async function agreementRoutes(app: FastifyInstance, { agreements }: Options): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/admin/customers/:id/agreements',
    { schema: { params: idParamsSchema, response: { 200: customerAgreementsResponseSchema } } },
    async (request) => ({ agreements: await agreements.listForCustomer(request.params.id) }),
  );

  routes.post(
    '/api/admin/customers/:id/agreements',
    { schema: { params: idParamsSchema, body: agreementCreateSchema, response: { 201: agreementResponseSchema } } },
    async (request, reply) => reply.status(201).send({ agreement: await agreements.create(request.params.id, request.body, actorOf(request)) }),
  );

  routes.get(
    '/api/admin/agreements/visits-due',
    { schema: { querystring: visitsDueQuerySchema, response: { 200: visitsDueResponseSchema } } },
    async (request) => agreements.visitsDue(request.query),
  );

  routes.get('/api/admin/agreements/summary', { schema: { response: { 200: agreementSummarySchema } } }, async () => agreements.summary());

  routes.get(
    '/api/admin/agreements/:id',
    { schema: { params: idParamsSchema, response: { 200: agreementResponseSchema } } },
    async (request) => ({ agreement: await agreements.detail(request.params.id) }),
  );

  routes.put(
    '/api/admin/agreements/:id',
    { schema: { params: idParamsSchema, body: agreementUpdateSchema, response: { 200: agreementResponseSchema } } },
    async (request) => ({ agreement: await agreements.update(request.params.id, request.body, actorOf(request)) }),
  );

  routes.post(
    '/api/admin/agreements/:id/cancel',
    { config: adminOnly, schema: { params: idParamsSchema, body: agreementCancelSchema, response: { 200: agreementResponseSchema } } },
    async (request) => ({ agreement: await agreements.cancel(request.params.id, request.body.reason, actorOf(request)) }),
  );
}
