import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '#server/db/client.ts';
import { createNotificationRepository } from './notification.repository.ts';

const notificationSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});

const listQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });

/** Staff notifications, newest first (new chat bookings today; more kinds as features arrive). */
export async function notificationRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const notifications = createNotificationRepository(options.db);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/notifications',
    { schema: { querystring: listQuerySchema, response: { 200: z.object({ notifications: z.array(notificationSchema) }) } } },
    async (request) => {
      const rows = await notifications.listRecent(request.query.limit);
      return {
        notifications: rows.map((row) => ({
          id: row.id,
          type: row.type,
          title: row.title,
          message: row.message,
          data: row.data,
          readAt: row.readAt?.toISOString() ?? null,
          createdAt: row.createdAt.toISOString(),
        })),
      };
    },
  );
}
