import { desc } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { adminNotifications } from '#server/db/schema/index.ts';

export function createNotificationRepository(db: Database) {
  return {
    async listRecent(limit: number) {
      return db.select().from(adminNotifications).orderBy(desc(adminNotifications.createdAt)).limit(limit);
    },
  };
}
