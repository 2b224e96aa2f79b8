import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { adminNotifications } from '#server/db/schema/index.ts';

export type NotificationRow = typeof adminNotifications.$inferSelect;

export type NotificationRepository = ReturnType<typeof createNotificationRepository>;

export function createNotificationRepository(db: Database) {
  return {
    async listRecent(limit: number): Promise<NotificationRow[]> {
      return db.select().from(adminNotifications).orderBy(desc(adminNotifications.createdAt), desc(adminNotifications.id)).limit(limit);
    },

    async countUnread(): Promise<number> {
      const rows = await db.select({ unread: count() }).from(adminNotifications).where(isNull(adminNotifications.readAt));
      return rows[0]?.unread ?? 0;
    },

    /** Marks one read (keeping the first read time); undefined when there is no such notification. */
    async markRead(id: string, at: Date): Promise<NotificationRow | undefined> {
      const [updated] = await db
        .update(adminNotifications)
        .set({ readAt: at })
        .where(and(eq(adminNotifications.id, id), isNull(adminNotifications.readAt)))
        .returning();
      if (updated) return updated;
      const [existing] = await db.select().from(adminNotifications).where(eq(adminNotifications.id, id)).limit(1);
      return existing;
    },

    async markAllRead(at: Date): Promise<number> {
      const rows = await db.update(adminNotifications).set({ readAt: at }).where(isNull(adminNotifications.readAt)).returning({ id: adminNotifications.id });
      return rows.length;
    },

    /** Inside the transaction of whatever the notification is about (an estimate request, a chat booking). */
    async insert(executor: Database, values: typeof adminNotifications.$inferInsert): Promise<void> {
      await executor.insert(adminNotifications).values(values);
    },
  };
}
