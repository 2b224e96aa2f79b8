import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { auditLog } from '#server/db/schema/index.ts';

export type AuditRow = typeof auditLog.$inferSelect;

export function createAuditRepository(db: Database) {
  return {
    /**
     * Newest first; `limit` rows from `offset`. Served by audit_log_occurred_at_idx, or by
     * audit_log_type_occurred_at_idx / audit_log_entity_idx when filtered.
     */
    async list(filter: { entityType?: string; entityId?: string }, limit: number, offset: number): Promise<AuditRow[]> {
      return db
        .select()
        .from(auditLog)
        .where(
          and(
            filter.entityType ? eq(auditLog.entityType, filter.entityType) : undefined,
            filter.entityId ? eq(auditLog.entityId, filter.entityId) : undefined,
          ),
        )
        .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
        .limit(limit)
        .offset(offset);
    },
  };
}
