import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditListQuerySchema, auditListResponseSchema, auditPageSize } from '#shared/audit.ts';
import type { Database } from '#server/db/client.ts';
import { createAuditRepository } from './audit.repository.ts';

/**
 * The activity log (admins only: /api/admin/settings/* passes the session guard's admin rule).
 * Page-limited: one row more than a page is read to know whether another page exists.
 */
export async function auditRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  const repository = createAuditRepository(db);

  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/admin/settings/activity',
      { schema: { querystring: auditListQuerySchema, response: { 200: auditListResponseSchema } } },
      async (request) => {
        const query = request.query;
        const rows = await repository.list(query, auditPageSize + 1, (query.page - 1) * auditPageSize);
        return {
          entries: rows.slice(0, auditPageSize).map((row) => ({
            id: row.id,
            occurredAt: row.occurredAt.toISOString(),
            actorId: row.actorId,
            actorName: row.actorName,
            entityType: row.entityType,
            entityId: row.entityId,
            entityLabel: row.entityLabel,
            action: row.action,
            changes: row.changes,
          })),
          page: query.page,
          pageSize: auditPageSize,
          hasMore: rows.length > auditPageSize,
        };
      },
    );
}
