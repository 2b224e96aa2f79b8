import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  notificationIdParamsSchema,
  notificationListQuerySchema,
  notificationListResponseSchema,
  notificationSchema,
} from '#shared/notifications.ts';
import type { NotificationService } from './notification.service.ts';

/** Staff notifications (chat bookings, website estimate requests), behind the /api/admin session guard. */
export async function notificationRoutes(app: FastifyInstance, options: { notifications: NotificationService }): Promise<void> {
  const { notifications } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/admin/notifications',
    { schema: { querystring: notificationListQuerySchema, response: { 200: notificationListResponseSchema } } },
    async (request) => notifications.list(request.query.limit),
  );

  routes.post(
    '/api/admin/notifications/read-all',
    { schema: { response: { 200: z.object({ updated: z.number().int() }) } } },
    async () => notifications.markAllRead(),
  );

  routes.post(
    '/api/admin/notifications/:id/read',
    { schema: { params: notificationIdParamsSchema, response: { 200: z.object({ notification: notificationSchema }) } } },
    async (request) => ({ notification: await notifications.markRead(request.params.id) }),
  );
}
