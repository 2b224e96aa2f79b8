import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbExecutor } from '#server/db/client.ts';
import { documentLinks } from '#server/db/schema/index.ts';

export type DocumentLinkRow = typeof documentLinks.$inferSelect;

/** The customer links of quotes and invoices, found by their token's hash only (decision 024-c). */
export function createDocumentLinkRepository(db: DbExecutor) {
  return {
    async insert(executor: DbExecutor, values: typeof documentLinks.$inferInsert): Promise<void> {
      await executor.insert(documentLinks).values(values);
    },

    /** The link with this hash, marking it opened. */
    async open(tokenHash: string, executor: DbExecutor = db): Promise<DocumentLinkRow | undefined> {
      const rows = await executor.update(documentLinks).set({ lastOpenedAt: sql`now()` }).where(eq(documentLinks.tokenHash, tokenHash)).returning();
      return rows[0];
    },

    /** Removes links that expired before `before` (the hourly housekeeping). */
    async deleteExpired(before: Date, executor: DbExecutor = db): Promise<number> {
      const rows = await executor.delete(documentLinks).where(lt(documentLinks.expiresAt, before)).returning({ tokenHash: documentLinks.tokenHash });
      return rows.length;
    },

    async countFor(documentType: DocumentLinkRow['documentType'], documentId: string, executor: DbExecutor = db): Promise<number> {
      const rows = await executor
        .select({ count: sql<number>`count(*)::int` })
        .from(documentLinks)
        .where(and(eq(documentLinks.documentType, documentType), eq(documentLinks.documentId, documentId)));
      return rows[0]?.count ?? 0;
    },
  };
}

export type DocumentLinkRepository = ReturnType<typeof createDocumentLinkRepository>;
