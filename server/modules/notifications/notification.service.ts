import type { AdminNotification, NotificationListResponse } from '#shared/notifications.ts';
import { notificationMessages } from '#shared/notifications.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { createNotificationRepository, type NotificationRow } from './notification.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';

/** A uuid as PostgreSQL prints it: anything else can never be an id, so it is a 404, not a 500. */

function toNotification(row: NotificationRow): AdminNotification {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    message: row.message,
    data: row.data,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Staff notifications: newest first, with the unread count the bell shows; read one or all. */
export function createNotificationService(options: { db: Database; now?: () => Date }) {
  const repository = createNotificationRepository(options.db);
  const now = options.now ?? (() => new Date());

  return {
    async list(limit: number): Promise<NotificationListResponse> {
      const [rows, unreadCount] = await Promise.all([repository.listRecent(limit), repository.countUnread()]);
      return { notifications: rows.map(toNotification), unreadCount };
    },

    /** Marking an already read notification again keeps its first read time. */
    async markRead(id: string): Promise<AdminNotification> {
      const row = isUuid(id) ? await repository.markRead(id, now()) : undefined;
      if (!row) throw new AppError('NOT_FOUND', notificationMessages.notFound);
      return toNotification(row);
    },

    async markAllRead(): Promise<{ updated: number }> {
      return { updated: await repository.markAllRead(now()) };
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
