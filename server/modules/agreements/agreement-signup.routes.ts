import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idempotencyHeadersSchema, idParamsSchema } from '#shared/api.ts';
import {
  agreementSignupCheckoutParamsSchema,
  agreementSignupCheckoutStatusSchema,
  agreementSignupConfirmSchema,
  agreementSignupDeclineSchema,
  agreementSignupListQuerySchema,
  agreementSignupListResponseSchema,
  agreementSignupReceivedSchema,
  agreementSignupRequestSchema,
  agreementSignupResponseSchema,
} from '#shared/agreement-signup.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import type { AgreementSignupPayments } from './agreement-signup.payments.ts';
import type { AgreementSignupService } from './agreement-signup.service.ts';

type Options = { signups: AgreementSignupService; payments: AgreementSignupPayments; limitPer15Minutes: number; statusLimitPerMinute: number };

/**
 * The site's plan sign-up (issue 22, decision 027-b): the public form, limited per client address
 * like the other public forms, and the office's "Plan sign-ups" (admins and dispatchers, as for
 * selling a plan; technicians are refused all of /api/admin by the session guard).
 */
export async function agreementSignupRoutes(app: FastifyInstance, { signups, payments, limitPer15Minutes, statusLimitPerMinute }: Options): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/public/maintenance-plan-signups',
    {
      bodyLimit: 8 * 1024,
      config: { rateLimit: { max: limitPer15Minutes, timeWindow: '15 minutes' } },
      schema: {
        headers: idempotencyHeadersSchema,
        body: agreementSignupRequestSchema,
        response: { 200: agreementSignupReceivedSchema, 201: agreementSignupReceivedSchema },
      },
    },
    async (request, reply) => {
      const { isReplay, ...received } = await signups.submit(request.body, { idempotencyKey: request.headers['idempotency-key'] });
      return reply.status(isReplay ? 200 : 201).header('cache-control', 'no-store').send(received);
    },
  );

  // Back from Stripe's page (decision 027-c): whether the payment is recorded yet, nothing more.
  routes.get(
    '/api/public/maintenance-plan-signups/checkout/:sessionId',
    {
      config: { rateLimit: { max: statusLimitPerMinute, timeWindow: '1 minute' } },
      schema: { params: agreementSignupCheckoutParamsSchema, response: { 200: agreementSignupCheckoutStatusSchema } },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await payments.checkoutStatus(request.params.sessionId)),
  );

  routes.get(
    '/api/admin/agreement-signups',
    { schema: { querystring: agreementSignupListQuerySchema, response: { 200: agreementSignupListResponseSchema } } },
    async (request) => signups.list(request.query),
  );

  routes.post(
    '/api/admin/agreement-signups/:id/confirm',
    { schema: { params: idParamsSchema, body: agreementSignupConfirmSchema, response: { 200: agreementSignupResponseSchema } } },
    async (request) => ({ signup: await signups.confirm(request.params.id, request.body, actorOf(request)) }),
  );

  routes.post(
    '/api/admin/agreement-signups/:id/decline',
    { schema: { params: idParamsSchema, body: agreementSignupDeclineSchema, response: { 200: agreementSignupResponseSchema } } },
    async (request) => ({ signup: await signups.decline(request.params.id, request.body.reason, actorOf(request)) }),
  );
}
