import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#shared/api.ts';
import {
  consentParamsSchema,
  consentResponseSchema,
  consentUpdateSchema,
  customerMessagingResponseSchema,
  messageListResponseSchema,
  messageResponseSchema,
  messageTemplateListResponseSchema,
  messageTemplateParamsSchema,
  messageTemplateResponseSchema,
  messageTemplateTestResponseSchema,
  messageTemplateTestSchema,
  messageTemplateUpdateSchema,
  messagingSettingsResponseSchema,
  messagingSettingsSchema,
} from '#shared/messaging.ts';
import { workOrderResponseSchema } from '#shared/work-order.ts';
import { AppError } from '#server/errors.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import type { MessagingService } from './messaging.service.ts';

/**
 * Staff only (the session guard on /api/admin); templates and settings under
 * /api/admin/settings/* are admins' only (the guard's rule for that prefix).
 */
export async function messagingRoutes(app: FastifyInstance, { messaging }: { messaging: MessagingService }): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/admin/work-orders/:id/en-route',
    { schema: { params: idParamsSchema, response: { 200: workOrderResponseSchema } } },
    async (request) => ({ workOrder: await messaging.markEnRoute(request.params.id, actorOf(request)) }),
  );

  routes.get(
    '/api/admin/work-orders/:id/messages',
    { schema: { params: idParamsSchema, response: { 200: messageListResponseSchema } } },
    async (request) => messaging.workOrderMessages(request.params.id),
  );

  routes.get(
    '/api/admin/customers/:id/messaging',
    { schema: { params: idParamsSchema, response: { 200: customerMessagingResponseSchema } } },
    async (request) => messaging.customerMessaging(request.params.id),
  );

  routes.put(
    '/api/admin/customers/:id/consents/:channel',
    { schema: { params: consentParamsSchema, body: consentUpdateSchema, response: { 200: consentResponseSchema } } },
    async (request) => messaging.setConsent(request.params.id, request.params.channel, request.body.status, actorOf(request)),
  );

  routes.post(
    '/api/admin/messages/:id/resend',
    { schema: { params: idParamsSchema, response: { 201: messageResponseSchema } } },
    async (request, reply) => reply.status(201).send(await messaging.resend(request.params.id, actorOf(request))),
  );

  routes.get(
    '/api/admin/settings/message-templates',
    { schema: { response: { 200: messageTemplateListResponseSchema } } },
    async () => messaging.templates(),
  );

  routes.put(
    '/api/admin/settings/message-templates/:type',
    { schema: { params: messageTemplateParamsSchema, body: messageTemplateUpdateSchema, response: { 200: messageTemplateResponseSchema } } },
    async (request) => messaging.saveTemplate(request.params.type, request.body, actorOf(request)),
  );

  routes.delete(
    '/api/admin/settings/message-templates/:type',
    { schema: { params: messageTemplateParamsSchema, response: { 200: messageTemplateResponseSchema } } },
    async (request) => messaging.restoreTemplate(request.params.type, actorOf(request)),
  );

  routes.post(
    '/api/admin/settings/message-templates/:type/test',
    { schema: { params: messageTemplateParamsSchema, body: messageTemplateTestSchema, response: { 200: messageTemplateTestResponseSchema } } },
    async (request) => {
      const user = request.staffUser;
      if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in.');
      return messaging.sendTest(request.params.type, request.body, user.email);
    },
  );

  routes.get('/api/admin/settings/messaging', { schema: { response: { 200: messagingSettingsResponseSchema } } }, async () => messaging.settings());

  routes.put(
    '/api/admin/settings/messaging',
    { schema: { body: messagingSettingsSchema, response: { 200: messagingSettingsResponseSchema } } },
    async (request) => messaging.saveSettings(request.body, actorOf(request)),
  );
}
